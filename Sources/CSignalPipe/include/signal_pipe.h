#ifndef WIDGETD_SIGNAL_PIPE_H
#define WIDGETD_SIGNAL_PIPE_H

/// Catches `signals` with a handler that writes each signal's number, as one byte, to a
/// pipe, and returns the pipe's read end (close-on-exec), or -1 with errno set. Call it once
/// per process.
///
/// Why a handler and not a blocked mask read with `sigwaitinfo`: whatever thread the kernel
/// hands a signal to must not end the process, and libdispatch's signal thread (the first
/// thread, parked by an async `main`) waits in `sigsuspend` with no signal blocked. The
/// handler only writes (async-signal-safe); a full pipe drops the byte, which loses nothing
/// a reader of the pipe has not yet to read.
int widgetd_signal_pipe(const int *signals, int count);

#endif
