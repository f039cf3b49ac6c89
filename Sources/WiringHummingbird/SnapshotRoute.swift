#if Hummingbird
public import Hummingbird
public import Wiring

extension RouterMethods {
    /// Answers a `GET` of `path`, under this router or group, with the container's
    /// ``Wiring/ContainerSnapshot`` as JSON: its services, what is kept, the configuration keys
    /// it reads (never their values), the last refresh and reload, failures by kind and type
    /// (never an error's text).
    ///
    /// The snapshot tells how the app is wired: mount it in a group behind the app's own
    /// authentication, at the path the app chooses.
    ///
    /// ```swift
    /// let admin = router.group("admin").add(middleware: AdminTokenMiddleware())
    /// admin.serveSnapshot(of: container, at: "wiring/snapshot")   // GET /admin/wiring/snapshot
    /// router.add(middleware: RequestScopeMiddleware(container: container))
    /// Routes.add(to: router)
    /// ```
    ///
    /// The response says `Cache-Control: no-store`. Each segment of `path` is matched
    /// literally: `:id`, `{id}` or `*` is that text, not a parameter or a wildcard. The route
    /// needs no request scope: mount it where ``RequestScopeMiddleware`` does not apply (in
    /// Hummingbird a middleware applies to the routes added after it, in its router or group),
    /// so that no scope is opened and no `seed` is run for it.
    ///
    /// - Parameters:
    ///   - container: The container whose snapshot is served: a ``Wiring/Container``, or a
    ///     ``Wiring/ReloadingContainer`` for the one in force.
    ///   - path: Where, under this router or group: `"wiring/snapshot"`.
    @discardableResult
    public func serveSnapshot(of container: any ContainerProvider, at path: String) -> Self {
        var literals: [SnapshotResponder<Context>.Literal] = []
        let segments = path.split(separator: "/").map { segment -> String in
            // Hummingbird reads some segments as patterns: such a segment becomes a capture
            // the responder compares with the text.
            if RouterPath(String(segment)).first.map({ $0 == segment }) == true { return String(segment) }
            let parameter = "wiring_literal_\(literals.count)"
            literals.append(.init(parameter: parameter, text: String(segment)))
            return "{\(parameter)}"
        }
        return on(RouterPath(segments.joined(separator: "/")), method: .get,
                  responder: SnapshotResponder<Context>(source: container, literals: literals))
    }
}

/// What ``Hummingbird/RouterMethods/serveSnapshot(of:at:)`` mounts.
struct SnapshotResponder<Context: RequestContext>: HTTPResponder {
    /// A segment of the path that Hummingbird would read as a pattern, captured as `parameter`.
    struct Literal {
        let parameter: String
        let text: String
    }

    let source: any ContainerProvider
    let literals: [Literal]

    func respond(to request: Request, context: Context) throws -> Response {
        for literal in literals where context.parameters.get(literal.parameter) != literal.text {
            throw HTTPError(.notFound)
        }
        return Response(status: .ok,
                        headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
                        body: ResponseBody(byteBuffer: ByteBuffer(bytes: try source.snapshot().json())))
    }
}
#endif
