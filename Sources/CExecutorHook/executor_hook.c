#include "executor_hook.h"

// Defined by the Swift runtime's concurrency library, linked into every Swift program that
// uses tasks.
extern void *swift_task_enqueueGlobal_hook;

void **widgetd_enqueue_global_hook(void) {
    return &swift_task_enqueueGlobal_hook;
}
