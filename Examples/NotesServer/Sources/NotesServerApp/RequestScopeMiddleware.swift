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

/// Makes a Wiring scope for each request and ends it once the response has been written (or
/// when the handler fails), so that the request's `scoped` instances shut down then, in
/// reverse order.
struct RequestScopeMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let container: Container

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let scope = container.makeScope()
        var context = context
        context.scope = scope
        let response: Response
        do {
            response = try await CurrentRequest.$info.withValue((context.id, context.logger)) {
                try await next(request, context)
            }
        } catch {
            await Self.end(scope, logger: context.logger)
            throw error
        }
        // The body is written after this returns: end the scope when it has been.
        var ended = response
        let body = response.body
        let logger = context.logger
        ended.body = ResponseBody(contentLength: body.contentLength) { writer in
            do {
                try await body.write(writer)
            } catch {
                await Self.end(scope, logger: logger)
                throw error
            }
            await Self.end(scope, logger: logger)
        }
        return ended
    }

    private static func end(_ scope: ContainerScope, logger: Logger) async {
        do {
            try await scope.end()
        } catch {
            logger.error("ending the request scope: \(error)")
        }
    }
}
