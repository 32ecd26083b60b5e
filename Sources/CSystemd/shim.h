#ifndef WIDGETD_CSYSTEMD_SHIM_H
#define WIDGETD_CSYSTEMD_SHIM_H
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <fcntl.h>
#include <spawn.h>
#include <unistd.h>
#include <systemd/sd-daemon.h>
#include <systemd/sd-journal.h>

/// pipe2 is a GNU extension that Glibc's Swift overlay does not expose.
static inline int widgetd_pipe_cloexec(int fds[2]) {
    return pipe2(fds, O_CLOEXEC);
}

/// Closes every descriptor from `low` up in the child (glibc 2.34+): a provider must not
/// inherit the daemon's listening socket, epoll or database descriptors.
static inline int widgetd_spawn_closefrom(posix_spawn_file_actions_t *actions, int low) {
    return posix_spawn_file_actions_addclosefrom_np(actions, low);
}
#endif
