#include "enqueue_hook.h"

#if defined(__linux__)
// Defined by the Swift concurrency runtime (libswift_Concurrency), shared or static.
extern void *swift_task_enqueueGlobal_hook;

void *openclaw_enqueue_global_hook_slot(void) { return &swift_task_enqueueGlobal_hook; }
#else
void *openclaw_enqueue_global_hook_slot(void) { return 0; }
#endif
