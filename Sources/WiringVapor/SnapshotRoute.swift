#if Vapor
public import Vapor
public import Wiring

extension RoutesBuilder {
    /// Answers a `GET` of `path`, under this builder, with the container's
    /// ``Wiring/ContainerSnapshot`` as JSON: its services, what is kept, the configuration keys
    /// it reads (never their values), the last refresh and reload, failures by kind and type
    /// (never an error's text).
    ///
    /// The snapshot tells how the app is wired: mount it in a group behind the app's own
    /// authentication, at the path the app chooses.
    ///
    /// ```swift
    /// let admin = app.grouped("admin").grouped(AdminTokenMiddleware())
    /// admin.serveSnapshot(of: container, at: "wiring", "snapshot")   // GET /admin/wiring/snapshot
    /// ```
    ///
    /// The response says `Cache-Control: no-store`. Each segment of `path` is matched
    /// literally (`:id` or `*` is that text, not a parameter or a wildcard); a segment may hold
    /// several, separated by `/`. No request scope is opened and no `seed` is run for it, even
    /// under the application-wide ``RequestScopeMiddleware`` that `app.wiring.use` adds.
    ///
    /// - Parameters:
    ///   - container: The container whose snapshot is served: a ``Wiring/Container``, or a
    ///     ``Wiring/ReloadingContainer`` for the one in force.
    ///   - path: Where, under this builder: `"wiring", "snapshot"` or `"wiring/snapshot"`.
    /// - Returns: The route.
    @discardableResult
    public func serveSnapshot(of container: any ContainerProvider, at path: String...) -> Route {
        let components = path.flatMap { $0.split(separator: "/") }.map { PathComponent.constant(String($0)) }
        let route = on(.GET, components) { _ in
            Response(status: .ok, headers: ["Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store"],
                     body: .init(data: try container.snapshot().json()))
        }
        route.userInfo[RequestScopeMiddleware.unscoped] = true
        return route
    }
}
#endif
