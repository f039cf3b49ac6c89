#if Hummingbird
public import Hummingbird
public import Wiring
internal import Logging

/// Makes a Wiring scope for each request, lets you seed it with what the request knows (its
/// id, its logger, the authenticated user), puts it in the request context, and ends it once
/// the response has been produced in full, or when the handler fails: the request's `scoped`
/// instances then shut down, in reverse order.
///
/// ```swift
/// let router = Router(context: BasicWiringRequestContext.self)
/// router.add(middleware: RequestScopeMiddleware(container: container) { scope, _, context in
///     try scope.seed(RequestLog(requestID: context.id, logger: context.logger))
/// })
/// router.get("/notes") { _, context in try await context.resolve(NoteQueries.self).all() }
/// ```
///
/// When the scope ends:
/// - a body of known length is produced when the handler returns (Hummingbird encodes a value,
///   a buffer or a string into one buffer then): the scope ends before the response is written,
///   and Hummingbird writes the head and the buffer in one batch. A body that reads the
///   request's services while it is written must be streamed;
/// - a streamed body (a `ResponseBody` without a length) is wrapped, so that the scope ends
///   after its last byte has been written, or when writing it fails.
///
/// A failure to end the scope (a shutdown hook that throws) is logged with the request's
/// logger; the response is already on its way.
///
/// The container's snapshot is a route of its own, which the app mounts behind its
/// authentication: ``Hummingbird/RouterMethods/serveSnapshot(of:at:)``.
public struct RequestScopeMiddleware<Context: WiringRequestContext>: RouterMiddleware {
    /// Where the requests' scopes come from.
    private let source: any ContainerProvider
    private let seed: (@Sendable (ContainerScope, Request, Context) throws -> Void)?

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
    ///     (its error is the handler's) and ends the scope.
    public init(container: any ContainerProvider, seed: (@Sendable (ContainerScope, Request, Context) throws -> Void)? = nil) {
        source = container
        self.seed = seed
    }


    /// Runs `next` with the request's scope in its context, and ends the scope as the type's
    /// documentation says.
    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let scope = source.makeScope()
        let logger = context.logger
        var context = context
        context.scope = scope
        var response: Response
        do {
            try seed?(scope, request, context)
            response = try await next(request, context)
        } catch {
            await Self.end(scope, logger: logger)
            throw error
        }
        guard response.body.contentLength == nil else {
            await Self.end(scope, logger: logger)
            return response
        }
        // A streamed body: the scope ends when it was written, or, when Hummingbird drops the
        // response unwritten (the client went away before its head was sent), with the body.
        let body = response.body
        let ending = ScopeEnding(scope, logger: logger)
        response.body = ResponseBody { writer in
            do {
                try await body.write(writer)
            } catch {
                await ending.end()
                throw error
            }
            await ending.end()
        }
        return response
    }

    /// Inlined: an async call of its own took a task allocation and three more functions'
    /// code per request, when a request's hooks are synchronous and nothing is awaited.
    @inline(__always)
    private static func end(_ scope: ContainerScope, logger: Logger) async {
        do {
            try await scope.end()
        } catch {
            logger.error("ending the request scope: \(error)")
        }
    }
}
#endif
