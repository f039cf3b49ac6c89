#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The container running a factory on this thread, if any: factories run synchronously on the
/// resolving thread, so a thread-local pointer says which container the property wrappers of
/// the instance being built must use. Cheaper than binding a task-local for every build.
enum BuildingContainer {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// The container building on this thread (unretained: its caller holds it during the build).
    static var current: Container? {
        guard let pointer = pthread_getspecific(key) else { return nil }
        return Unmanaged<Container>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// Runs `body` with `container` as the building container of this thread.
    static func with<R>(_ container: Container, _ body: () throws -> R) rethrows -> R {
        let previous = pthread_getspecific(key)
        let pointer = Unmanaged.passUnretained(container).toOpaque()
        if previous == UnsafeMutableRawPointer(pointer) { return try body() }
        pthread_setspecific(key, pointer)
        defer { pthread_setspecific(key, previous) }
        return try body()
    }
}
