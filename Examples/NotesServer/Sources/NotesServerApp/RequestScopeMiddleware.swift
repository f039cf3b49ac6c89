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
///   own work for a request (1.4 µs back to back, 2.5 µs with cold caches;
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
                response.body = try await Self.gather(response.body)
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

    /// `body` produced in full: one buffer, or (when it ends with trailing headers) a body that
    /// writes the buffer and the headers.
    private static func gather(_ body: ResponseBody) async throws -> ResponseBody {
        let gathered = GatheredBody()
        try await body.write(GatheringWriter(into: gathered))
        let (buffer, trailers) = gathered.contents
        guard let trailers else { return ResponseBody(byteBuffer: buffer) }
        return ResponseBody(contentLength: buffer.readableBytes) { writer in
            try await writer.write(buffer)
            try await writer.finish(trailers)
        }
    }

    private static func end(_ scope: ContainerScope, logger: Logger) async {
        do {
            try await scope.end()
        } catch {
            logger.error("ending the request scope: \(error)")
        }
    }
}

/// What a ``GatheringWriter`` was given: it is consumed by the body it writes, so the bytes
/// are kept here.
private final class GatheredBody: @unchecked Sendable {
    // Written by one body's write, then read after it returned: never at the same time.
    var buffer = ByteBuffer()
    var trailers: HTTPFields?

    var contents: (ByteBuffer, HTTPFields?) { (buffer, trailers) }
}

/// A response body writer that keeps the bytes in memory.
private struct GatheringWriter: ResponseBodyWriter {
    let gathered: GatheredBody

    init(into gathered: GatheredBody) { self.gathered = gathered }

    mutating func write(_ buffer: ByteBuffer) async throws {
        if gathered.buffer.readableBytes == 0 {
            gathered.buffer = buffer
        } else {
            var buffer = buffer
            gathered.buffer.writeBuffer(&buffer)
        }
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {
        gathered.trailers = trailingHeaders
    }
}
