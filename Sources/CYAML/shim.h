#ifndef WIRING_CYAML_SHIM_H
#define WIRING_CYAML_SHIM_H
#include <yaml.h>
#include "predecoded_input.h"

/* The address of the calling frame on the thread's real stack. A Swift local's address is not
   one under AddressSanitizer, which moves locals to a "fake stack" on the heap, so the stack
   guard measures with this instead. Not inlined, so that its frame is just below its caller's. */
__attribute__((noinline)) static unsigned long wiring_frame_address(void) {
    return (unsigned long)__builtin_frame_address(0);
}

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/syscall.h>
#endif

/* ---- A pipe of libyaml events from a parsing thread to the reader ----------------------------

   For a large file the YAML reader parses on a second thread while it builds its tree from the
   events already parsed: libyaml's work and the reader's overlap. Events travel in chunks
   through a ring; the producing thread owns every event until the reader releases its chunk,
   and deletes a chunk's events when it reuses the slot, so memory is freed by the thread that
   allocated it. One mutex guards the counters; nothing else is shared. */

#define WIRING_PIPE_CHUNKS 4
#define WIRING_PIPE_CHUNK_EVENTS 256

typedef struct wiring_event_pipe {
    yaml_parser_t *parser;
    pthread_t thread;
    pthread_mutex_t mutex;
    pthread_cond_t filled;   /* the reader waits here for a chunk */
    pthread_cond_t drained;  /* the parsing thread waits here for a free slot */
    unsigned long produced;  /* chunks published */
    unsigned long consumed;  /* chunks released by the reader */
    int finished;            /* the last chunk is published */
    int failed;              /* the last chunk ends where libyaml failed */
    int stop;                /* the reader wants no more chunks */
    int counts[WIRING_PIPE_CHUNKS];
    yaml_event_t events[WIRING_PIPE_CHUNKS][WIRING_PIPE_CHUNK_EVENTS];
} wiring_event_pipe;

static void *wiring_pipe_produce(void *argument) {
    wiring_event_pipe *pipe = (wiring_event_pipe *)argument;
    for (;;) {
        pthread_mutex_lock(&pipe->mutex);
        while (pipe->produced - pipe->consumed == WIRING_PIPE_CHUNKS && !pipe->stop)
            pthread_cond_wait(&pipe->drained, &pipe->mutex);
        int stop = pipe->stop;
        unsigned long slot = pipe->produced % WIRING_PIPE_CHUNKS;
        pthread_mutex_unlock(&pipe->mutex);
        if (stop) return 0;

        yaml_event_t *events = pipe->events[slot];
        for (int i = 0; i < pipe->counts[slot]; i++) yaml_event_delete(&events[i]);
        int count = 0, last = 0, failed = 0;
        while (count < WIRING_PIPE_CHUNK_EVENTS) {
            if (!yaml_parser_parse(pipe->parser, &events[count])) {
                failed = 1;
                last = 1;
                break;
            }
            if (events[count++].type == YAML_STREAM_END_EVENT) {
                last = 1;
                break;
            }
        }
        pthread_mutex_lock(&pipe->mutex);
        pipe->counts[slot] = count;
        pipe->produced += 1;
        if (last) {
            pipe->finished = 1;
            pipe->failed = failed;
        }
        pthread_cond_signal(&pipe->filled);
        pthread_mutex_unlock(&pipe->mutex);
        if (last) return 0;
    }
}

/* Whether a second thread can run beside this one: more than one processor is online and, on
   Linux, this thread may run on more than one (taskset and cpusets narrow that). */
static inline int wiring_parallelism_available(void) {
    if (sysconf(_SC_NPROCESSORS_ONLN) < 2) return 0;
#if defined(__linux__)
    /* The raw system call: the libc wrapper and its CPU_COUNT need _GNU_SOURCE. */
    unsigned long mask[16] = {0};
    long bytes = syscall(SYS_sched_getaffinity, 0, sizeof mask, mask);
    if (bytes > 0) {
        int allowed = 0;
        for (long word = 0; word < bytes / (long)sizeof(unsigned long); word++) allowed += __builtin_popcountl(mask[word]);
        return allowed > 1;
    }
#endif
    return 1;
}

/* Starts parsing `parser`'s input on a new thread; NULL when no thread could be started (the
   caller then parses on its own thread). */
static inline wiring_event_pipe *wiring_pipe_start(yaml_parser_t *parser) {
    wiring_event_pipe *pipe = (wiring_event_pipe *)calloc(1, sizeof(wiring_event_pipe));
    if (!pipe) return 0;
    pipe->parser = parser;
    pthread_mutex_init(&pipe->mutex, 0);
    pthread_cond_init(&pipe->filled, 0);
    pthread_cond_init(&pipe->drained, 0);
    if (pthread_create(&pipe->thread, 0, wiring_pipe_produce, pipe) != 0) {
        pthread_cond_destroy(&pipe->drained);
        pthread_cond_destroy(&pipe->filled);
        pthread_mutex_destroy(&pipe->mutex);
        free(pipe);
        return 0;
    }
    return pipe;
}

/* Waits for the next chunk and returns its events. `*last` says it is the final chunk, and
   `*failed` that libyaml failed after its events (the parser then holds the error). */
static inline const yaml_event_t *wiring_pipe_next(wiring_event_pipe *pipe, int *count, int *last, int *failed) {
    pthread_mutex_lock(&pipe->mutex);
    while (pipe->consumed == pipe->produced) pthread_cond_wait(&pipe->filled, &pipe->mutex);
    unsigned long slot = pipe->consumed % WIRING_PIPE_CHUNKS;
    *count = pipe->counts[slot];
    *last = pipe->finished && pipe->consumed + 1 == pipe->produced;
    *failed = *last && pipe->failed;
    pthread_mutex_unlock(&pipe->mutex);
    return pipe->events[slot];
}

/* Gives the chunk `wiring_pipe_next` returned back to the parsing thread. */
static inline void wiring_pipe_release(wiring_event_pipe *pipe) {
    pthread_mutex_lock(&pipe->mutex);
    pipe->consumed += 1;
    pthread_cond_signal(&pipe->drained);
    pthread_mutex_unlock(&pipe->mutex);
}

/* Stops the parsing thread, waits for it, and frees every event still held. The parser is the
   caller's again afterwards. */
static inline void wiring_pipe_finish(wiring_event_pipe *pipe) {
    pthread_mutex_lock(&pipe->mutex);
    pipe->stop = 1;
    pthread_cond_signal(&pipe->drained);
    pthread_mutex_unlock(&pipe->mutex);
    pthread_join(pipe->thread, 0);
    for (int slot = 0; slot < WIRING_PIPE_CHUNKS; slot++)
        for (int i = 0; i < pipe->counts[slot]; i++) yaml_event_delete(&pipe->events[slot][i]);
    pthread_cond_destroy(&pipe->drained);
    pthread_cond_destroy(&pipe->filled);
    pthread_mutex_destroy(&pipe->mutex);
    free(pipe);
}

/* ---- Input with a gap ----------------------------------------------------------------------

   To read a large section in pieces on two threads, one parser reads the file without the
   pieces (its head): the bytes before `cut`, the first cut, then those from `resume`, the
   section's end, on. Positions libyaml reports past `cut` are offsets into that shortened
   input; the reader maps them back. */

typedef struct wiring_gapped_input {
    const unsigned char *bytes;
    size_t cut;      /* the gap starts here */
    size_t resume;   /* and ends here */
    size_t count;    /* the file's size */
    size_t position; /* how much of the shortened input libyaml has read */
} wiring_gapped_input;

static int wiring_gapped_read(void *data, unsigned char *buffer, size_t size, size_t *size_read) {
    wiring_gapped_input *input = (wiring_gapped_input *)data;
    size_t total = input->cut + (input->count - input->resume);
    size_t done = 0;
    while (done < size && input->position < total) {
        int before = input->position < input->cut;
        size_t offset = before ? input->position : input->resume + (input->position - input->cut);
        size_t available = before ? input->cut - input->position : total - input->position;
        size_t length = available < size - done ? available : size - done;
        memcpy(buffer + done, input->bytes + offset, length);
        done += length;
        input->position += length;
    }
    *size_read = done;
    return 1;
}

/* Makes `parser` read `input`, which must outlive the parse. */
static inline void wiring_parser_set_gapped_input(yaml_parser_t *parser, wiring_gapped_input *input) {
    yaml_parser_set_input(parser, wiring_gapped_read, input);
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
