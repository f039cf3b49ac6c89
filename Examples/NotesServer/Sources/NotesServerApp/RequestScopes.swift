import Hummingbird
import NotesCore
import Wiring
import WiringHummingbird

/// The request context: Hummingbird's, plus the request's Wiring scope, which
/// `RequestScopeMiddleware` (from WiringHummingbird) makes, seeds and ends. An app with more
/// to carry conforms a context of its own to `WiringRequestContext`.
public typealias AppRequestContext = BasicWiringRequestContext

extension RequestScopeMiddleware<AppRequestContext> {
    /// Each request's scope, seeded with its ``RequestLog`` (the request id and Hummingbird's
    /// logger for it).
    static func seedingRequestLog(container: any ContainerProvider) -> Self {
        RequestScopeMiddleware(container: container, seed: seedRequestLog)
    }

    @Sendable
    private static func seedRequestLog(_ scope: ContainerScope, _: Request, _ context: AppRequestContext) throws {
        try scope.seed(RequestLog(requestID: context.id, logger: context.logger))
    }
}

// The API's JSON bodies, as Hummingbird answers them.
extension Note: @retroactive ResponseCodable {}
extension HealthReport: @retroactive ResponseCodable {}
