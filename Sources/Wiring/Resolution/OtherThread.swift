#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
internal import CYAML

/// Whether work split over two threads can run at once: more than one processor is online and,
/// on Linux, this process may run on more than one (taskset and cpusets narrow that).
enum Parallelism {
    static var isAvailable: Bool { wiring_parallelism_available() != 0 }
}

/// Work started on a thread of its own, whose result the starting thread collects with
/// ``join()``. Building a large container validates the manifest on one while it binds it.
///
/// A plain thread, not a task or a dispatch queue: the caller blocks in `join`, and blocking a
/// pool's thread on work queued to the same pool could wait on itself.
struct OtherThread<Result: Sendable>: ~Copyable {
    /// The work and, once it ran, its result.
    private final class Job: @unchecked Sendable {
        // `@unchecked`: `result` is written by the started thread before it ends and read by
        // the starting thread only after `pthread_join`, which orders the two.
        let work: @Sendable () -> Result
        var result: Result?

        init(_ work: @escaping @Sendable () -> Result) {
            self.work = work
        }
    }

    private let job: Job
    #if canImport(Darwin)
    private var thread: pthread_t?
    #else
    private var thread = pthread_t()
    #endif
    private var started: Bool

    /// Starts `work` on a new thread; when no thread can be started, ``join()`` runs it.
    init(_ work: @escaping @Sendable () -> Result) {
        let job = Job(work)
        self.job = job
        let start = Unmanaged.passRetained(ThreadStart { job.result = job.work() }).toOpaque()
        started = pthread_create(&thread, nil, threadMain, start) == 0
        if !started { Unmanaged<ThreadStart>.fromOpaque(start).release() }
    }

    /// Waits for the work to finish and returns its result.
    consuming func join() -> Result {
        if started {
            #if canImport(Darwin)
            pthread_join(thread!, nil)
            #else
            pthread_join(thread, nil)
            #endif
        }
        return job.result ?? job.work()
    }
}

/// What a new thread runs: not generic, as a C function's argument must be.
private final class ThreadStart: Sendable {
    let run: @Sendable () -> Void

    init(_ run: @escaping @Sendable () -> Void) {
        self.run = run
    }
}

#if canImport(Darwin)
private func threadMain(_ argument: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
    Unmanaged<ThreadStart>.fromOpaque(argument).takeRetainedValue().run()
    return nil
}
#else
private func threadMain(_ argument: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    Unmanaged<ThreadStart>.fromOpaque(argument!).takeRetainedValue().run()
    return nil
}
#endif
