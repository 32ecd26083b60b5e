#ifndef WIDGETD_LAUNCH_SCOPE_H
#define WIDGETD_LAUNCH_SCOPE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/// A connection to the service manager that runs widgetd, for transient scopes.
typedef struct widgetd_scope_bus widgetd_scope_bus;

/// Connects to the user's service manager (`user` != 0: its private socket in
/// $XDG_RUNTIME_DIR/systemd) or to the system's through the system bus. Returns 0 and sets
/// `*bus`, or a negative errno.
int widgetd_scope_bus_open(widgetd_scope_bus **bus, int user);

void widgetd_scope_bus_close(widgetd_scope_bus *bus);

/// Starts the transient scope `name` holding `pid`, with `MemoryMax=` `memory_max` bytes and
/// `CPUQuota=` `cpu_quota_usec` µs of CPU per second (0: not set), collected once it ends
/// however it ends, and waits up to `timeout_usec` for the manager to have moved `pid` into
/// it. Returns 0, or a negative errno with the manager's reason in `error`.
int widgetd_scope_start(widgetd_scope_bus *bus, const char *name, const char *description, pid_t pid,
                        uint64_t memory_max, uint64_t cpu_quota_usec, uint64_t timeout_usec,
                        char *error, size_t error_size);

/// SIGKILL to every process in the scope `name` (the manager's KillUnit, "all"): a process that
/// left the provider's group or session is still in its scope. Returns 0 or a negative errno.
int widgetd_scope_kill(widgetd_scope_bus *bus, const char *name);

#endif
