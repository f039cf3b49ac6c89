#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What Wiring keeps for each thread, behind one thread-local key: one lookup per use instead
/// of one per concern. Only its own thread touches it, so it needs no lock (nor run-time
/// exclusivity checks); it is freed when the thread ends.
final class ThreadState {
    /// This thread's stripe of a ``ReadMostly`` value: threads are numbered in the order they
    /// first use Wiring, so the first threads of a process each have a stripe of their own.
    let stripe: Int
    /// The lowest address of this thread's stack: 0 until read, 1 when it cannot be read.
    @exclusivity(unchecked) var stackLow: UInt = 0
    /// A resolution state to start the next top-level resolution from.
    @exclusivity(unchecked) var spare: ResolutionState?
    /// A frozen state to start the next top-level async resolution from.
    @exclusivity(unchecked) var frozenSpare: ResolutionState?
    /// The container running a factory on this thread (unretained: its caller holds it).
    @exclusivity(unchecked) var building: UnsafeMutableRawPointer?
    /// The resolution that factory runs in (unretained, like `building`).
    @exclusivity(unchecked) var buildingState: UnsafeMutableRawPointer?

    private init(stripe: Int) { self.stripe = stripe }

    /// Makes `container`, building in `state`, this thread's building container (both held
    /// unretained: the caller holds them); returns what was, for ``restoreBuilding(_:)``.
    @inline(__always)
    func startBuilding(
        _ container: Container, in state: ResolutionState
    ) -> (container: UnsafeMutableRawPointer?, state: UnsafeMutableRawPointer?) {
        let previous = (building, buildingState)
        Self.mark(previous.1, current: false)
        (building, buildingState) = (Unmanaged.passUnretained(container).toOpaque(), Unmanaged.passUnretained(state).toOpaque())
        Self.mark(buildingState, current: true)
        return previous
    }

    /// Puts back what ``startBuilding(_:in:)`` returned.
    @inline(__always)
    func restoreBuilding(_ previous: (container: UnsafeMutableRawPointer?, state: UnsafeMutableRawPointer?)) {
        Self.mark(buildingState, current: false)
        (building, buildingState) = previous
        Self.mark(buildingState, current: true)
    }

    /// Records on the state `pointer` points at (held by its caller) whether this thread builds
    /// in it now (``ResolutionState/isCurrentOnItsThread``); a frozen state records nothing.
    @inline(__always)
    private static func mark(_ pointer: UnsafeMutableRawPointer?, current: Bool) {
        guard let pointer else { return }
        Unmanaged<ResolutionState>.fromOpaque(pointer)._withUnsafeGuaranteedRef { state in
            if !state.isFrozen { state.isCurrentOnItsThread = current }
        }
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { state in
            #if canImport(Darwin)
            Unmanaged<ThreadState>.fromOpaque(state).release()
            #else
            if let state { Unmanaged<ThreadState>.fromOpaque(state).release() }
            #endif
        }
        return key
    }()

    private static let dealt = Locked(0)

    /// Runs `body` with this thread's state, created on first use, without retaining it.
    @inline(__always)
    static func withCurrent<R>(_ body: (ThreadState) throws -> R) rethrows -> R {
        try current._withUnsafeGuaranteedRef(body)
    }

    /// This thread's state, created on first use, not counted: only its own thread frees it.
    @inline(__always)
    static var current: Unmanaged<ThreadState> {
        Unmanaged.fromOpaque(pthread_getspecific(key) ?? create())
    }

    private static func create() -> UnsafeMutableRawPointer {
        let stripe = dealt.withLock { count in
            defer { count += 1 }
            return count
        }
        let pointer = Unmanaged.passRetained(ThreadState(stripe: stripe)).toOpaque()
        pthread_setspecific(key, pointer)
        return pointer
    }
}
