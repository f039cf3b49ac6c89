import Hummingbird
import Logging
import Wiring
import WiringHummingbird

/// The request context: Hummingbird's, plus the request's Wiring scope, which
/// `RequestScopeMiddleware` (from WiringHummingbird) makes, seeds and ends. An app with more
/// to carry conforms a context of its own to `WiringRequestContext`.
public typealias AppRequestContext = BasicWiringRequestContext

extension RequestScopeMiddleware<AppRequestContext> {
    /// Each request's scope, seeded with its ``RequestLog`` (the request id and Hummingbird's
    /// logger for it).
    static func seedingRequestLog(container: Container) -> Self {
        RequestScopeMiddleware(container: container) { scope, _, context in
            try scope.seed(RequestLog(requestID: context.id, logger: context.logger))
        }
    }

    /// Checks once, when the server starts, that `container` lets each request's
    /// ``RequestLog`` be seeded: a manifest where it is not `scoped` fails start-up, not every
    /// request.
    static func checkSeeding(in container: Container, logger: Logger) async throws {
        let scope = container.makeScope()
        try scope.seed(RequestLog(requestID: "start-up", logger: logger))
        try await scope.end()
    }
}
