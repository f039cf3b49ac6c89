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
///
/// With a `snapshotPath`, a `GET` of that path answers with the container's
/// ``Wiring/ContainerSnapshot`` as JSON, without a scope: its services, what is kept, the
/// configuration keys it reads (never their values), the last refresh and reload. Mount it in
/// development, or behind the app's own authentication: it tells how the app is wired.
public struct RequestScopeMiddleware: AsyncMiddleware {
    private let source: any ContainerProvider
    private let seed: (@Sendable (ContainerScope, Request) throws -> Void)?
    /// Where the snapshot is served, if it is.
    private let snapshotPath: String?

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
    ///   - snapshotPath: A path (`/_wiring/snapshot`) where a `GET` answers with the container's
    ///     snapshot as JSON; `nil`, the default, serves none. Mount it only in development or
    ///     behind the app's own authentication.
    ///   - seed: Gives each new scope what only the request knows, with
    ///     ``Wiring/ContainerScope/seed(_:as:name:)``; a seed that throws fails the request
    ///     and ends the scope.
    public init(container: any ContainerProvider, snapshotPath: String? = nil,
                seed: (@Sendable (ContainerScope, Request) throws -> Void)? = nil) {
        source = container
        self.snapshotPath = snapshotPath
        self.seed = seed
    }

    /// The middleware of ``init(container:snapshotPath:seed:)``, which takes a reloading container too.
    @available(*, deprecated, renamed: "init(container:snapshotPath:seed:)", message: "pass the reloading container as `container:`")
    public init(reloading: ReloadingContainer, seed: (@Sendable (ContainerScope, Request) throws -> Void)? = nil) {
        self.init(container: reloading, seed: seed)
    }

    /// Runs `next` with the request's scope in the request's storage, and ends the scope as
    /// the type's documentation says; answers a `GET` of the snapshot path itself.
    public func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        if let snapshotPath, request.method == .GET, request.url.path == snapshotPath {
            let json = try source.snapshot().json()
            return Response(status: .ok, headers: ["Content-Type": "application/json; charset=utf-8"], body: .init(data: json))
        }
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
