#ifndef WIDGETD_CSYSTEMD_SHIM_H
#define WIDGETD_CSYSTEMD_SHIM_H
// No _GNU_SOURCE here: it changes glibc's struct layouts (fd_set) for this module only,
// and Clang then refuses to merge them with other modules' view of the same headers.
#include <spawn.h>
#include <errno.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <sys/timerfd.h>
#include <fcntl.h>
#include <malloc.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <systemd/sd-daemon.h>
#include <systemd/sd-journal.h>
#include <systemd/sd-bus.h>
#include <sys/eventfd.h>
#include <poll.h>
#include <time.h>

/// Closes every descriptor from `low` up in the child (glibc 2.34+): a provider must not
/// inherit the daemon's listening socket, epoll or database descriptors.
static inline int widgetd_spawn_closefrom(posix_spawn_file_actions_t *actions, int low) {
    return posix_spawn_file_actions_addclosefrom_np(actions, low);
}

/// A descriptor that polls readable when process `pid` exits (Linux 5.3+), or -1 (errno set).
/// glibc's own wrapper (2.36) is not in every supported release; the system call is.
static inline int widgetd_pidfd_open(pid_t pid) {
#ifdef SYS_pidfd_open
    return (int)syscall(SYS_pidfd_open, pid, 0);
#else
    errno = ENOSYS;
    return -1;
#endif
}

/// Sends `signal` to the process a pidfd refers to (Linux 5.1+): unlike `kill`, it cannot
/// reach another process that was given the same pid since.
static inline int widgetd_pidfd_send_signal(int pidfd, int signal) {
#ifdef SYS_pidfd_send_signal
    return (int)syscall(SYS_pidfd_send_signal, pidfd, signal, NULL, 0);
#else
    errno = ENOSYS;
    return -1;
#endif
}

/// Makes the calling process a child subreaper: its descendants whose parent dies are
/// re-parented to it instead of to init, so they stay within its reach.
static inline int widgetd_set_child_subreaper(void) {
    return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
}

/// execve of `file` in each directory of PATH (glibc's default when PATH is unset), as
/// posix_spawnp does: unlike execvp, a file without `#!` that the kernel refuses (ENOEXEC) is
/// not run by /bin/sh. Returns only on failure, with errno set. Uses the stack only, for the
/// vfork child below.
static inline void widgetd_exec_search(const char *file, char *const argv[]) {
    extern char **environ;
    const char *path = "/bin:/usr/bin";
    for (char **entry = environ; entry && *entry; entry++) {
        if (strncmp(*entry, "PATH=", 5) == 0) { path = *entry + 5; break; }
    }
    size_t length = strlen(file);
    char candidate[4096];
    int denied = 0;
    for (;;) {
        const char *end = strchr(path, ':');
        size_t size = end ? (size_t)(end - path) : strlen(path);
        if (size + length + 3 <= sizeof candidate) {
            size_t at = 0;
            if (size == 0) {
                candidate[at++] = '.';
            } else {
                memcpy(candidate, path, size);
                at = size;
            }
            candidate[at++] = '/';
            memcpy(candidate + at, file, length + 1);
            execve(candidate, argv, environ);
            if (errno == EACCES) {
                denied = 1;
            } else if (errno != ENOENT && errno != ENOTDIR) {
                return;
            }
        }
        if (!end) break;
        path = end + 1;
    }
    errno = denied ? EACCES : ENOENT;
}

/// Starts `path` (looked up on PATH when `search` is set) with `fds` as its stdin, stdout and
/// stderr, in a process group of its own, with default signal handling, an empty signal mask,
/// no other descriptor, and RLIMIT_DATA and RLIMIT_CPU (soft and hard) lowered to `data_max` bytes and
/// `cpu_max` seconds (0: left as they are) before the program runs, and, when `cgroup_procs`
/// is a descriptor (not -1), in the control group whose `cgroup.procs` it is open for: the
/// child writes itself there before its program runs, so nothing the program starts is ever
/// outside. (clone3's CLONE_INTO_CGROUP would do it in the fork, but the unit's
/// RestrictNamespaces= filter makes clone3 fail with ENOSYS.) posix_spawn cannot set a
/// resource limit in the child, and one set after it returns would come after the program
/// started. Returns 0 and sets `*pid`, or an errno.
///
/// vfork: the child borrows the parent's memory until exec, so it makes system calls only,
/// with every signal blocked until their handlers are reset (a handler of the daemon's must
/// never run in it). The parent waits until exec, and the child's errno comes back in
/// `failure`, which they share.
static inline int widgetd_spawn_limited(pid_t *pid, const char *path, int search, char *const argv[],
                                        const int fds[3], unsigned long long data_max, unsigned long long cpu_max,
                                        int cgroup_procs) {
    extern char **environ;
    sigset_t all, previous;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &previous);
    volatile int failure = 0;
    pid_t child = vfork();
    if (child == 0) {
        // The kernel's call, not glibc's sigaction, which refuses the signals glibc keeps
        // for itself (32 and 33): posix_spawn resets those too.
        struct { void *handler; unsigned long flags; void *restorer; unsigned long mask; } initial;
        memset(&initial, 0, sizeof initial);
        initial.handler = SIG_DFL;
        // 64: Linux's signals (NSIG is 32 where the kernel's old asm/signal.h is seen).
        for (int number = 1; number <= 64; number++) {
            if (number != SIGKILL && number != SIGSTOP) syscall(SYS_rt_sigaction, number, &initial, NULL, sizeof initial.mask);
        }
        setpgid(0, 0);
        if (cgroup_procs >= 0 && write(cgroup_procs, "0", 1) != 1) { failure = errno; _exit(127); }
        for (int target = 0; target < 3; target++) {
            if (fds[target] == target) {
                fcntl(target, F_SETFD, 0);
            } else if (dup2(fds[target], target) < 0) {
                failure = errno;
                _exit(127);
            }
        }
#ifdef SYS_close_range
        if (syscall(SYS_close_range, 3, ~0U, 0) != 0)
#endif
        {
            struct rlimit files;
            long top = getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < (1 << 20) ? (long)files.rlim_cur : (1 << 20);
            for (long fd = 3; fd < top; fd++) close((int)fd);
        }
        // prlimit64, not setrlimit: the unit's SystemCallFilter refuses setrlimit (in
        // @resources) and allows prlimit64 (in @default).
        struct { unsigned long long current, maximum; } limit;
        if (data_max > 0) {
            limit.current = data_max;
            limit.maximum = data_max;
            if (syscall(SYS_prlimit64, 0, RLIMIT_DATA, &limit, NULL) != 0) { failure = errno; _exit(127); }
        }
        if (cpu_max > 0) {
            // SIGXCPU at the soft limit; SIGKILL a second later for a provider that ignores it.
            limit.current = cpu_max;
            limit.maximum = cpu_max + 1;
            if (syscall(SYS_prlimit64, 0, RLIMIT_CPU, &limit, NULL) != 0) { failure = errno; _exit(127); }
        }
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        if (search) {
            widgetd_exec_search(path, argv);
        } else {
            execve(path, argv, environ);
        }
        failure = errno;
        _exit(127);
    }
    int spawnError = errno;
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    if (child < 0) return spawnError;
    if (failure != 0) {
        int status;
        while (waitpid(child, &status, 0) < 0 && errno == EINTR) {}
        return failure;
    }
    *pid = child;
    return 0;
}

/// getxattr(2): <sys/xattr.h> is not part of Swift's Glibc module.
static inline long widgetd_getxattr(const char *path, const char *name, void *value, unsigned long size) {
    return (long)getxattr(path, name, value, size);
}

/// ppoll(2) with a timeout in nanoseconds (negative: none). glibc declares ppoll only under
/// _GNU_SOURCE, which this module must not define (see above); the system call is the same.
static inline int widgetd_ppoll(struct pollfd *fds, unsigned long count, long long timeout_ns) {
    struct timespec timeout;
    if (timeout_ns >= 0) {
        timeout.tv_sec = (time_t)(timeout_ns / 1000000000LL);
        timeout.tv_nsec = (long)(timeout_ns % 1000000000LL);
    }
    return (int)syscall(SYS_ppoll, fds, count, timeout_ns >= 0 ? &timeout : NULL, NULL, (size_t)8);
}

/// Caps glibc's malloc arenas (`mallopt(M_ARENA_MAX, count)`); <malloc.h> is not part of
/// Swift's Glibc module. Returns mallopt's 1 on success.
static inline int widgetd_cap_malloc_arenas(int count) {
    return mallopt(M_ARENA_MAX, count);
}
#endif
