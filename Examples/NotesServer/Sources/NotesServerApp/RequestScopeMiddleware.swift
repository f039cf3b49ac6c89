import Hummingbird
import Logging
import Wiring

/// The request context: Hummingbird's, plus the request's Wiring scope.
public struct AppRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The request's scope, made by ``RequestScopeMiddleware``.
    public var scope: ContainerScope?

    public init(source: Source) {
        coreContext = .init(source: source)
        scope = nil
    }

    /// The request's scope; a route outside the middleware has none, which is a bug.
    func requestScope() throws -> ContainerScope {
        guard let scope else { throw HTTPError(.internalServerError, message: "no request scope") }
        return scope
    }
}

/// Makes a Wiring scope for each request, seeds it with the request's ``RequestLog`` (the
/// request id and Hummingbird's logger for it), and ends it once the response has been
/// produced in full (or when the handler fails), so that the request's `scoped` instances shut
/// down then, in reverse order:
/// - a body of known length is taken as produced when the handler returns: Hummingbird
///   encodes a value (every JSON answer of this API), a buffer or a string into one buffer
///   then. The scope ends, and Hummingbird writes the buffer with the head in a single batch.
///   A route whose body reads the request's services while it is written must stream it
///   (a `ResponseBody` without a length); if it does not, what it reads has ended and says so
///   (``UnitOfWork`` throws ``UnitOfWorkEnded``);
/// - a streamed body is wrapped so that the scope ends after its last byte has been written.
struct RequestScopeMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let container: Container

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let scope = container.makeScope()
        let logger = context.logger
        var context = context
        context.scope = scope
        var response: Response
        do {
            try scope.seed(RequestLog(requestID: context.id, logger: logger))
            response = try await next(request, context)
        } catch {
            await Self.end(scope, logger: logger)
            throw error
        }
        guard response.body.contentLength == nil else {
            await Self.end(scope, logger: logger)
            return response
        }
        let body = response.body
        response.body = ResponseBody { writer in
            do {
                try await body.write(writer)
            } catch {
                await Self.end(scope, logger: logger)
                throw error
            }
            await Self.end(scope, logger: logger)
        }
        return response
    }

    /// Checks once, when the server starts, that `container` lets the middleware seed each
    /// request's ``RequestLog``: a manifest where it is not `scoped` fails start-up, not every
    /// request.
    static func checkSeeding(in container: Container, logger: Logger) async throws {
        let scope = container.makeScope()
        try scope.seed(RequestLog(requestID: "start-up", logger: logger))
        try await scope.end()
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
