#ifndef C_MALLOC_INFO_H
#define C_MALLOC_INFO_H

#include <stddef.h>

#if defined(__linux__)
#include <malloc.h>
#endif

/// Bytes the allocator has handed out and not got back (glibc: in-use arena bytes plus mmapped
/// blocks); -1 where the allocator cannot tell.
static inline long long cmallocinfo_heap_in_use(void) {
#if defined(__GLIBC__)
    struct mallinfo2 info = mallinfo2();
    return (long long)(info.uordblks + info.hblkhd);
#else
    return -1;
#endif
}

/// Returns freed heap memory to the kernel where the allocator supports it (glibc `malloc_trim`).
static inline void cmallocinfo_release_free_memory(void) {
#if defined(__GLIBC__)
    (void)malloc_trim(0);
#endif
}

#endif
