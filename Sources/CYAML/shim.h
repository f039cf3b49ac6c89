#ifndef WIRING_CYAML_SHIM_H
#define WIRING_CYAML_SHIM_H
#include <yaml.h>
#include <pthread.h>

/* The address of the calling frame on the thread's real stack. A Swift local's address is not
   one under AddressSanitizer, which moves locals to a "fake stack" on the heap, so the stack
   guard measures with this instead. Not inlined, so that its frame is just below its caller's. */
__attribute__((noinline)) static unsigned long wiring_frame_address(void) {
    return (unsigned long)__builtin_frame_address(0);
}

#if defined(__linux__)
/* A GNU extension that Swift's Glibc module does not import. */
extern int pthread_getattr_np(pthread_t thread, pthread_attr_t *attributes);

/* The lowest address of the calling thread's stack, or 0 when it cannot be read. The
   container's stack guard needs it; it lives here because this is the package's C target. */
static inline unsigned long wiring_thread_stack_low(void) {
    pthread_attr_t attributes;
    if (pthread_getattr_np(pthread_self(), &attributes) != 0) return 0;
    void *address = 0;
    size_t size = 0;
    int failed = pthread_attr_getstack(&attributes, &address, &size);
    pthread_attr_destroy(&attributes);
    return failed ? 0 : (unsigned long)address;
}
#endif
#endif
