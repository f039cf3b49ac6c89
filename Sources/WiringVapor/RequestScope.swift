#if Vapor
internal import Logging
internal import Synchronization
internal import Vapor
internal import Wiring

/// A request's scope as the request's storage holds it, with whether a scoped stream took it
/// over (so that the middleware leaves ending it to the stream's last byte).
final class RequestScope: Sendable {
    struct Key: StorageKey {
        typealias Value = RequestScope
    }

    let scope: ContainerScope
    private let handedToBody = Atomic(false)

    init(_ scope: ContainerScope) {
        self.scope = scope
    }

    /// Whether a body made with `Response.Body(scopedStream:)` ends the scope.
    var isHandedToBody: Bool { handedToBody.load(ordering: .acquiring) }

    func handToBody() {
        handedToBody.store(true, ordering: .releasing)
    }

    /// Ends the scope (a second call does nothing), logging a hook's failure with `request`'s
    /// logger (read only then: reading it takes the request's lock).
    @inline(__always)
    func end(of request: Request) async {
        do {
            try await scope.end()
        } catch {
            request.logger.error("ending the request scope: \(error)")
        }
    }
}
#endif
