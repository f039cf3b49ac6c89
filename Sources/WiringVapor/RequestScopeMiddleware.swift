#if Vapor
internal import Logging
public import Vapor
public import Wiring

/// Gives each request a Wiring scope, seeded with what the request knows, and ends it when the
/// response has been produced, when the handler fails, or, for a body made with
/// ``Vapor/Response/Body/init(scopedStream:count:_:)``, after its last byte.
///
/// `app.wiring.use(container)` adds one to the application's middleware; add one yourself to
/// a route group instead when only some routes need a scope:
///
/// ```swift
/// let api = app.grouped(RequestScopeMiddleware(container: container))
/// ```
///
/// When the scope ends:
/// - a body of known length, or a stream made with Vapor's own initializers, when the handler
///   returns: before the response is written. A stream that reads the request's services while
///   it is written must be made with ``Vapor/Response/Body/init(scopedStream:count:_:)``;
/// - such a scoped stream, after its last byte has been written, or when writing it fails; when
///   Vapor writes no body (a HEAD request, a 204 or 304 status), when the handler returns.
///
/// A failure to end the scope (a shutdown hook that throws) is logged with the request's
/// logger; the response is already on its way.
public struct RequestScopeMiddleware: AsyncMiddleware {
    private let source: any ContainerProvider
    private let seed: (@Sendable (ContainerScope, Request) throws -> Void)?

    /// The key of a route's `userInfo` that marks a route answered without a scope: the
    /// snapshot's (``Vapor/RoutesBuilder/serveSnapshot(of:at:)``).
    static let unscoped = "wiring.unscoped"

    /// The container whose scopes the requests get: for a ``Wiring/ReloadingContainer``, the one
    /// in force.
    public var container: Container { source.container }

    /// A middleware that gives each request a scope of `container`, seeded by `seed`; for a
    /// ``Wiring/ReloadingContainer``, of the container it has in force when the request
    /// arrives: after an edit of the manifest, new requests get the new container while those
    /// in flight finish on the old one.
    ///
    /// - Parameters:
    ///   - container: The container the scopes are made from: a ``Wiring/Container`` or a
    ///     ``Wiring/ReloadingContainer``.
    ///   - seed: Gives each new scope what only the request knows, with
    ///     ``Wiring/ContainerScope/seed(_:as:name:)``; a seed that throws fails the request
    ///     and ends the scope.
    public init(container: any ContainerProvider, seed: (@Sendable (ContainerScope, Request) throws -> Void)? = nil) {
        source = container
        self.seed = seed
    }


    /// Runs `next` with the request's scope in the request's storage, and ends the scope as
    /// the type's documentation says.
    public func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        if request.route?.userInfo[Self.unscoped] != nil { return try await next.respond(to: request) }
        let scope = RequestScope(source.makeScope())
        request.storage[RequestScope.Key.self] = scope
        let response: Response
        do {
            try seed?(scope.scope, request)
            response = try await next.respond(to: request)
        } catch {
            await scope.end(of: request)
            throw error
        }
        if !scope.isHandedToBody || Self.bodyIsNeverWritten(for: request, response) {
            await scope.end(of: request)
        }
        return response
    }

    /// Whether Vapor answers without writing the body, so that a scoped stream never runs: a
    /// HEAD request (which Vapor answers with its GET route), a 1xx, 204 or 304 status.
    static func bodyIsNeverWritten(for request: Request, _ response: Response) -> Bool {
        request.method == .HEAD || response.status.code < 200 || response.status == .noContent || response.status == .notModified
    }
}
#endif
