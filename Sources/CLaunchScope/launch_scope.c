#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-bus.h>
#include "launch_scope.h"

struct widgetd_scope_bus {
    sd_bus *bus;
};

// The user's manager listens on $XDG_RUNTIME_DIR/systemd/private (systemctl --user uses it); a
// direct connection, without a bus daemon between.
static int open_user_manager(sd_bus **result) {
    const char *runtime = getenv("XDG_RUNTIME_DIR");
    if (!runtime || runtime[0] != '/') return -ENXIO;
    char address[4096];
    if (snprintf(address, sizeof address, "unix:path=%s/systemd/private", runtime) >= (int)sizeof address) return -ENAMETOOLONG;
    sd_bus *bus = NULL;
    int r = sd_bus_new(&bus);
    if (r < 0) return r;
    r = sd_bus_set_address(bus, address);
    if (r >= 0) r = sd_bus_start(bus);
    if (r < 0) {
        sd_bus_unref(bus);
        return r;
    }
    *result = bus;
    return 0;
}

int widgetd_scope_bus_open(widgetd_scope_bus **result, int user) {
    sd_bus *bus = NULL;
    int r = user ? open_user_manager(&bus) : sd_bus_open_system(&bus);
    if (r < 0) return r;
    widgetd_scope_bus *opened = calloc(1, sizeof *opened);
    if (!opened) {
        sd_bus_unref(bus);
        return -ENOMEM;
    }
    opened->bus = bus;
    *result = opened;
    return 0;
}

void widgetd_scope_bus_close(widgetd_scope_bus *bus) {
    if (!bus) return;
    sd_bus_flush_close_unref(bus->bus);
    free(bus);
}

struct job_wait {
    const char *path;
    int done;
    char result[32];
};

static int job_removed(sd_bus_message *message, void *userdata, sd_bus_error *error) {
    (void)error;
    struct job_wait *wait = userdata;
    uint32_t id;
    const char *path, *unit, *result;
    if (sd_bus_message_read(message, "uoss", &id, &path, &unit, &result) < 0) return 0;
    if (wait->path && strcmp(path, wait->path) == 0) {
        wait->done = 1;
        strncpy(wait->result, result, sizeof wait->result - 1);
    }
    return 0;
}

static void say(char *error, size_t size, const char *text) {
    if (size == 0) return;
    strncpy(error, text ? text : "", size - 1);
    error[size - 1] = 0;
}

int widgetd_scope_start(widgetd_scope_bus *scope_bus, const char *name, const char *description, pid_t pid,
                        uint64_t memory_max, uint64_t cpu_quota_usec, uint64_t timeout_usec,
                        char *error, size_t error_size) {
    sd_bus *bus = scope_bus->bus;
    sd_bus_message *call = NULL, *reply = NULL;
    sd_bus_error failure = SD_BUS_ERROR_NULL;
    sd_bus_slot *slot = NULL;
    struct job_wait wait = {0};
    int r;
    say(error, error_size, "");
    // Before the call: the job may end before its reply is read. The manager sends
    // JobRemoved to the client that asked for the job (and, on its private socket, to all).
    r = sd_bus_match_signal(bus, &slot, NULL, "/org/freedesktop/systemd1", "org.freedesktop.systemd1.Manager",
                            "JobRemoved", job_removed, &wait);
    if (r < 0) goto finish;
    r = sd_bus_message_new_method_call(bus, &call, "org.freedesktop.systemd1", "/org/freedesktop/systemd1",
                                       "org.freedesktop.systemd1.Manager", "StartTransientUnit");
    if (r < 0) goto finish;
    r = sd_bus_message_append(call, "ss", name, "fail");
    if (r < 0) goto finish;
    r = sd_bus_message_open_container(call, 'a', "(sv)");
    if (r < 0) goto finish;
    r = sd_bus_message_append(call, "(sv)", "Description", "s", description);
    if (r < 0) goto finish;
    r = sd_bus_message_append(call, "(sv)", "PIDs", "au", 1, (uint32_t)pid);
    if (r < 0) goto finish;
    // Gone from the manager once it ends, failed (an OOM kill) or not.
    r = sd_bus_message_append(call, "(sv)", "CollectMode", "s", "inactive-or-failed");
    if (r < 0) goto finish;
    if (memory_max > 0) {
        r = sd_bus_message_append(call, "(sv)", "MemoryMax", "t", memory_max);
        if (r < 0) goto finish;
    }
    if (cpu_quota_usec > 0) {
        r = sd_bus_message_append(call, "(sv)", "CPUQuotaPerSecUSec", "t", cpu_quota_usec);
        if (r < 0) goto finish;
    }
    r = sd_bus_message_close_container(call);
    if (r < 0) goto finish;
    r = sd_bus_message_append(call, "a(sa(sv))", 0);
    if (r < 0) goto finish;
    r = sd_bus_call(bus, call, timeout_usec, &failure, &reply);
    if (r < 0) {
        say(error, error_size, failure.message ? failure.message : strerror(-r));
        goto finish;
    }
    const char *job;
    r = sd_bus_message_read(reply, "o", &job);
    if (r < 0) goto finish;
    wait.path = job;
    while (!wait.done) {
        r = sd_bus_process(bus, NULL);
        if (r < 0) goto finish;
        if (r > 0) continue;
        r = sd_bus_wait(bus, timeout_usec);
        if (r < 0) goto finish;
        if (r == 0) {
            r = -ETIMEDOUT;
            say(error, error_size, "the service manager did not start the scope in time");
            goto finish;
        }
    }
    if (strcmp(wait.result, "done") != 0) {
        r = -EIO;
        say(error, error_size, wait.result);
        goto finish;
    }
    r = 0;
finish:
    if (r < 0 && error_size > 0 && error[0] == 0) say(error, error_size, strerror(-r));
    sd_bus_error_free(&failure);
    sd_bus_message_unref(reply);
    sd_bus_message_unref(call);
    sd_bus_slot_unref(slot);
    return r;
}

int widgetd_scope_kill(widgetd_scope_bus *scope_bus, const char *name) {
    sd_bus_error failure = SD_BUS_ERROR_NULL;
    int r = sd_bus_call_method(scope_bus->bus, "org.freedesktop.systemd1", "/org/freedesktop/systemd1",
                               "org.freedesktop.systemd1.Manager", "KillUnit", &failure, NULL, "ssi", name, "all",
                               (int32_t)SIGKILL);
    sd_bus_error_free(&failure);
    return r;
}
