#ifndef WIDGETD_CSYSTEMD_SHIM_H
#define WIDGETD_CSYSTEMD_SHIM_H
// No _GNU_SOURCE here: it changes glibc's struct layouts (fd_set) for this module only,
// and Clang then refuses to merge them with other modules' view of the same headers.
#include <spawn.h>
#include <errno.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <sys/timerfd.h>
#include <malloc.h>
#include <systemd/sd-daemon.h>
#include <systemd/sd-journal.h>

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

/// Caps glibc's malloc arenas (`mallopt(M_ARENA_MAX, count)`); <malloc.h> is not part of
/// Swift's Glibc module. Returns mallopt's 1 on success.
static inline int widgetd_cap_malloc_arenas(int count) {
    return mallopt(M_ARENA_MAX, count);
}
#endif
