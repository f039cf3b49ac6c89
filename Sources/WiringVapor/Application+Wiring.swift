#if Vapor
public import Vapor
public import Wiring

extension Application {
    /// The application's Wiring container: `app.wiring.use(container)` in `configure(_:)`.
    public var wiring: ContainerWiring { ContainerWiring(application: self) }

    /// Where an application keeps its container; reached as `app.wiring`.
    public struct ContainerWiring: Sendable {
        /// The application this belongs to.
        public let application: Application

        struct Key: StorageKey {
            typealias Value = any ContainerProvider
        }

        /// The container ``use(_:seed:)`` gave the application (for a
        /// ``Wiring/ReloadingContainer``, the one in force), or `nil` before it.
        public var container: Container? { application.storage[Key.self]?.container }

        /// Makes `container` the application's, in one line:
        /// - it starts when the application boots (its `eager` services are built before the
        ///   server listens; a failure stops the boot), and shuts down with the application:
        ///   the server first stops accepting and finishes the requests in flight, then the
        ///   container's instances shut down in reverse order of construction;
        /// - each request gets a scope of its own (``RequestScopeMiddleware``, added to the
        ///   application's middleware after those already there), seeded by `seed`, which
        ///   handlers reach as ``Vapor/Request/scope`` and ``Vapor/Request/resolve(_:name:)``.
        ///
        /// Call it once. The application must be made with `Application.make` and run with
        /// `execute()` (or booted with `asyncBoot()` and shut down with `asyncShutdown()`),
        /// as Vapor's asynchronous lifecycle handlers require.
        ///
        /// ```swift
        /// app.wiring.use(container) { scope, req in
        ///     try scope.seed(RequestLog(requestID: req.id, logger: req.logger))
        /// }
        /// ```
        ///
        /// In development, pass a ``Wiring/ReloadingContainer``: the application's container
        /// then follows the edits of its manifest. Each request gets a scope of the container in
        /// force when it arrives; requests in flight finish on the one they started on, which
        /// shuts down after them. The watch of the files starts when the application boots and
        /// stops when it shuts down.
        ///
        /// - Parameters:
        ///   - container: The container the application resolves from: a ``Wiring/Container``
        ///     or a ``Wiring/ReloadingContainer``.
        ///   - seed: Gives each request's scope what only the request knows (its id, its
        ///     logger, the authenticated user); a seed that throws fails the request.
        public func use(_ container: any ContainerProvider, seed: (@Sendable (ContainerScope, Request) throws -> Void)? = nil) {
            if let existing = application.storage[Key.self] {
                application.logger.warning("app.wiring.use was called again: the application keeps its first container",
                                           metadata: ["kept": "\(ObjectIdentifier(existing.container))"])
                return
            }
            application.storage[Key.self] = container
            application.lifecycle.use(ContainerLifecycle(container: container))
            application.middleware.use(RequestScopeMiddleware(container: container, seed: seed))
        }

    }
}
#endif
