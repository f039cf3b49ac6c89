#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value behind a `pthread_mutex_t`.
///
/// Wiring uses this rather than `Synchronization.Mutex` because ThreadSanitizer understands
/// pthread mutexes: on Linux it reports false races inside `Mutex.withLock` (reproduced with a
/// six-line program), which would make TSan runs of Wiring and of apps using it useless.
///
/// The value and the mutex share one allocation (a `ManagedBuffer` whose header is the value
/// and whose one element is the mutex): a container has one per kept service.
package struct Locked<Value>: @unchecked Sendable {
    private final class Storage: ManagedBuffer<Value, pthread_mutex_t> {
        deinit {
            _ = withUnsafeMutablePointerToElements { pthread_mutex_destroy($0) }
        }
    }

    private let storage: Storage

    package init(_ value: Value) {
        let buffer = Storage.create(minimumCapacity: 1) { buffer in
            buffer.withUnsafeMutablePointerToElements { mutex in
                mutex.initialize(to: pthread_mutex_t())
                pthread_mutex_init(mutex, nil)
            }
            return value
        }
        storage = unsafeDowncast(buffer, to: Storage.self)
    }

    /// Runs `body` with the value while holding the lock.
    @inline(__always)
    package func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        try storage.withUnsafeMutablePointers { value, mutex in
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return try body(&value.pointee)
        }
    }
}
