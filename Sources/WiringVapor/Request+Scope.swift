#if Vapor
public import Vapor
public import Wiring

extension Request {
    /// The request's Wiring scope, which ``RequestScopeMiddleware`` makes.
    ///
    /// - Throws: `Abort(.internalServerError)` when the route runs outside the middleware: a
    ///   wiring mistake of the app, answered as a server error, not a crash.
    public var scope: ContainerScope {
        get throws { try heldScope.scope }
    }

    /// The scope as the middleware keeps it in the request's storage.
    var heldScope: RequestScope {
        get throws {
            guard let held = storage[RequestScope.Key.self] else { throw Self.noScope }
            return held
        }
    }

    /// Resolves `T` (with `name`, a named variant) in the request's scope, awaiting it if needed.
    ///
    /// ```swift
    /// app.get("notes") { req in try await req.resolve(NoteQueries.self).all() }
    /// ```
    ///
    /// - Throws: What ``scope`` throws, or what resolving throws.
    ///
    /// Inlinable, so that the resolve is specialized for `T` in the app's code: a request that
    /// resolves the notes server's queries through it took 8.76 µs generic, 8.58 µs resolving
    /// in the app's module (`NotesBenchmark --in-process`, Vapor's request included).
    @inlinable
    public func resolve<T>(_ type: T.Type = T.self, name: String? = nil) async throws -> T {
        try await scope.resolve(type, name: name)
    }

    static let noScope = Abort(.internalServerError, reason: "no request scope: the route runs outside RequestScopeMiddleware")
}

extension Response.Body {
    /// A streamed body that may read the request's services while it is written: the request's
    /// scope stays open until `write` returns and the stream's end has been written (or until
    /// writing fails), where it would otherwise end when the handler returns.
    ///
    /// ```swift
    /// app.get("notes", "export") { req in
    ///     let queries = try await req.resolve(NoteQueries.self)
    ///     return Response(body: try .init(scopedStream: req) { writer in
    ///         for note in try await queries.all() { try await writer.writeBuffer(…) }
    ///     })
    /// }
    /// ```
    ///
    /// Like Vapor's `managedAsyncStream`, the end of the stream is written for you. Vapor writes
    /// no body for a HEAD request (which it answers with the GET route) or a 204 or 304 status:
    /// the scope then ends when the handler returns. A body the server does not write because
    /// the client went away first leaves the scope's hooks unrun.
    ///
    /// - Parameters:
    ///   - request: The request whose scope the stream keeps open.
    ///   - count: The body's length in bytes, or `-1` (chunked) when it is not known.
    ///   - write: Writes the body's bytes.
    /// - Throws: What ``Vapor/Request/scope`` throws, outside ``RequestScopeMiddleware``.
    public init(
        scopedStream request: Request, count: Int = -1,
        _ write: @escaping @Sendable (any AsyncBodyStreamWriter) async throws -> Void
    ) throws {
        let ending = try request.heldScope.handToBody(logger: request.logger)
        self.init(asyncStream: { writer in
            do {
                try await write(writer)
                try await writer.write(.end)
            } catch {
                // Telling the writer may fail too (the client is gone): the body's own error
                // is what is thrown, and the scope ends either way.
                try? await writer.write(.error(error))
                await ending.end()
                throw error
            }
            await ending.end()
        }, count: count, byteBufferAllocator: request.byteBufferAllocator)
    }
}
#endif
