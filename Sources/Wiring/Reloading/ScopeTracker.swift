/// Counts the open scopes of one container of a ``ReloadingContainer``: once a reload retired
/// the container, the end of its last scope shuts it down.
final class ScopeTracker: Sendable {
    private struct State {
        var open = 0
        /// Set when a reload replaced the container: called once no scope is open.
        var onIdle: (@Sendable () -> Void)?
    }

    private let state = Locked(State())

    func opened() {
        state.withLock { $0.open += 1 }
    }

    func closed() {
        let idle: (@Sendable () -> Void)? = state.withLock { state in
            state.open -= 1
            guard state.open == 0 else { return nil }
            return state.onIdle.take()
        }
        idle?()
    }

    /// Calls `onIdle` once no scope is open: now, if none is.
    func retire(onIdle: @escaping @Sendable () -> Void) {
        let now: Bool = state.withLock { state in
            if state.open == 0 { return true }
            state.onIdle = onIdle
            return false
        }
        if now { onIdle() }
    }
}
