#if Vapor
internal import Logging
internal import Vapor
internal import Wiring

/// A request's scope as the request's storage holds it, with what ends it once a scoped stream
/// took it over (so that the middleware leaves ending it to the stream's last byte).
final class RequestScope: Sendable {
    struct Key: StorageKey {
        typealias Value = RequestScope
    }

    let scope: ContainerScope
    /// Set when a body made with `Response.Body(scopedStream:)` took the scope over: it ends the
    /// scope once, when the stream ends, or when the stream is dropped unwritten (a later
    /// middleware replaced the response) and the request with it.
    private let ending = Locked<ScopeEnding?>(nil)

    init(_ scope: ContainerScope) {
        self.scope = scope
    }

    /// Whether a body made with `Response.Body(scopedStream:)` ends the scope.
    var isHandedToBody: Bool { ending.withLock { $0 != nil } }

    /// Hands the scope to a scoped stream; what ends it, once.
    func handToBody(logger: Logger) -> ScopeEnding {
        ending.withLock { ending in
            if let ending { return ending }
            let made = ScopeEnding(scope, logger: logger)
            ending = made
            return made
        }
    }

    /// Ends the scope (a second call does nothing), logging a hook's failure with `request`'s
    /// logger (read only then: reading it takes the request's lock).
    @inline(__always)
    func end(of request: Request) async {
        if let handed = ending.withLock({ $0 }) {
            await handed.end()
            return
        }
        do {
            try await scope.end()
        } catch {
            request.logger.error("ending the request scope: \(error)")
        }
    }
}
#endif
