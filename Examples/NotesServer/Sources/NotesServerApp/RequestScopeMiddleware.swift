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

/// Makes a Wiring scope for each request and ends it once the response body has been
/// produced in full (or when the handler fails), so that the request's `scoped` instances shut
/// down then, in reverse order:
/// - a body of known length up to ``gatheredBodyLimit`` (every JSON answer of this API) is
///   gathered while the scope is open, the scope ends, and the gathered bytes go out as one
///   buffer, which Hummingbird writes with the head in a single batch;
/// - any other body (streamed, or longer) is wrapped so that the scope ends after its last
///   byte has been written. The wrapped body is written in three parts instead of one batch:
///   on the notes server that costs about 10 µs of CPU per request, more than the container's
///   own work for a request (0.7 µs back to back, 1.3 µs with cold caches;
///   `NotesServerBenchmark --in-process`).
struct RequestScopeMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let container: Container

    /// The longest body gathered in memory before the scope ends.
    static let gatheredBodyLimit = 64 * 1024

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let scope = container.makeScope()
        var context = context
        context.scope = scope
        let logger = context.logger
        var response: Response
        do {
            response = try await CurrentRequest.$info.withValue((context.id, logger)) {
                try await next(request, context)
            }
            if let length = response.body.contentLength, length <= Self.gatheredBodyLimit {
                response.body = try await response.body.gathered()
                await Self.end(scope, logger: logger)
                return response
            }
        } catch {
            await Self.end(scope, logger: logger)
            throw error
        }
        let body = response.body
        response.body = ResponseBody(contentLength: body.contentLength) { writer in
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

    private static func end(_ scope: ContainerScope, logger: Logger) async {
        do {
            try await scope.end()
        } catch {
            logger.error("ending the request scope: \(error)")
        }
    }
}
