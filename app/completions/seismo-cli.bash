# SPDX-License-Identifier: GPL-3.0-or-later
# bash completion for seismo-cli and seismo: commands, options, backends, event names (from
# `seismo-cli record -b BACKEND --list-events`) and the files each argument takes. Stands alone
# (no bash-completion helpers needed), so that it can be sourced and tested as it is.

# Folders and the files whose extension is one of the rest: seismo-cli cur EXT...
_seismo_cli_files_ext()
{
  local cur=$1; shift
  local pat restore
  pat=$(IFS='|'; echo "$*")
  restore=$(shopt -p extglob)
  shopt -s extglob
  compopt -o filenames 2>/dev/null
  mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen -d -- "$cur")
  mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen -f -X "!*.@($pat)" -- "$cur")
  eval "$restore"
}

# Every format Seismo reads; folders too (strace -ff output, or to walk into).
_seismo_cli_trace_files()
{
  _seismo_cli_files_ext "$1" seismo dat strace ftrace txt log trace
}

# A comma-separated list: complete the item after the last comma from the words given.
_seismo_cli_list()
{
  local cur=$1 words=$2
  local head="" item=$cur
  if [[ $cur == *,* ]]; then
    head=${cur%,*},
    item=${cur##*,}
  fi
  local w
  for w in $(compgen -W "$words" -- "$item"); do
    COMPREPLY+=("$head$w")
  done
  compopt -o nospace 2>/dev/null
}

_seismo_cli()
{
  local cur=${COMP_WORDS[COMP_CWORD]}
  local prev=${COMP_WORDS[COMP_CWORD-1]}
  local cli=${COMP_WORDS[0]}
  local commands="info report stats hist convert record explain compare compare-overhead render lesson states critical-path stacks"
  local cmd="" i
  COMPREPLY=()

  for ((i = 1; i < COMP_CWORD; i++)); do
    case ${COMP_WORDS[i]} in
      -*) ;;
      *) cmd=${COMP_WORDS[i]}; break ;;
    esac
  done
  if [[ -z $cmd ]]; then
    COMPREPLY=($(compgen -W "$commands --help --version" -- "$cur"))
    return
  fi

  # After `--` (record, compare-overhead): a command line.
  for ((i = i + 1; i < COMP_CWORD; i++)); do
    if [[ ${COMP_WORDS[i]} == -- ]]; then
      if ((i + 1 == COMP_CWORD)); then
        COMPREPLY=($(compgen -c -- "$cur"))
      else
        compopt -o default 2>/dev/null
      fi
      return
    fi
  done

  local opts=""
  case $cmd in
    info) opts="--json --filter -f --help" ;;
    report) opts="--limit -n --filter -f --help" ;;
    stats) opts="--by --json --filter -f --help" ;;
    hist) opts="--of --syscall -s --filter -f --linear --from --to --scope --json --help" ;;
    convert) opts="--filter -f --help" ;;
    record) opts="--backend -b --events -e --all -a --pid -p --children --duration -d --buffer-kb
                  --probe --aggregate --stacks --keep-running --output -o --list-backends --list-events --help" ;;
    explain) opts="--json --help" ;;
    compare) opts="--json --help" ;;
    compare-overhead) opts="--runs -n --backend -b --show-output --json --help" ;;
    render) opts="--output -o --from --to --rows --width -w --height --scale --title --markers
                  --no-legend --no-session --dark --flamegraph --filter --weight --off-cpu --icicle --help" ;;
    lesson) opts="--sample --help" ;;
    states|critical-path) opts="--task -t --from --to --json --filter -f --arch --help" ;;
    stacks) opts="--filter -f --weight -w --folded --limit -n --json --arch --help" ;;
    *) return ;;
  esac

  case $prev in
    -b|--backend)
      if [[ $cmd == compare-overhead ]]; then
        _seismo_cli_list "$cur" "ptrace ftrace ebpf"
      else
        COMPREPLY=($(compgen -W "ftrace ptrace ebpf" -- "$cur"))
      fi
      return ;;
    -e|--events)
      local backend=ptrace
      for ((i = 1; i < COMP_CWORD - 1; i++)); do
        case ${COMP_WORDS[i]} in
          -b|--backend) backend=${COMP_WORDS[i+1]} ;;
          --backend=*) backend=${COMP_WORDS[i]#--backend=} ;;
        esac
      done
      _seismo_cli_list "$cur" "$("$cli" record -b "$backend" --list-events 2>/dev/null)"
      return ;;
    --stacks)
      # The kind is optional: an option may follow as well.
      if [[ $cur != -* ]]; then
        COMPREPLY=($(compgen -W "user kernel both" -- "$cur"))
        return
      fi ;;
    --by) COMPREPLY=($(compgen -W "event task cpu syscall" -- "$cur")); return ;;
    --weight) COMPREPLY=($(compgen -W "count time" -- "$cur")); return ;;
    --of) COMPREPLY=($(compgen -W "syscall-latency wakeup-latency runtime irq-latency softirq-latency gap" -- "$cur")); return ;;
    --scope) COMPREPLY=($(compgen -W "task cpu any" -- "$cur")); return ;;
    -s|--syscall)
      COMPREPLY=($(compgen -W "$("$cli" record -b ptrace --list-events 2>/dev/null | grep -v '^%')" -- "$cur"))
      return ;;
    --rows) _seismo_cli_list "$cur" "all cpus tasks cpu0 cpu1 task: pid: comm:"; return ;;
    -p|--pid) COMPREPLY=($(compgen -W "$(ls /proc | grep '^[0-9]')" -- "$cur")); return ;;
    -o|--output)
      case $cmd in
        render) _seismo_cli_files_ext "$cur" svg pdf png ;;
        *) _seismo_cli_files_ext "$cur" seismo ;;
      esac
      return ;;
    --sample) _seismo_cli_trace_files "$cur"; return ;;
    --arch)
      COMPREPLY=($(compgen -W "x86_64 i386 arm arm64 riscv64 powerpc64 s390x mips mips64 loongarch64" -- "$cur"))
      return ;;
    -f|--filter|--from|--to|--linear|--limit|-n|--runs|--duration|-d|--buffer-kb|--probe|--width|-w|\
    --height|--scale|--title|--markers|-t|--task)
      return ;;
  esac

  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$opts" -- "$cur"))
    return
  fi

  # Positional arguments: which one is this?
  local n=0 skip=0
  for ((i = 1; i < COMP_CWORD; i++)); do
    local w=${COMP_WORDS[i]}
    if ((skip)); then skip=0; continue; fi
    case $w in
      -b|--backend|-e|--events|--by|--of|--scope|-s|--syscall|--rows|-p|--pid|-o|--output|--sample|\
      -f|--filter|--from|--to|--linear|--limit|-n|--runs|--duration|-d|--buffer-kb|--probe|--width|-w|\
      --height|--scale|--title|--markers|-t|--task|--arch) skip=1 ;;
      -*) ;;
      *) n=$((n + 1)) ;;
    esac
  done
  # n counts the command itself: n == 1 is the first argument after it.
  case $cmd in
    explain)
      COMPREPLY=($(compgen -W "$("$cli" record -b ptrace --list-events 2>/dev/null | grep -v '^%')" -- "$cur")) ;;
    convert)
      if ((n == 1)); then _seismo_cli_trace_files "$cur"; else _seismo_cli_files_ext "$cur" seismo json csv; fi ;;
    compare)
      ((n <= 2)) && _seismo_cli_trace_files "$cur" ;;
    lesson)
      if ((n == 1)); then
        COMPREPLY=($(compgen -W "check list" -- "$cur"))
      else
        _seismo_cli_files_ext "$cur" lesson
      fi ;;
    record|compare-overhead) ;;
    *)
      ((n == 1)) && _seismo_cli_trace_files "$cur" ;;
  esac
}

_seismo()
{
  local cur=${COMP_WORDS[COMP_CWORD]}
  COMPREPLY=()
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "--version --help --help-all --help-gapplication --display" -- "$cur"))
  else
    _seismo_cli_trace_files "$cur"
  fi
}

complete -F _seismo_cli seismo-cli
complete -F _seismo seismo
