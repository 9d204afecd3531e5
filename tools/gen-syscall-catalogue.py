#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Generates data/seismo-syscall-catalogue.h: the one syscall catalogue every producer reads.

Per architecture, syscall number -> name, taken from the kernel's own uapi tables: the
<asm/unistd.h> of Debian's linux-libc-dev-<arch>-cross packages, expanded by the C preprocessor
with the macros each ABI defines (so the asm-generic table of arm64, riscv64 and loongarch64 comes
out with the same __ARCH_WANT_* choices the kernel makes). Per name, its arguments (names and C
types from the kernel's syscalls:sys_enter_* tracepoint formats), which of them are paths, fds and
flags, and strace-style classes (%file, %desc, ...).

Run once, commit the output (building must not depend on cross headers or on the build machine's
tracefs):

  mkdir /tmp/hdr && cd /tmp/hdr && apt-get download linux-libc-dev-{amd64,i386,x32,armhf,arm64,\\
      riscv64,ppc64el,s390x,mips,mips64el}-cross && for f in *.deb; do dpkg -x $f root; done
  tools/gen-syscall-catalogue.py /tmp/hdr/root/usr /sys/kernel/tracing/events/syscalls \\
      > data/seismo-syscall-catalogue.h
"""
import os
import re
import subprocess
import sys

# (arch name as metadata.arch spells it, include dir under the cross root, cpp defines, header).
# The defines are what the compiler for that ABI predefines and the header tests.
ARCHES = [
    ('x86_64', 'x86_64-linux-gnu', ['__x86_64__', '__LP64__'], 'asm/unistd.h'),
    ('i386', 'i686-linux-gnu', ['__i386__'], 'asm/unistd.h'),
    ('x32', 'x86_64-linux-gnux32', ['__x86_64__', '__ILP32__'], 'asm/unistd.h'),
    ('arm', 'arm-linux-gnueabihf', ['__arm__', '__ARM_EABI__'], 'asm/unistd.h'),
    ('arm64', 'aarch64-linux-gnu', ['__aarch64__', '__LP64__'], 'asm/unistd.h'),
    ('riscv64', 'riscv64-linux-gnu',
     ['__riscv', '__LP64__', '__SIZEOF_POINTER__=8', '__riscv_xlen=64'], 'asm/unistd.h'),
    ('powerpc', 'powerpc64le-linux-gnu', ['__powerpc__'], 'asm/unistd.h'),
    ('powerpc64', 'powerpc64le-linux-gnu', ['__powerpc__', '__powerpc64__', '__LP64__'],
     'asm/unistd.h'),
    ('s390x', 's390x-linux-gnu', ['__s390__', '__s390x__', '__LP64__'], 'asm/unistd.h'),
    ('mips', 'mips-linux-gnu',
     ['__mips__', '_MIPS_SIM=_MIPS_SIM_ABI32'], 'asm/unistd.h'),
    ('mips64n32', 'mips64el-linux-gnuabi64',
     ['__mips__', '_MIPS_SIM=_MIPS_SIM_NABI32'], 'asm/unistd.h'),
    ('mips64', 'mips64el-linux-gnuabi64',
     ['__mips__', '_MIPS_SIM=_MIPS_SIM_ABI64', '__LP64__'], 'asm/unistd.h'),
    # No loong64 cross package in Debian 12: arch/loongarch/include/uapi/asm/unistd.h (Linux 6.1)
    # is only these two wants around the asm-generic table, which every package carries.
    ('loongarch64', 'riscv64-linux-gnu',
     ['__loongarch__', '__LP64__', '__SIZEOF_POINTER__=8', '__ARCH_WANT_SYS_CLONE',
      '__ARCH_WANT_SYS_CLONE3'], 'asm-generic/unistd.h'),
]

# Numbers the kernel adds to every syscall of an ABI (what sys_enter's id holds).
BASES = {'x32': 0x40000000, 'mips': 4000, 'mips64': 5000, 'mips64n32': 6000}

# Macros named __NR_ that are not syscalls.
NOT_SYSCALLS = re.compile(r'^(syscalls|arch_specific_syscall|Linux|Linux_syscalls|'
                          r'O32_Linux|O32_Linux_syscalls|N32_Linux|N32_Linux_syscalls|'
                          r'64_Linux|64_Linux_syscalls|X32_SYSCALL_BIT|SYSCALL_BASE|'
                          r'OABI_SYSCALL_BASE|SYSCALL_MASK|3264_.*|unused\d*|reserved\d*)$')

# Tracepoint names that differ from the <asm/unistd.h> names strace and our tables use.
TRACEPOINT_RENAMES = {
    'newstat': 'stat',
    'newlstat': 'lstat',
    'newfstat': 'fstat',
    'newuname': 'uname',
    'sendfile64': 'sendfile',
    'umount': 'umount2',
}

# Syscalls of other ABIs that take the arguments of an x86_64 one under another name. (Not ARM's
# arm_fadvise64_64 and sync_file_range2: they reorder them; unknown beats wrong.)
ALIASES = {
    'fstatat64': 'newfstatat', 'mmap2': 'mmap', 'ugetrlimit': 'getrlimit', 'waitpid': 'wait4',
    'sigaction': 'rt_sigaction', 'sigprocmask': 'rt_sigprocmask', 'sigreturn': 'rt_sigreturn',
    'sigsuspend': 'rt_sigsuspend', 'sigpending': 'rt_sigpending', 'umount': 'umount2',
    '_newselect': 'select', 'fadvise64_64': 'fadvise64',
    '_llseek': 'lseek', 'llseek': 'lseek', 'send': 'sendto', 'recv': 'recvfrom',
    'oldfstat': 'fstat', 'oldstat': 'stat', 'oldlstat': 'lstat', 'vfork': 'vfork',
    'sysmips': None, 'newfstat': 'fstat',
}
SUFFIXES = ('_time64', '64', '32')

# Argument names holding a file name, for %file (strace's TF).
PATH_ARG_NAMES = set('filename pathname path oldname newname specialfile dev_name dir_name '
                     'new_root put_old'.split())
FD_ARG_NAMES = set('fd dfd olddfd newdfd oldfd newfd fd_in fd_out in_fd out_fd epfd pidfd ufd '
                   'to_dfd mountdirfd ruleset_fd fildes fdin fdout from_dfd'.split())
# Paths whose argument names say less (umount's "name", uselib's "library").
PATH_ARGS_BY_SYSCALL = {'name_to_handle_at': 'name', 'umount2': 'name', 'umount': 'name',
                        'acct': 'name', 'uselib': 'library', 'move_mount': 'from_pathname'}
FLAG_ARG_NAMES = set('flags flag mode prot options clone_flags oflag how op cmd resource '
                     'behavior which_clock clockid whence family type sig option'.split())
# The argument whose string the eBPF backend copies: the path a syscall acts on. When a syscall
# takes two paths, the one it creates or acts on (symlink's linkpath, mount's target).
PATH_ARG_PREFERRED = {'symlink': 'newname', 'symlinkat': 'newname', 'mount': 'dir_name'}

# Classes that argument types do not tell, as strace's syscallent.h sets them.
CLASS_LISTS = {
    'file': 'execve execveat acct swapon swapoff chroot statfs statfs64 uselib pivot_root '
            'fanotify_mark inotify_add_watch utime utimes mount umount umount2 open_tree '
            'move_mount fspick mount_setattr',
    'desc': 'open openat openat2 creat pipe pipe2 socket socketpair eventfd eventfd2 epoll_create '
            'epoll_create1 signalfd timerfd_create inotify_init inotify_init1 memfd_create '
            'memfd_secret userfaultfd pidfd_open fanotify_init perf_event_open accept accept4 '
            'open_by_handle_at io_uring_setup close_range select _newselect pselect6 '
            'pselect6_time64 poll ppoll ppoll_time64 open_tree fsopen fspick fsmount mq_open '
            'mmap mmap2 process_madvise',
    'network': 'socket socketpair bind connect listen accept accept4 getsockname getpeername '
               'sendto recvfrom send recv sendmsg recvmsg sendmmsg recvmmsg recvmmsg_time64 '
               'setsockopt getsockopt shutdown socketcall sendfile sendfile64',
    'process': 'execve execveat fork vfork clone clone2 clone3 exit exit_group wait4 waitid '
               'waitpid kill tkill tgkill rt_sigqueueinfo rt_tgsigqueueinfo pidfd_send_signal '
               'pidfd_open unshare setns',
    'memory': 'mmap mmap2 munmap mprotect pkey_mprotect brk mremap madvise process_madvise mlock '
              'mlock2 munlock mlockall munlockall mincore msync remap_file_pages mbind '
              'set_mempolicy get_mempolicy migrate_pages move_pages shmat shmdt mseal '
              'map_shadow_stack process_mrelease',
    'signal': 'rt_sigaction rt_sigprocmask rt_sigreturn rt_sigsuspend rt_sigpending '
              'rt_sigtimedwait rt_sigtimedwait_time64 rt_sigqueueinfo rt_tgsigqueueinfo kill '
              'tkill tgkill sigaltstack signalfd signalfd4 pause pidfd_send_signal sigaction '
              'signal sigprocmask sigreturn sigsuspend sigpending sgetmask ssetmask',
    'ipc': 'msgget msgsnd msgrcv msgctl semget semop semtimedop semtimedop_time64 semctl shmget '
           'shmat shmdt shmctl ipc',
    'creds': 'getuid geteuid getgid getegid setuid setgid setreuid setregid setresuid getresuid '
             'setresgid getresgid setfsuid setfsgid getgroups setgroups capget capset getuid32 '
             'geteuid32 getgid32 getegid32 setuid32 setgid32 setreuid32 setregid32 setresuid32 '
             'getresuid32 setresgid32 getresgid32 setfsuid32 setfsgid32 getgroups32 setgroups32 '
             'prctl',
    'clock': 'clock_gettime clock_settime clock_getres clock_nanosleep clock_adjtime '
             'clock_gettime64 clock_settime64 clock_getres_time64 clock_nanosleep_time64 '
             'clock_adjtime64 gettimeofday settimeofday adjtimex time stime',
}
CLASS_BITS = ['file', 'desc', 'process', 'network', 'signal', 'ipc', 'memory', 'creds', 'clock']


def cpp(root, incdir, defines, source, extra=()):
    args = ['cpp', '-undef', '-nostdinc', '-P', '-I', os.path.join(root, incdir, 'include')]
    args += list(extra)
    args += ['-D' + d for d in defines]
    return subprocess.run(args, input=source, capture_output=True, text=True, check=True).stdout


def syscall_table(root, incdir, defines, header):
    # -dM lists the macros; cpp then expands __NR_x for each name it saw.
    listing = cpp(root, incdir, defines, '#include <%s>\n' % header,
                  ['-dM'])
    names = sorted({m.group(1) for m in re.finditer(r'#define __NR_(\w+)\s', listing)})
    names = [n for n in names if not NOT_SYSCALLS.match(n)]
    probe = '#include <%s>\n' % header + ''.join('@@%s@@ __NR_%s\n' % (n, n) for n in names)
    table = {}
    for line in cpp(root, incdir, defines, probe).splitlines():
        m = re.match(r'@@(\w+)@@\s+(.*)$', line)
        if not m:
            continue
        expr = m.group(2).replace('UL', '').replace('L)', ')')
        if not re.fullmatch(r'[0-9xa-fA-F+\-*() ]+', expr):
            continue
        nr = eval(expr)  # only digits and arithmetic reach here
        table.setdefault(nr, m.group(1))
    return table


def tracepoint_args(root):
    table = {}
    for entry in sorted(os.listdir(root)):
        if not entry.startswith('sys_enter_'):
            continue
        name = entry[len('sys_enter_'):]
        args = []
        with open(os.path.join(root, entry, 'format')) as f:
            for line in f:
                m = re.match(r'\s*field:(.*?)\s*(\w+);\s*offset:\d+;\s*size:(\d+);', line)
                if not m or m.group(2).startswith('common_') or m.group(2) == '__syscall_nr':
                    continue
                ctype = re.sub(r'\s+', ' ', m.group(1).replace('__user', '')).strip()
                args.append((m.group(2), ctype))
        table[TRACEPOINT_RENAMES.get(name, name)] = args
    return table


def canonical(name, args):
    if name in args:
        return name
    if ALIASES.get(name) in args:
        return ALIASES[name]
    for suffix in SUFFIXES:
        if name.endswith(suffix) and name[:-len(suffix)] in args:
            return name[:-len(suffix)]
    return None


def arg_kind(syscall, aname, ctype):
    if aname in FD_ARG_NAMES:
        return 'FD'
    if ctype in ('const char *', 'char *') and (aname in PATH_ARG_NAMES
                                               or PATH_ARGS_BY_SYSCALL.get(syscall) == aname):
        return 'PATH'
    if ctype == 'const char *':
        return 'STRING'
    if aname in FLAG_ARG_NAMES and '*' not in ctype:
        return 'FLAGS'
    if '*' in ctype:
        return 'POINTER'
    return 'INT'


def classes_of(name, canon, arglist):
    classes = set()
    for aname, ctype in arglist:
        kind = arg_kind(canon, aname, ctype)
        if kind == 'FD':
            classes.add('desc')
        if kind == 'PATH':
            classes.add('file')
    for cls, names in CLASS_LISTS.items():
        words = names.split()
        if name in words or (canon and canon in words):
            classes.add(cls)
    return classes


def c_string(s):
    return 'NULL' if s is None else '"%s"' % s


def main():
    root, tracefs = sys.argv[1], sys.argv[2]
    args = tracepoint_args(tracefs)
    tables = {}
    for arch, incdir, defines, header in ARCHES:
        tables[arch] = syscall_table(root, incdir, defines, header)
        if len(tables[arch]) < 250:
            sys.exit('%s: only %d syscalls found in %s' % (arch, len(tables[arch]), incdir))
    names = sorted({n for t in tables.values() for n in t.values()})
    index = {n: i for i, n in enumerate(names)}
    kernel = os.uname().release
    out = []
    w = out.append
    w('/* SPDX-License-Identifier: GPL-3.0-or-later */')
    w('/*')
    w(' * Generated by tools/gen-syscall-catalogue.py; do not edit.')
    w(' * Numbers: <asm/unistd.h> of Debian 12\'s linux-libc-dev-*-cross packages (Linux 6.1).')
    w(' * Arguments: the syscalls:sys_enter_* tracepoint formats of Linux %s.' % kernel)
    w(' */')
    w('')
    w('#define SEISMO_SYSCALL_CATALOGUE_SIZE %d' % len(names))
    w('')
    w('/* Sorted by name. */')
    w('static const SeismoSyscallInfo syscall_catalogue[SEISMO_SYSCALL_CATALOGUE_SIZE] = {')
    for name in names:
        canon = canonical(name, args)
        arglist = args.get(canon, []) if canon else []
        classes = classes_of(name, canon, arglist)
        cls = ' | '.join('SEISMO_SYSCALL_CLASS_%s' % c.upper() for c in CLASS_BITS
                         if c in classes) or '0'
        path_arg = -1
        preferred = PATH_ARG_PREFERRED.get(canon)
        for i, (aname, ctype) in enumerate(arglist):
            if (arg_kind(canon, aname, ctype) == 'PATH'
                    and (preferred is None or aname == preferred)):
                path_arg = i
                break
        w('  { "%s", %s, %s, %d, %d, %s,' % (name, c_string(canon), cls, len(arglist), path_arg,
                                            'TRUE' if canon else 'FALSE'))
        if arglist:
            w('    {')
            for aname, ctype in arglist:
                w('      { "%s", "%s", SEISMO_SYSCALL_ARG_%s },'
                  % (aname, ctype, arg_kind(canon, aname, ctype)))
            w('    } },')
        else:
            w('    { { NULL } } },')
    w('};')
    w('')
    for arch, _, _, _ in ARCHES:
        table = tables[arch]
        base = BASES.get(arch, 0)
        size = max(table) + 1 - base
        ident = 'syscalls_%s' % arch
        w('/* %s: index + 1 into syscall_catalogue, by number - %d. */' % (arch, base))
        w('static const guint16 %s[%d] = {' % (ident, size))
        line = ' '
        for nr in range(base, base + size):
            cell = ' %d,' % (index[table[nr]] + 1 if nr in table else 0)
            if len(line) + len(cell) > 99:
                w(line)
                line = ' '
            line += cell
        w(line)
        w('};')
        w('#define SEISMO_SYSCALL_BASE_%s %d' % (arch.upper(), base))
        w('')
    sys.stdout.write('\n'.join(out) + '\n')


if __name__ == '__main__':
    main()
