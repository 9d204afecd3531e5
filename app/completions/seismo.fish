# SPDX-License-Identifier: GPL-3.0-or-later
# fish completion for seismo: its options and the trace files it opens.
complete -c seismo -l version -d 'Print the version'
complete -c seismo -l help -d 'Show the options'
complete -c seismo -k -a '(__fish_complete_suffix .seismo; __fish_complete_suffix .dat; __fish_complete_suffix .strace; __fish_complete_suffix .ftrace)'
