#ifndef WIDGETD_EXECUTOR_HOOK_H
#define WIDGETD_EXECUTOR_HOOK_H

/// Where the Swift runtime keeps its hook for enqueueing a job on the global executor.
///
/// Why a C function and not `dlsym`: a program linked with the Swift runtime inside it
/// (`--static-swift-stdlib`, as the package is built) does not export the runtime's symbols,
/// so looking the hook up at run time finds nothing there; a reference resolved when the
/// program is linked works in both builds.
void **widgetd_enqueue_global_hook(void);

#endif
