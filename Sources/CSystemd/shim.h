#ifndef WIDGETD_CSYSTEMD_SHIM_H
#define WIDGETD_CSYSTEMD_SHIM_H
// No _GNU_SOURCE here: it changes glibc's struct layouts (fd_set) for this module only,
// and Clang then refuses to merge them with other modules' view of the same headers.
#include <spawn.h>
#include <sys/timerfd.h>
#include <systemd/sd-daemon.h>
#include <systemd/sd-journal.h>

/// Closes every descriptor from `low` up in the child (glibc 2.34+): a provider must not
/// inherit the daemon's listening socket, epoll or database descriptors.
static inline int widgetd_spawn_closefrom(posix_spawn_file_actions_t *actions, int low) {
    return posix_spawn_file_actions_addclosefrom_np(actions, low);
}
#endif
