#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Generates the "Explain this" data files data/explain/syscalls.ini and
# data/explain/tracepoints.ini (errno.ini and sched-states.ini beside them are written by hand).
#
# Run once at development time on a Linux machine with tracefs mounted and the manpages-dev package
# installed; the output is committed, so neither is needed to build or test Seismo:
#
#   mount -t tracefs nodev /sys/kernel/tracing    # if not mounted
#   tools/gen-explain.py build-x/data/seismo-syscall-tables.h data/explain
#
# Sources, in order of preference:
#   - argument names and types: the kernel's own tracepoint formats
#     (/sys/kernel/tracing/events/syscalls/sys_enter_NAME/format), else HAND below;
#   - one-line purpose: the NAME line of the man page (`whatis -l -s 2 NAME`), else HAND below;
#   - tracepoint fields: /sys/kernel/tracing/events/SYSTEM/NAME/format; their explanations are
#     written by hand in TRACEPOINTS and FIELDS below.
# The files are GKeyFile (.ini) so that translations can be added later as summary[LANG]= keys.
import os
import re
import subprocess
import sys

TRACEFS = '/sys/kernel/tracing/events'
MAN2 = '/usr/share/man/man2'

# The kernel names a few syscall tracepoints after the implementing function, not the table entry.
TRACEPOINT_ALIASES = {
    'stat': 'newstat',
    'fstat': 'newfstat',
    'lstat': 'newlstat',
    'sendfile': 'sendfile64',
    'uname': 'newuname',
    'umount2': 'umount',
}

UNIMPLEMENTED = 'Not implemented on Linux; always fails with ENOSYS'

# Syscalls whose man page or tracepoint is missing on the generating machine (removed, not
# configured in, or newer than manpages 6.03). Written by hand; "args" as C declarations.
HAND = {
    'uselib': {'args': ['const char * library'],
               'note': 'Obsolete; removed from most kernels (CONFIG_USELIB).'},
    '_sysctl': {'args': ['struct __sysctl_args * args'],
                'note': 'Removed in Linux 5.5; use the files under /proc/sys instead.'},
    'create_module': {'args': ['const char * name', 'size_t size'],
                      'note': 'Removed in Linux 2.6; fails with ENOSYS.'},
    'get_kernel_syms': {'args': ['struct kernel_sym * table'],
                        'note': 'Removed in Linux 2.6; fails with ENOSYS.'},
    'query_module': {'args': ['const char * name', 'int which', 'void * buf', 'size_t bufsize',
                              'size_t * ret'],
                     'note': 'Removed in Linux 2.6; fails with ENOSYS.'},
    'nfsservctl': {'args': ['int cmd', 'struct nfsctl_arg * argp', 'union nfsctl_res * resp'],
                   'note': 'Removed in Linux 3.1; fails with ENOSYS.'},
    'init_module': {'args': ['void * umod', 'unsigned long len', 'const char * uargs']},
    'finit_module': {'args': ['int fd', 'const char * uargs', 'int flags']},
    'delete_module': {'args': ['const char * name_user', 'unsigned int flags']},
    'getpmsg': {'summary': UNIMPLEMENTED, 'args': []},
    'putpmsg': {'summary': UNIMPLEMENTED, 'args': []},
    'afs_syscall': {'summary': UNIMPLEMENTED, 'args': []},
    'tuxcall': {'summary': UNIMPLEMENTED, 'args': []},
    'security': {'summary': UNIMPLEMENTED, 'args': []},
    'vserver': {'summary': UNIMPLEMENTED, 'args': []},
    'epoll_ctl_old': {'summary': UNIMPLEMENTED + ' (an early epoll interface)', 'args': [],
                      'man': ''},
    'epoll_wait_old': {'summary': UNIMPLEMENTED + ' (an early epoll interface)', 'args': [],
                       'man': ''},
    'set_thread_area': {'args': ['struct user_desc * u_info']},
    'get_thread_area': {'args': ['struct user_desc * u_info']},
    'lookup_dcookie': {'args': ['u64 cookie64', 'char * buf', 'size_t len'],
                       'note': 'Removed in Linux 6.8; fails with ENOSYS.'},
    'kexec_load': {'args': ['unsigned long entry', 'unsigned long nr_segments',
                            'struct kexec_segment * segments', 'unsigned long flags']},
    'kexec_file_load': {'args': ['int kernel_fd', 'int initrd_fd', 'unsigned long cmdline_len',
                                 'const char * cmdline_ptr', 'unsigned long flags']},
    # No man page in manpages 6.03.
    'io_pgetevents': {'summary': 'Read completed asynchronous I/O events, with a signal mask '
                                 'applied while waiting'},
    'rseq': {'summary': 'Register a restartable-sequences area for the calling thread (used by '
                        'the C library for fast per-CPU data)'},
    'io_uring_setup': {'summary': 'Create an io_uring instance: shared submission and completion '
                                  'queues for asynchronous I/O',
                       'man': 'io_uring_setup(2)'},
    'io_uring_enter': {'summary': 'Submit queued io_uring requests and/or wait for completions',
                       'man': 'io_uring_enter(2)'},
    'io_uring_register': {'summary': 'Register files, buffers or other resources with an '
                                     'io_uring instance',
                          'man': 'io_uring_register(2)'},
    'open_tree': {'summary': 'Get a file descriptor for a mount or a copy of a mount subtree'},
    'move_mount': {'summary': 'Move a mount, or attach a detached one, somewhere in the file '
                              'system tree'},
    'fsopen': {'summary': 'Start configuring a new file system instance (new mount API)'},
    'fsconfig': {'summary': 'Set a parameter of, or create, a file system being configured '
                            '(new mount API)'},
    'fsmount': {'summary': 'Turn a configured file system into a mount object (new mount API)'},
    'fspick': {'summary': 'Open an existing mount\'s file system for reconfiguration (new mount '
                          'API)'},
    'quotactl_fd': {'summary': 'Manipulate disk quotas of the file system an open file is on'},
    'process_mrelease': {'summary': 'Free the memory of a process that is being killed, without '
                                    'waiting for it to exit'},
    'futex_waitv': {'summary': 'Wait on several futexes at once until one of them is woken'},
    'set_mempolicy_home_node': {'summary': 'Set the preferred NUMA node of the memory policy of '
                                           'an address range'},
    # Newer than the uapi headers' table, but traced by current kernels.
    'cachestat': {'summary': 'Report page cache statistics (cached, dirty, under writeback, '
                             'evicted pages) of a file range'},
    'fchmodat2': {'summary': 'Change a file\'s mode relative to a directory file descriptor, '
                             'with flags (AT_SYMLINK_NOFOLLOW, AT_EMPTY_PATH)'},
    'file_getattr': {'summary': 'Get a file\'s extended attributes (flags, project id) by path'},
    'file_setattr': {'summary': 'Set a file\'s extended attributes (flags, project id) by path'},
    'futex_wake': {'summary': 'Wake tasks waiting on a futex (futex2 interface)'},
    'futex_wait': {'summary': 'Wait until a futex is woken or a timeout expires (futex2 '
                              'interface)'},
    'futex_requeue': {'summary': 'Wake some waiters of one futex and move the rest to another '
                                 '(futex2 interface)'},
    'getxattrat': {'summary': 'Get an extended attribute value, relative to a directory file '
                              'descriptor'},
    'setxattrat': {'summary': 'Set an extended attribute value, relative to a directory file '
                              'descriptor'},
    'listxattrat': {'summary': 'List extended attribute names, relative to a directory file '
                               'descriptor'},
    'removexattrat': {'summary': 'Remove an extended attribute, relative to a directory file '
                                 'descriptor'},
    'listmount': {'summary': 'List the ids of the mounts below a mount'},
    'statmount': {'summary': 'Get information about a mount by its id'},
    'lsm_get_self_attr': {'summary': 'Read the calling task\'s attributes from the Linux '
                                     'security modules'},
    'lsm_set_self_attr': {'summary': 'Set one of the calling task\'s Linux security module '
                                     'attributes'},
    'lsm_list_modules': {'summary': 'List the ids of the active Linux security modules'},
    'mseal': {'summary': 'Seal a range of memory so its mapping and protection can no longer '
                         'change'},
    'open_tree_attr': {'summary': 'Like open_tree(), and set mount attributes on the copy at the '
                                  'same time'},
    'map_shadow_stack': {'summary': 'Allocate a new shadow stack (x86 control-flow '
                                    'enforcement)',
                         'args': ['unsigned long addr', 'unsigned long size',
                                  'unsigned int flags']},
    'uprobe': {'summary': 'Internal: entered by a user-space probe trampoline placed by the '
                          'kernel, not called by programs'},
    'uretprobe': {'summary': 'Internal: entered by a user-space return probe trampoline placed '
                             'by the kernel, not called by programs'},
}

# Calls that exist only in the i386 table (32-bit programs). Those without a family below get
# their arguments here; summaries come from the man pages.
I386_HAND = {
    'waitpid': ['pid_t pid', 'int * stat_addr', 'int options'],
    'oldstat': ['const char * filename', 'struct __old_kernel_stat * statbuf'],
    'oldlstat': ['const char * filename', 'struct __old_kernel_stat * statbuf'],
    'oldfstat': ['unsigned int fd', 'struct __old_kernel_stat * statbuf'],
    'stime': ['time_t * tptr'],
    'nice': ['int increment'],
    'signal': ['int sig', '__sighandler_t handler'],
    'sigaction': ['int sig', 'const struct old_sigaction * act', 'struct old_sigaction * oact'],
    'sgetmask': [],
    'ssetmask': ['int newmask'],
    'sigsuspend': ['old_sigset_t mask'],
    'sigpending': ['old_sigset_t * set'],
    'sigprocmask': ['int how', 'old_sigset_t * set', 'old_sigset_t * oset'],
    'sigreturn': [],
    'readdir': ['unsigned int fd', 'struct old_linux_dirent * dirent', 'unsigned int count'],
    'socketcall': ['int call', 'unsigned long * args'],
    'ipc': ['unsigned int call', 'int first', 'unsigned long second', 'unsigned long third',
            'void * ptr', 'long fifth'],
    'olduname': ['struct oldold_utsname * name'],
    'oldolduname': ['struct oldold_utsname * name'],
    'idle': [],
    'vm86old': ['struct vm86_struct * info'],
    'vm86': ['unsigned long fn', 'struct vm86plus_struct * v86'],
    'bdflush': ['int func', 'long data'],
    '_llseek': ['unsigned int fd', 'unsigned long offset_high', 'unsigned long offset_low',
                'loff_t * result', 'unsigned int whence'],
    '_newselect': ['int n', 'fd_set * inp', 'fd_set * outp', 'fd_set * exp',
                   'struct timeval * tvp'],
    'mmap2': ['unsigned long addr', 'unsigned long len', 'unsigned long prot',
              'unsigned long flags', 'unsigned long fd', 'unsigned long pgoff'],
    'ugetrlimit': ['unsigned int resource', 'struct rlimit * rlim'],
    'fadvise64_64': ['int fd', 'loff_t offset', 'loff_t len', 'int advice'],
    'break': [], 'stty': [], 'gtty': [], 'prof': [], 'lock': [], 'mpx': [],
    'ftime': [], 'ulimit': [], 'profil': [],
}
I386_UNIMPLEMENTED = ('break', 'stty', 'gtty', 'prof', 'lock', 'mpx', 'ftime', 'ulimit', 'profil')
# The x86-64 call an i386 variant does the same job as, when the name does not say it.
I386_BASE = {'fstatat64': 'newfstatat'}


def i386_base(name, x86_64):
    """The x86-64 call a 32-bit variant (chown32, stat64, clock_gettime64…) stands for."""
    if name in I386_BASE:
        return I386_BASE[name]
    for suffix in ('_time64', '64', '32'):
        if name.endswith(suffix) and name[:-len(suffix)] in x86_64:
            return name[:-len(suffix)]
    return None


# ---- tracepoints -----------------------------------------------------------------------------

# Field explanations shared by every tracepoint with a field of that name, unless the tracepoint
# overrides it in TRACEPOINTS[...]['about'].
FIELDS = {
    'comm': 'Command name of the task (first 15 bytes)',
    'pid': 'Thread id (the kernel calls threads pids)',
    'prio': 'Kernel priority: 0-99 real-time, 100-139 normal (120 is nice 0); lower runs first',
    'target_cpu': 'CPU whose run queue the task was put on',
    'irq': 'Interrupt line number (see /proc/interrupts)',
    'vec': 'Softirq vector: 0 HI, 1 TIMER, 2 NET_TX, 3 NET_RX, 4 BLOCK, 5 IRQ_POLL, 6 TASKLET, '
           '7 SCHED, 8 HRTIMER, 9 RCU',
    'dev': 'Block device as major,minor (see /proc/partitions)',
    'sector': 'First 512-byte sector of the request on the device',
    'nr_sector': 'Length of the request in 512-byte sectors',
    'bytes': 'Length of the request in bytes',
    'rwbs': 'Operation: R read, W write, D discard, F flush, N none; then S sync, M metadata, '
            'A readahead, F FUA',
    'error': 'Error of the completed request: 0 or a negative errno',
    'ioprio': 'I/O priority class and level',
    'cmd': 'Command bytes of a passthrough request (usually empty)',
    'skbaddr': 'Kernel address of the packet buffer (sk_buff); follows one packet between events',
    'skaddr': 'Kernel address of the socket; follows one connection between events',
    'len': 'Length of the packet in bytes',
    'name': 'Name (of the network device, handler or object)',
    'sport': 'Source port',
    'dport': 'Destination port',
    'family': 'Address family (2 AF_INET, 10 AF_INET6)',
    'protocol': 'Protocol number (6 TCP, 17 UDP) or Ethernet type',
    'saddr': 'Source address',
    'daddr': 'Destination address',
    'saddr_v6': 'Source IPv6 address',
    'daddr_v6': 'Destination IPv6 address',
    'sock_cookie': 'Unique id of the socket, stable for its lifetime',
    'state': 'TCP state of the socket',
    'work': 'Kernel address of the work item',
    'function': 'Kernel function that will run (or ran); resolve with /proc/kallsyms',
    'cpu_id': 'CPU the event is about',
    'timer': 'Kernel address of the timer',
    'hrtimer': 'Kernel address of the high-resolution timer',
    'expires': 'When the timer is due (jiffies or ns, as the timer type counts)',
    'now': 'Current time as the timer code sees it',
    'ret': 'Return value',
    'vector': 'x86 interrupt vector number',
    'napi_id': 'Id of the NAPI context (the receive queue being polled)',
    'queue_mapping': 'Transmit or receive queue of the device',
    'oom_score_adj': 'OOM killer adjustment of the task (-1000..1000)',
    'tgid': 'Process id (thread group id)',
}

# system:name -> summary (one line), description (a few sentences, optional), about (per-field
# overrides), man (a related man page). Fields and their types come from tracefs.
TRACEPOINTS = {
    # ---- sched
    'sched:sched_switch': {
        'summary': 'The scheduler takes one task off this CPU (prev) and runs another (next)',
        'description': 'Every context switch. prev_state tells why prev left: R or R+ means it '
                       'was preempted and still wants to run; S, D or another letter means it '
                       'went to sleep (waiting for something) or exited. A task\'s time on the '
                       'CPU is the gap between its switch-in and its next switch-out.',
        'about': {'prev_comm': 'Command name of the task leaving the CPU',
                  'prev_pid': 'Thread id of the task leaving the CPU (0 is the idle task)',
                  'prev_prio': 'Priority of the task leaving the CPU',
                  'prev_state': 'State of the leaving task: R preempted, S sleeping, D '
                                'uninterruptible sleep (usually I/O), T stopped, Z zombie, X '
                                'dead, I idle kernel thread; + means preempted',
                  'next_comm': 'Command name of the task now running',
                  'next_pid': 'Thread id of the task now running (0 is the idle task)',
                  'next_prio': 'Priority of the task now running'},
        'man': 'sched(7)'},
    'sched:sched_wakeup': {
        'summary': 'A sleeping task was made runnable and put on a CPU\'s run queue',
        'description': 'The task does not run yet: it waits in the run queue of target_cpu '
                       'until the scheduler switches to it. The time from this event to its '
                       'sched_switch is its wake-up (scheduling) latency.',
        'man': 'sched(7)'},
    'sched:sched_wakeup_new': {
        'summary': 'A newly created task was made runnable for the first time',
        'description': 'Follows sched_process_fork: the child is put on a run queue; its first '
                       'sched_switch is when it starts running.'},
    'sched:sched_waking': {
        'summary': 'A wake-up of a task has started (in the context of the task or interrupt '
                   'that wakes it)',
        'description': 'Fires on the waker\'s CPU before sched_wakeup; compared with '
                       'sched_wakeup, it shows who woke the task and the full wake-up latency.'},
    'sched:sched_migrate_task': {
        'summary': 'A task was moved from one CPU to another (load balancing, affinity or '
                   'wake-up placement)',
        'about': {'orig_cpu': 'CPU the task leaves', 'dest_cpu': 'CPU the task moves to'}},
    'sched:sched_process_fork': {
        'summary': 'A task created a new task (fork, vfork or clone)',
        'about': {'parent_comm': 'Command name of the creating task',
                  'parent_pid': 'Thread id of the creating task',
                  'child_comm': 'Command name of the new task (inherited from the parent)',
                  'child_pid': 'Thread id of the new task'},
        'man': 'clone(2)'},
    'sched:sched_process_exec': {
        'summary': 'A task replaced its program with a new one (execve succeeded)',
        'about': {'filename': 'Path of the program now running',
                  'old_pid': 'Thread id before exec (differs when a non-leader thread execs)'},
        'man': 'execve(2)'},
    'sched:sched_prepare_exec': {
        'summary': 'A task is about to replace its program (execve), while the old one is still '
                   'visible',
        'about': {'interp': 'Interpreter or program that will be loaded',
                  'filename': 'Path given to execve'},
        'man': 'execve(2)'},
    'sched:sched_process_exit': {
        'summary': 'A task is exiting',
        'description': 'Its last trip through the kernel; a sched_switch with state X or Z '
                       'follows. The parent collects the exit status with wait4/waitid.',
        'about': {'group_dead': 'True when this was the last thread of its process'},
        'man': 'exit(2)'},
    'sched:sched_process_free': {
        'summary': 'The kernel freed the descriptor of an exited task (after it was reaped)'},
    'sched:sched_process_wait': {
        'summary': 'A task started waiting for a child to change state (wait4, waitid)',
        'man': 'wait4(2)'},
    'sched:sched_process_hang': {
        'summary': 'The hung-task detector found a task in uninterruptible sleep (D) for too '
                   'long'},
    'sched:sched_wait_task': {
        'summary': 'The kernel waits for a task to get off its CPU before changing it'},
    'sched:sched_kthread_stop': {
        'summary': 'A kernel thread was asked to stop'},
    'sched:sched_kthread_stop_ret': {
        'summary': 'A kernel thread finished stopping',
        'about': {'ret': 'Value the thread function returned'}},
    'sched:sched_kthread_work_queue_work': {
        'summary': 'A work item was queued on a kernel thread worker',
        'about': {'worker': 'Kernel address of the worker that will run it'}},
    'sched:sched_kthread_work_execute_start': {
        'summary': 'A kernel thread worker starts running a work item'},
    'sched:sched_kthread_work_execute_end': {
        'summary': 'A kernel thread worker finished running a work item'},
    'sched:sched_pi_setprio': {
        'summary': 'A task\'s priority was boosted or restored by priority inheritance',
        'description': 'When a higher-priority task waits on a lock (rt_mutex, PI futex) held by '
                       'a lower-priority one, the holder temporarily runs at the waiter\'s '
                       'priority so it can release the lock sooner.',
        'about': {'oldprio': 'Priority before', 'newprio': 'Priority after'}},
    'sched:sched_stat_runtime': {
        'summary': 'CPU time accounting: how long the task ran since the last update',
        'about': {'runtime': 'Nanoseconds on the CPU since the last update'}},
    'sched:sched_stat_wait': {
        'summary': 'How long a runnable task waited in a run queue before running (schedstats)',
        'fields': ['char[16] comm', 'pid_t pid', 'u64 delay'],
        'about': {'delay': 'Nanoseconds spent waiting'}},
    'sched:sched_stat_sleep': {
        'summary': 'How long a task slept (interruptibly) before being woken (schedstats)',
        'fields': ['char[16] comm', 'pid_t pid', 'u64 delay'],
        'about': {'delay': 'Nanoseconds asleep'}},
    'sched:sched_stat_iowait': {
        'summary': 'How long a task waited for I/O before being woken (schedstats)',
        'fields': ['char[16] comm', 'pid_t pid', 'u64 delay'],
        'about': {'delay': 'Nanoseconds waiting for I/O'}},
    'sched:sched_stat_blocked': {
        'summary': 'How long a task was blocked in uninterruptible sleep (schedstats)',
        'fields': ['char[16] comm', 'pid_t pid', 'u64 delay'],
        'about': {'delay': 'Nanoseconds blocked'}},
    'sched:sched_move_numa': {
        'summary': 'NUMA balancing moved a task to a CPU on another memory node'},
    'sched:sched_stick_numa': {
        'summary': 'NUMA balancing wanted to move a task but could not'},
    'sched:sched_swap_numa': {
        'summary': 'NUMA balancing swapped two tasks between memory nodes'},
    'sched:sched_skip_vma_numa': {
        'summary': 'NUMA balancing skipped scanning a memory area'},
    'sched:sched_skip_cpuset_numa': {
        'summary': 'NUMA balancing skipped a task because of its cpuset'},
    'sched:sched_wake_idle_without_ipi': {
        'summary': 'An idle CPU was woken by setting a flag it was polling, instead of sending '
                   'it an interrupt',
        'about': {'cpu': 'CPU that was woken'}},
    # ---- irq
    'irq:irq_handler_entry': {
        'summary': 'A hardware interrupt handler starts running on this CPU',
        'description': 'The handler interrupts whatever task was on the CPU; that time is not '
                       'the task\'s own but is usually counted to it.',
        'about': {'name': 'Name of the handler (device driver) registered for the interrupt'}},
    'irq:irq_handler_exit': {
        'summary': 'A hardware interrupt handler finished',
        'about': {'ret': 'Whether the handler recognised the interrupt (handled or unhandled)'}},
    'irq:softirq_raise': {
        'summary': 'Deferred interrupt work (a softirq) was marked pending',
        'description': 'Hardware handlers defer most work to softirqs, which run when the '
                       'handler returns or in the ksoftirqd thread.'},
    'irq:softirq_entry': {
        'summary': 'A softirq (deferred interrupt work: network, timers, block completion, RCU) '
                   'starts running'},
    'irq:softirq_exit': {
        'summary': 'A softirq finished running'},
    'irq:tasklet_entry': {
        'summary': 'A tasklet (small deferred driver function) starts running',
        'about': {'tasklet': 'Kernel address of the tasklet', 'func': 'Function it runs'}},
    'irq:tasklet_exit': {
        'summary': 'A tasklet finished running',
        'about': {'tasklet': 'Kernel address of the tasklet', 'func': 'Function it ran'}},
    'irq_vectors:local_timer_entry': {
        'summary': 'The CPU\'s local timer interrupt starts (scheduler tick, timers)'},
    'irq_vectors:local_timer_exit': {
        'summary': 'The CPU\'s local timer interrupt finished'},
    'irq_vectors:reschedule_entry': {
        'summary': 'Another CPU asked this one to reschedule (a reschedule IPI), e.g. after '
                   'waking a task here'},
    'irq_vectors:reschedule_exit': {
        'summary': 'The reschedule interrupt finished'},
    'irq_vectors:call_function_entry': {
        'summary': 'Another CPU asked this one to run a function (IPI), e.g. a TLB flush'},
    'irq_vectors:call_function_exit': {
        'summary': 'The function-call interrupt finished'},
    'irq_vectors:call_function_single_entry': {
        'summary': 'Another CPU asked this CPU alone to run a function (IPI)'},
    'irq_vectors:call_function_single_exit': {
        'summary': 'The single function-call interrupt finished'},
    'irq_vectors:irq_work_entry': {
        'summary': 'Work queued from a context that cannot sleep (irq_work) starts running'},
    'irq_vectors:irq_work_exit': {
        'summary': 'The irq_work interrupt finished'},
    # ---- raw_syscalls
    'raw_syscalls:sys_enter': {
        'summary': 'A task enters the kernel to make a system call',
        'description': 'One tracepoint for every system call: id is the syscall number (its '
                       'name depends on the architecture) and args the six raw argument '
                       'registers, undecoded (pointers are user-space addresses). The matching '
                       'sys_exit on the same task ends the call.',
        'about': {'id': 'System call number (x86-64: 0 read, 1 write, 257 openat…)',
                  'args': 'The six argument registers as raw numbers; unused ones hold leftovers'},
        'man': 'syscalls(2)'},
    'raw_syscalls:sys_exit': {
        'summary': 'A system call returns to user space',
        'about': {'id': 'System call number',
                  'ret': 'Return value; -4095..-1 is an error (-errno), e.g. -2 is ENOENT'},
        'man': 'syscalls(2)'},
    # ---- signal
    'signal:signal_generate': {
        'summary': 'A signal was sent to a task (kill, a fault, a timer, a child exiting)',
        'about': {'sig': 'Signal number (9 SIGKILL, 11 SIGSEGV, 15 SIGTERM, 17 SIGCHLD…)',
                  'errno': 'errno value carried in the signal information',
                  'code': 'si_code: why it was sent (SI_USER from kill, SI_KERNEL, a fault code)',
                  'comm': 'Command name of the receiving task',
                  'pid': 'Thread id of the receiving task',
                  'group': 'True when sent to the whole process, not one thread',
                  'result': '0 delivered, 1 ignored, 2 already pending, 3 overflow, 4 lost '
                            'info'},
        'man': 'signal(7)'},
    'signal:signal_deliver': {
        'summary': 'A pending signal is being delivered to the current task (its handler or '
                   'default action runs)',
        'about': {'sig': 'Signal number', 'errno': 'errno value in the signal information',
                  'code': 'si_code: why it was sent',
                  'sa_handler': 'Handler address; 0 default action, 1 ignore',
                  'sa_flags': 'SA_* flags of the handler (SA_RESTART, SA_SIGINFO…)'},
        'man': 'signal(7)'},
    # ---- task
    'task:task_newtask': {
        'summary': 'A new task was created (fork or clone); precedes sched_process_fork',
        'about': {'clone_flags': 'CLONE_* flags: what the new task shares with its creator'},
        'man': 'clone(2)'},
    'task:task_rename': {
        'summary': 'A task changed its command name (exec, prctl(PR_SET_NAME) or '
                   'pthread_setname_np)',
        'about': {'oldcomm': 'Name before', 'newcomm': 'Name after'},
        'man': 'prctl(2)'},
    # ---- block
    'block:block_bio_queue': {
        'summary': 'A block I/O (bio) was submitted to a device\'s queue',
        'description': 'The start of a disk read or write as the block layer sees it; it may be '
                       'merged with others, then becomes a request that is inserted, issued to '
                       'the device and completed.'},
    'block:block_bio_backmerge': {
        'summary': 'A bio was merged at the end of an existing request (adjacent sectors)'},
    'block:block_bio_frontmerge': {
        'summary': 'A bio was merged at the front of an existing request (adjacent sectors)'},
    'block:block_bio_bounce': {
        'summary': 'A bio\'s data was copied to a bounce buffer the device can reach',
        'fields': ['dev_t dev', 'sector_t sector', 'unsigned int nr_sector', 'char[10] rwbs',
                   'char[16] comm']},
    'block:block_bio_complete': {
        'summary': 'A bio completed (the data is read or written)'},
    'block:block_bio_remap': {
        'summary': 'A bio was redirected from a logical device (partition, RAID, LVM) to the '
                   'device below',
        'about': {'old_dev': 'Device it was sent to', 'old_sector': 'Sector on that device'}},
    'block:block_getrq': {
        'summary': 'A request structure was allocated for a bio that could not be merged'},
    'block:block_rq_insert': {
        'summary': 'A request was put into the I/O scheduler\'s queue'},
    'block:block_rq_issue': {
        'summary': 'A request was sent to the device driver (the disk starts working on it)',
        'description': 'The time from block_rq_issue to block_rq_complete for the same device '
                       'and sector is the device\'s service time.'},
    'block:block_rq_merge': {
        'summary': 'Two requests were merged into one'},
    'block:block_rq_complete': {
        'summary': 'The device finished a request (or part of it)',
        'about': {'nr_sector': 'Sectors completed by this event'}},
    'block:block_rq_error': {
        'summary': 'A request failed'},
    'block:block_rq_requeue': {
        'summary': 'A request was given back to the queue to be issued again (device busy or '
                   'reset)'},
    'block:block_rq_remap': {
        'summary': 'A request was redirected from a logical device to the device below',
        'about': {'old_dev': 'Device it was sent to', 'old_sector': 'Sector on that device',
                  'nr_bios': 'Number of bios in the request'}},
    'block:block_plug': {
        'summary': 'A task started batching its I/O (plugging) before sending it to the device'},
    'block:block_unplug': {
        'summary': 'A task sent its batched (plugged) I/O requests to the device',
        'about': {'nr_rq': 'Number of requests sent'}},
    'block:block_split': {
        'summary': 'A bio was split because it was too large for the device',
        'about': {'new_sector': 'First sector of the second part'}},
    'block:block_dirty_buffer': {
        'summary': 'A buffer of a block device was marked dirty (to be written back)',
        'about': {'size': 'Buffer size in bytes'}},
    'block:block_touch_buffer': {
        'summary': 'A buffer of a block device was accessed',
        'about': {'size': 'Buffer size in bytes'}},
    'block:block_io_start': {
        'summary': 'A request starts being accounted as in-flight I/O of its device'},
    'block:block_io_done': {
        'summary': 'A request stops being accounted as in-flight I/O of its device'},
    # ---- net
    'net:net_dev_queue': {
        'summary': 'A packet was queued for transmission on a network device',
        'description': 'The start of sending a packet below the protocol layers; net_dev_xmit '
                       'follows when the driver takes it.'},
    'net:net_dev_start_xmit': {
        'summary': 'A packet is handed to the network driver for transmission'},
    'net:net_dev_xmit': {
        'summary': 'The network driver accepted (or refused) a packet for transmission',
        'about': {'rc': 'Driver result: 0 NETDEV_TX_OK, 16 NETDEV_TX_BUSY'}},
    'net:net_dev_xmit_timeout': {
        'summary': 'A transmit queue of a network device timed out (the driver may reset it)',
        'about': {'driver': 'Driver name', 'queue_index': 'Queue that timed out'}},
    'net:netif_receive_skb': {
        'summary': 'A received packet is passed up the network stack',
        'description': 'The packet leaves the driver and enters protocol processing (IP, TCP, '
                       'UDP); usually in the NET_RX softirq.'},
    'net:netif_receive_skb_entry': {
        'summary': 'A driver passes one received packet to the stack (netif_receive_skb)'},
    'net:netif_receive_skb_exit': {
        'summary': 'netif_receive_skb returned', 'about': {'ret': '0 NET_RX_SUCCESS, 1 dropped'}},
    'net:netif_receive_skb_list_entry': {
        'summary': 'A driver passes a batch of received packets to the stack'},
    'net:netif_receive_skb_list_exit': {
        'summary': 'Passing a batch of received packets returned'},
    'net:netif_rx': {
        'summary': 'A received packet was queued for processing in the NET_RX softirq'},
    'net:netif_rx_entry': {
        'summary': 'A received packet is handed to netif_rx (queued for the NET_RX softirq)'},
    'net:netif_rx_exit': {
        'summary': 'netif_rx returned', 'about': {'ret': '0 NET_RX_SUCCESS, 1 dropped'}},
    'net:napi_gro_receive_entry': {
        'summary': 'A driver passes a received packet to GRO (packets of one flow may be merged)'},
    'net:napi_gro_receive_exit': {
        'summary': 'GRO receive returned'},
    'net:napi_gro_frags_entry': {
        'summary': 'A driver passes received page fragments to GRO'},
    'net:napi_gro_frags_exit': {
        'summary': 'GRO frags receive returned'},
    'napi:napi_poll': {
        'summary': 'A network device\'s receive queue was polled (NAPI) and packets processed',
        'about': {'dev_name': 'Network device', 'work': 'Packets processed',
                  'budget': 'Most packets allowed in this poll', 'napi': 'Kernel address of '
                  'the NAPI context'}},
    'skb:kfree_skb': {
        'summary': 'A packet was dropped (freed without being delivered)',
        'about': {'location': 'Kernel code address that dropped it',
                  'reason': 'Why it was dropped (SKB_DROP_REASON_*)',
                  'rx_sk': 'Receiving socket, if known'}},
    'skb:consume_skb': {
        'summary': 'A packet buffer was freed after normal use (not a drop)',
        'about': {'location': 'Kernel code address that freed it'}},
    'skb:skb_copy_datagram_iovec': {
        'summary': 'Packet data was copied to a user buffer (a receive call)'},
    'sock:inet_sock_set_state': {
        'summary': 'A TCP (or other inet) socket changed state, e.g. SYN_SENT to ESTABLISHED',
        'about': {'oldstate': 'State before (1 ESTABLISHED, 2 SYN_SENT, 3 SYN_RECV, 4 FIN_WAIT1, '
                              '5 FIN_WAIT2, 6 TIME_WAIT, 7 CLOSE, 8 CLOSE_WAIT, 9 LAST_ACK, 10 '
                              'LISTEN, 11 CLOSING)',
                  'newstate': 'State after'},
        'man': 'tcp(7)'},
    'sock:inet_sk_error_report': {
        'summary': 'An error was reported on an inet socket (e.g. connection refused or reset)'},
    'sock:sock_rcvqueue_full': {
        'summary': 'A packet was dropped because the socket\'s receive buffer is full',
        'about': {'rmem_alloc': 'Bytes already queued', 'truesize': 'Size of the packet',
                  'sk_rcvbuf': 'Receive buffer limit'}},
    'sock:sock_exceed_buf_limit': {
        'summary': 'A socket hit the protocol\'s memory limit'},
    'sock:sk_data_ready': {
        'summary': 'A socket has data to read; waiting readers are woken'},
    'sock:sock_send_length': {
        'summary': 'A send call on a socket returned',
        'about': {'ret': 'Bytes sent or -errno', 'sk': 'Kernel address of the socket'}},
    'sock:sock_recv_length': {
        'summary': 'A receive call on a socket returned',
        'about': {'ret': 'Bytes received or -errno', 'sk': 'Kernel address of the socket'}},
    'tcp:tcp_retransmit_skb': {
        'summary': 'TCP sent a segment again because it was not acknowledged in time',
        'man': 'tcp(7)'},
    'tcp:tcp_retransmit_synack': {
        'summary': 'TCP sent a SYN-ACK again (the handshake\'s final ACK did not arrive)'},
    'tcp:tcp_send_reset': {
        'summary': 'TCP sent a reset (RST), aborting a connection'},
    'tcp:tcp_receive_reset': {
        'summary': 'TCP received a reset (RST): the peer aborted the connection'},
    'tcp:tcp_destroy_sock': {
        'summary': 'A TCP socket was destroyed'},
    'tcp:tcp_probe': {
        'summary': 'TCP connection state sampled on a received segment (window, RTT, '
                   'congestion window)',
        'about': {'snd_cwnd': 'Congestion window in segments', 'srtt': 'Smoothed round-trip '
                  'time (µs << 3)', 'snd_wnd': 'Peer\'s receive window'}},
    'tcp:tcp_rcv_space_adjust': {
        'summary': 'TCP adjusted a socket\'s receive buffer size (auto-tuning)'},
    'tcp:tcp_cong_state_set': {
        'summary': 'TCP congestion control changed state (Open, Disorder, CWR, Recovery, Loss)'},
    'tcp:tcp_bad_csum': {
        'summary': 'A TCP segment with a bad checksum was received and dropped'},
    'tcp:tcp_sendmsg_locked': {
        'summary': 'TCP is appending user data to a socket\'s send queue'},
    # ---- timers and work
    'timer:timer_start': {
        'summary': 'A kernel timer (timer wheel) was armed',
        'about': {'flags': 'Timer flags (deferrable, pinned, CPU)'}},
    'timer:timer_expire_entry': {
        'summary': 'A kernel timer fired and its function starts running (in softirq)'},
    'timer:timer_expire_exit': {
        'summary': 'A kernel timer\'s function finished'},
    'timer:timer_cancel': {
        'summary': 'A kernel timer was cancelled before it fired'},
    'timer:timer_init': {
        'summary': 'A kernel timer was initialised'},
    'timer:hrtimer_start': {
        'summary': 'A high-resolution timer was armed (nanosleep, poll timeouts, scheduler tick)',
        'about': {'softexpires': 'Earliest time it may fire', 'mode': 'Absolute or relative, '
                  'pinned or not'}},
    'timer:hrtimer_setup': {
        'summary': 'A high-resolution timer was initialised',
        'about': {'clockid': 'Clock it counts on'}},
    'timer:hrtimer_init': {
        'summary': 'A high-resolution timer was initialised',
        'fields': ['void * hrtimer', 'clockid_t clockid', 'enum hrtimer_mode mode'],
        'about': {'clockid': 'Clock it counts on'}},
    'timer:hrtimer_expire_entry': {
        'summary': 'A high-resolution timer fired and its function starts running'},
    'timer:hrtimer_expire_exit': {
        'summary': 'A high-resolution timer\'s function finished'},
    'timer:hrtimer_cancel': {
        'summary': 'A high-resolution timer was cancelled'},
    'timer:itimer_state': {
        'summary': 'An interval timer (setitimer) was set', 'man': 'setitimer(2)'},
    'timer:itimer_expire': {
        'summary': 'An interval timer (setitimer) expired; a signal follows',
        'man': 'setitimer(2)'},
    'timer:tick_stop': {
        'summary': 'The periodic scheduler tick was stopped (or could not be) on an idle or '
                   'single-task CPU',
        'about': {'success': '1 stopped, 0 kept running', 'dependency': 'What kept it running'}},
    'workqueue:workqueue_queue_work': {
        'summary': 'A work item was queued to run later in a kernel worker thread',
        'about': {'workqueue': 'Name of the workqueue', 'req_cpu': 'CPU asked for',
                  'cpu': 'CPU it will run on'}},
    'workqueue:workqueue_activate_work': {
        'summary': 'A queued work item became ready to run'},
    'workqueue:workqueue_execute_start': {
        'summary': 'A kernel worker thread (kworker) starts running a work item'},
    'workqueue:workqueue_execute_end': {
        'summary': 'A kernel worker thread finished a work item'},
    'power:cpu_idle': {
        'summary': 'A CPU entered an idle state (C-state) or left it',
        'about': {'state': 'Idle state entered; 4294967295 (-1) means the CPU woke up'}},
    'power:cpu_frequency': {
        'summary': 'A CPU\'s clock frequency changed',
        'about': {'state': 'New frequency in kHz'}},
}

# Systems: explanation for any event of the system without an entry of its own.
SYSTEMS = {
    'sched': 'Scheduler events: which task runs on which CPU, wake-ups, task creation and exit',
    'irq': 'Interrupts: hardware interrupt handlers, softirqs and tasklets',
    'irq_vectors': 'x86 interrupt vectors: timer, inter-processor interrupts',
    'raw_syscalls': 'Every system call, by number, with raw arguments',
    'syscalls': 'System calls, one tracepoint per call with decoded arguments',
    'signal': 'Signals: sent and delivered',
    'task': 'Task creation and renaming',
    'block': 'Block device I/O: from the file system\'s request to the disk\'s completion',
    'net': 'Network devices: packets sent and received',
    'napi': 'Network receive polling',
    'skb': 'Network packet buffers: drops and frees',
    'sock': 'Sockets: state changes, buffer limits',
    'tcp': 'TCP connections: retransmissions, resets, state',
    'timer': 'Kernel timers and high-resolution timers',
    'workqueue': 'Deferred kernel work run by kworker threads',
    'power': 'CPU idle states and frequency',
    'kprobe': 'Dynamic probe on entry to a kernel function (kprobe)',
    'kretprobe': 'Dynamic probe on return from a kernel function (kretprobe); ret holds the '
                 'return value',
    'uprobe': 'Dynamic probe on a function in a user program or library (uprobe)',
    'uretprobe': 'Dynamic probe on return from a function in a user program (uretprobe)',
    'usdt': 'Statically defined probe point compiled into a user program (USDT, as used by '
            'DTrace and SystemTap)',
}


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True).stdout


def syscall_tables(header):
    text = open(header).read()
    x86_64, rest = text.split('syscalls_i386')
    i386 = rest.split('errno_names')[0]
    return (re.findall(r'\[\d+\] = "(\w+)"', x86_64), re.findall(r'\[\d+\] = "(\w+)"', i386))


def parse_format(path):
    """Fields of a tracepoint format as 'TYPE NAME' strings, without common_ fields."""
    fields = []
    for line in open(path):
        m = re.match(r'\s*field:(.*?);\s*offset', line)
        if not m:
            continue
        decl = m.group(1).strip()
        if '__data_loc' in decl:
            decl = decl.replace('__data_loc ', '')
            typ, name = decl.rsplit(' ', 1)
        else:
            arr = re.match(r'(.*?)\s*(\**)\s*(\w+)(\[\d*\])$', decl)
            if arr:
                typ = (arr.group(1) + (' ' + arr.group(2) if arr.group(2) else '')).strip()
                typ += arr.group(4)
                name = arr.group(3)
            else:
                m2 = re.match(r'(.*?)\s*(\**)\s*(\w+)$', decl)
                typ = (m2.group(1) + (' ' + m2.group(2) if m2.group(2) else '')).strip()
                name = m2.group(3)
        if name.startswith('common_') or name == '__syscall_nr':
            continue
        fields.append('%s %s' % (typ, name))
    return fields


def man_page(name):
    """(what `man` is asked for, the page file holding the text) for a section 2 page."""
    path = os.path.join(MAN2, name + '.2.gz')
    if not os.path.exists(path):
        return None, None
    real = os.path.basename(os.path.realpath(path))
    target = real[:-len('.2.gz')] if real.endswith('.2.gz') else name
    # A .so redirect inside the page, as some pages are stubs rather than symlinks.
    head = run(['zcat', os.path.realpath(path)]).splitlines()
    so = [l for l in head if l.startswith('.so ')]
    if so:
        target = os.path.basename(so[0].split()[1]).rsplit('.', 1)[0]
    return '%s(2)' % name, '%s(2)' % target


def whatis(name):
    out = run(['whatis', '-l', '-s', '2', name])
    for line in out.splitlines():
        m = re.match(r'(\S+)\s+\(2\)\s+- (.*)', line)
        if m and m.group(1) == name:
            return m.group(2).strip()
    return None


def sentence(text):
    text = text.strip().rstrip('.')
    return text[:1].upper() + text[1:] if text else text


def esc(value):
    """Escapes a value for GKeyFile."""
    value = value.replace('\\', '\\\\').replace('\n', '\\n')
    if value.startswith(' '):
        value = '\\s' + value[1:]
    return value


def esc_list(values):
    return ''.join(esc(v).replace(';', '\\;') + ';' for v in values)


def write_syscalls(table, i386, outdir):
    tracefs_names = set()
    sysdir = os.path.join(TRACEFS, 'syscalls')
    for d in os.listdir(sysdir):
        if d.startswith('sys_enter_'):
            tracefs_names.add(d[len('sys_enter_'):])
    aliases = {v: k for k, v in TRACEPOINT_ALIASES.items()}
    names = list(table)
    names += sorted(n for n in tracefs_names if n not in table and n not in aliases)
    names += sorted(n for n in HAND if n not in names)
    i386_only = [n for n in i386 if n not in names and n not in aliases]

    lines = ['# SPDX-License-Identifier: GPL-3.0-or-later',
             '# Generated by tools/gen-explain.py from the kernel tracepoint formats and the '
             'man pages\' NAME lines;',
             '# gaps written by hand. One group per system call (x86-64 names, then i386-only '
             'ones). Keys: summary '
             '(one line),',
             '# args (C declarations), man (the page to ask for), page (the page that holds '
             'the text),',
             '# note (caveats), alias (the entry that holds the text). Translations: '
             'summary[LANG]=.', '']
    missing = []
    for name in names:
        hand = HAND.get(name, {})
        tp = TRACEPOINT_ALIASES.get(name, name)
        fmt = os.path.join(sysdir, 'sys_enter_' + tp, 'format')
        if 'args' in hand:
            args = hand['args']
        elif os.path.exists(fmt):
            args = parse_format(fmt)
        else:
            args = None
        summary = hand.get('summary') or whatis(name)
        man, page = man_page(name)
        if 'man' in hand:
            man = page = hand['man'] or None
        if summary is None or args is None:
            missing.append(name)
            continue
        lines.append('[%s]' % name)
        lines.append('summary=%s' % esc(sentence(summary)))
        lines.append('args=%s' % esc_list(args))
        if man:
            lines.append('man=%s' % man)
            if page != man:
                lines.append('page=%s' % page)
        if 'note' in hand:
            lines.append('note=%s' % esc(hand['note']))
        lines.append('')
    # 32-bit x86 only: the man page's summary, arguments from the x86-64 call they stand for.
    for name in i386_only:
        base = i386_base(name, table)
        man, page = man_page(name)
        if name in I386_UNIMPLEMENTED:
            summary, man, page = UNIMPLEMENTED, None, None
        else:
            summary = whatis(name)
        if summary is None and base is not None:
            summary = whatis(base) or HAND.get(base, {}).get('summary')
            man, page = man_page(base)
            man, page = HAND.get(base, {}).get('man', man), HAND.get(base, {}).get('man', page)
        if name in I386_HAND:
            args = I386_HAND[name]
        elif base is not None:
            fmt = os.path.join(sysdir, 'sys_enter_' + TRACEPOINT_ALIASES.get(base, base), 'format')
            args = HAND.get(base, {}).get('args') or (parse_format(fmt) if os.path.exists(fmt)
                                                       else None)
        else:
            args = None
        if summary is None or args is None:
            missing.append(name)
            continue
        lines.append('[%s]' % name)
        lines.append('summary=%s' % esc(sentence(summary)))
        lines.append('args=%s' % esc_list(args))
        if man:
            lines.append('man=%s' % man)
            if page != man:
                lines.append('page=%s' % page)
        note = '32-bit x86 (i386) programs only'
        if base is not None:
            note += '; the same job as %s() on x86-64' % base
        lines.append('note=%s.' % esc(note))
        lines.append('')
    # Tracepoint names that differ from the syscall's name point at the syscall's entry.
    for name, tp in sorted(TRACEPOINT_ALIASES.items(), key=lambda kv: kv[1]):
        lines.append('[%s]' % tp)
        lines.append('alias=%s' % name)
        lines.append('')
    with open(os.path.join(outdir, 'syscalls.ini'), 'w') as f:
        f.write('\n'.join(lines))
    return missing


def write_tracepoints(outdir):
    lines = ['# SPDX-License-Identifier: GPL-3.0-or-later',
             '# Generated by tools/gen-explain.py: fields from the kernel\'s tracepoint formats, '
             'text written by hand.',
             '# Groups: SYSTEM:NAME for one tracepoint, SYSTEM for any event of that system. '
             'Keys: summary,',
             '# description, fields (C declarations), about.FIELD (what a field means), man. '
             'Translations: KEY[LANG]=.', '']
    missing = []
    for system in sorted(SYSTEMS):
        lines += ['[%s]' % system, 'summary=%s' % esc(SYSTEMS[system]), '']
    for full in sorted(TRACEPOINTS):
        info = TRACEPOINTS[full]
        system, name = full.split(':')
        fmt = os.path.join(TRACEFS, system, name, 'format')
        if os.path.exists(fmt):
            fields = parse_format(fmt)
        elif 'fields' in info:
            fields = info['fields']
        else:
            missing.append(full)
            continue
        lines.append('[%s]' % full)
        lines.append('summary=%s' % esc(info['summary']))
        if 'description' in info:
            lines.append('description=%s' % esc(info['description']))
        lines.append('fields=%s' % esc_list(fields))
        about = info.get('about', {})
        for decl in fields:
            fname = decl.rsplit(' ', 1)[1]
            text = about.get(fname) or FIELDS.get(fname)
            if text:
                lines.append('about.%s=%s' % (fname, esc(text)))
        if 'man' in info:
            lines.append('man=%s' % info['man'])
        lines.append('')
    with open(os.path.join(outdir, 'tracepoints.ini'), 'w') as f:
        f.write('\n'.join(lines))
    return missing


def main():
    if len(sys.argv) != 3:
        sys.exit('usage: gen-explain.py BUILD/data/seismo-syscall-tables.h OUTDIR')
    if not os.path.isdir(os.path.join(TRACEFS, 'syscalls')):
        sys.exit('tracefs is not mounted: mount -t tracefs nodev /sys/kernel/tracing')
    if not os.path.isdir(MAN2):
        sys.exit('section 2 man pages are missing: apt-get install manpages-dev')
    table, i386 = syscall_tables(sys.argv[1])
    missing = write_syscalls(table, i386, sys.argv[2])
    missing += write_tracepoints(sys.argv[2])
    if missing:
        sys.exit('no explanation for: ' + ', '.join(missing))


if __name__ == '__main__':
    main()
