#ifndef OPENCLAW_ENQUEUE_HOOK_H
#define OPENCLAW_ENQUEUE_HOOK_H

/// Where the Swift runtime keeps its hook for enqueueing a job on the global executor, found by the
/// linker rather than by `dlsym`: a statically linked program does not export the runtime's symbols,
/// so a lookup by name finds nothing there. NULL where this is not built for (Apple platforms).
void *_Nullable openclaw_enqueue_global_hook_slot(void);

#endif
