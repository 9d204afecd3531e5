# SPDX-License-Identifier: GPL-3.0-or-later
# fish completion for seismo: its options and the trace files it opens.
complete -c seismo -l version -d 'Print the version'
complete -c seismo -l help -d 'Show the options'
# Folders and trace files (fish's __fish_complete_suffix would offer every file).
function __seismo_traces
    for f in (commandline -ct)*
        if test -d "$f"
            echo $f/
        else if string match -qr -- '\\.(seismo|dat|strace|ftrace|txt|log|trace|gz|zst|xz|bz2)$' $f
            echo $f
        end
    end
end
complete -c seismo -f -k -a '(__seismo_traces)'
