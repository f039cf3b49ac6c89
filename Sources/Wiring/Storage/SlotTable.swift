#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The states of one or more ``InstanceSlot``s behind one `pthread_mutex_t`, in one allocation.
///
/// A service the container keeps (a singleton, say) has a table of its own, with one state. A
/// ``ContainerScope`` has one table for all its `scoped` services, made with the scope, which
/// also holds the scope's shutdown hooks and whether it has ended. A request through a scope
/// then allocates one table and initializes one mutex, and each of its scoped instances costs
/// two critical sections (look, then keep), where a slot object per instance cost an allocation,
/// a mutex and six critical sections: the notes server's request runs about 10 % faster
/// (`NotesBenchmark --in-process`).
struct SlotTable: @unchecked Sendable {
    struct Header {
        var mutex = pthread_mutex_t()
        let count: Int
        /// For a scope's table: the scope has ended; its slots keep nothing more.
        var ended = false
        /// For a scope's table: the last instance with hooks whose build ended, linked to
        /// those before it.
        var newestRecorded: RecordedInstance?
    }

    private final class Storage: ManagedBuffer<Header, InstanceSlot.State> {
        deinit {
            withUnsafeMutablePointers { header, states in
                // An ended scope's slots are all empty, which holds nothing to release: once
                // it ends, a build under way empties its slot, and it holds the table until
                // then. Skipping their value witnesses saves 2 % of a served request.
                if !header.pointee.ended { states.deinitialize(count: header.pointee.count) }
                RecordedInstance.release(header.pointee.newestRecorded.take())
                // An unlocked mutex of glibc or musl holds nothing to release (see `init`).
                #if !canImport(Glibc) && !canImport(Musl)
                _ = pthread_mutex_destroy(SlotTable.mutex(header))
                #endif
            }
        }
    }

    private let storage: Storage

    /// A table of `count` empty slots.
    init(count: Int) {
        let buffer = Storage.create(minimumCapacity: count) { _ in Header(count: count) }
        storage = unsafeDowncast(buffer, to: Storage.self)
        storage.withUnsafeMutablePointers { header, states in
            // glibc's and musl's PTHREAD_MUTEX_INITIALIZER is all zeros, as `Header` makes the
            // mutex: a scope's table, one per request, needs no call into the C library that
            // the rest of a server seldom makes. Darwin's initializer is not zeros.
            #if !canImport(Glibc) && !canImport(Musl)
            pthread_mutex_init(Self.mutex(header), nil)
            #endif
            states.initialize(repeating: .empty, count: count)
        }
    }

    /// The mutex, in place in the header: a header is never moved or copied while in use.
    private static func mutex(_ header: UnsafeMutablePointer<Header>) -> UnsafeMutablePointer<pthread_mutex_t> {
        (UnsafeMutableRawPointer(header) + MemoryLayout<Header>.offset(of: \.mutex)!).assumingMemoryBound(to: pthread_mutex_t.self)
    }

    /// Runs `body` with the header and the slots' states while holding the lock.
    @inline(__always)
    func withLock<R>(_ body: (inout Header, UnsafeMutablePointer<InstanceSlot.State>) throws -> R) rethrows -> R {
        try storage.withUnsafeMutablePointers { header, states in
            let mutex = Self.mutex(header)
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return try body(&header.pointee, states)
        }
    }
}
