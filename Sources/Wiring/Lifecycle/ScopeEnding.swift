import Synchronization
package import Logging

/// Ends a request's scope exactly once, on every path: when the response's body was written
/// (or failed), when the handler threw, or, when neither happened because the response was
/// dropped unwritten (the client went away before its head was written, a later middleware
/// replaced it), when the last reference to this goes. WiringHummingbird's and WiringVapor's
/// middleware hold one per request; the response body's writer holds it too.
package final class ScopeEnding: Sendable {
    package let scope: ContainerScope
    private let ended = Atomic(false)
    private let logger: Logger?

    package init(_ scope: ContainerScope, logger: Logger?) {
        self.scope = scope
        self.logger = logger
    }

    /// Ends the scope, unless it was ended already; a hook that fails is logged.
    package func end() async {
        guard !ended.exchange(true, ordering: .acquiringAndReleasing) else { return }
        do {
            try await scope.end()
        } catch {
            logger?.error("ending the request scope: \(error)")
        }
    }

    /// Dropped with the scope not ended: ends it here, where nothing can await. Hooks that are
    /// all synchronous (a request's usually are) run now; others run in a task of their own,
    /// each within its timeout, since no caller is left to wait for them.
    deinit {
        guard !ended.load(ordering: .acquiring) else { return }
        let logger = logger
        do {
            guard let pending = try scope.endWithoutAwaiting() else { return }
            Task {
                do {
                    try await pending.run()
                } catch {
                    logger?.error("ending a request scope whose response was dropped: \(error)")
                }
            }
        } catch {
            logger?.error("ending a request scope whose response was dropped: \(error)")
        }
    }
}
