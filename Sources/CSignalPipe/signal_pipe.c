#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include "signal_pipe.h"

static volatile int write_end = -1;

static void widgetd_signal_caught(int number) {
    int saved = errno;
    unsigned char byte = (unsigned char)number;
    if (write(write_end, &byte, 1) < 0) {
        // Full: enough of them wait to be read.
    }
    errno = saved;
}

int widgetd_signal_pipe(const int *signals, int count) {
    int fds[2];
    if (pipe(fds) != 0) return -1;
    fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    fcntl(fds[1], F_SETFD, FD_CLOEXEC);
    fcntl(fds[1], F_SETFL, O_NONBLOCK);
    write_end = fds[1];
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = widgetd_signal_caught;
    sigfillset(&action.sa_mask);
    // Interrupted system calls go on: the signal is handled by the pipe's reader.
    action.sa_flags = SA_RESTART;
    for (int index = 0; index < count; index++) {
        if (sigaction(signals[index], &action, 0) != 0) return -1;
    }
    return fds[0];
}
