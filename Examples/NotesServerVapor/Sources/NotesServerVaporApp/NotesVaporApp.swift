import Logging
import NotesCore
import Vapor
import Wiring
import WiringVapor

/// The notes server on Vapor: an application around a container from NotesCore's `config/`,
/// whose requests each get a Wiring scope, and which starts and shuts the container down with
/// itself (`app.wiring.use`).
public enum NotesVaporApp {
    /// The application for `container`, configured and not yet booted: `execute()` boots it
    /// (the container starts, the store opens) and serves; `asyncShutdown()` drains the
    /// requests in flight, then shuts the container down. In the `development` context
    /// `container` is a `ReloadingContainer`: each request gets a scope of the container in
    /// force, so that an edit of the manifests applies to the next request, without a restart.
    ///
    /// - Throws: What resolving the server's settings throws, or a `ResolutionError` when the
    ///   manifest does not let a request's `RequestLog` be seeded.
    public static func makeApplication(container: any ContainerProvider) async throws -> Application {
        try await makeApplication(first: container.container) { app in
            app.wiring.use(container, seed: seedRequestLog)
            // The container's snapshot, behind the admin token; answered without a request scope.
            app.grouped("admin").grouped(AdminTokenMiddleware(container: container))
                .serveSnapshot(of: container, at: "wiring", "snapshot")
        }
    }

    /// The application the `notes-server-vapor` executable serves, and its settings (whose
    /// file it watches): in the `development` context, over a ``Wiring/ReloadingContainer``.
    public static func launch(environment: [String: String]) async throws -> (app: Application, settings: NotesSettings) {
        if Notes.isDevelopment(environment: environment) {
            let (wiring, settings) = try await Notes.launchReloading(environment: environment)
            return (try await makeApplication(container: wiring), settings)
        }
        let (container, settings) = try await Notes.launchContainer(environment: environment)
        return (try await makeApplication(container: container), settings)
    }

    /// The application around `container` (the first, for a reloading one), its container
    /// given to it by `wire`.
    private static func makeApplication(first container: Container, wire: (Application) -> Void) async throws -> Application {
        let logger = try await container.resolve(Logger.self)
        // Vapor reads its command line for its own commands; the notes server has none (its
        // context comes from the environment or `--wiring-context`), so Vapor sees only the
        // program's name and serves.
        let app = try await Application.make(Environment(name: "production", arguments: [CommandLine.arguments[0]]), logger: logger)
        do {
            try await configure(app, container: container, wire: wire)
        } catch {
            try await app.asyncShutdown()
            throw error
        }
        return app
    }

    static func configure(_ app: Application, container: Container, wire: (Application) -> Void) async throws {
        let settings = try await container.resolve(ServerSettings.self)
        app.http.server.configuration.hostname = settings.host
        app.http.server.configuration.port = settings.port
        app.http.server.configuration.serverName = "NotesServerVapor"
        try await Notes.checkSeeding(in: container, logger: app.logger)
        app.middleware.use(RequestCountingMiddleware(counter: try await container.resolve(RequestCounter.self)))
        wire(app)
        Routes.add(to: app)
    }

    /// Seeds each request's scope with its ``RequestLog`` (the request id and Vapor's logger for it).
    @Sendable
    static func seedRequestLog(_ scope: ContainerScope, _ req: Request) throws {
        try scope.seed(RequestLog(requestID: req.id, logger: req.logger))
    }
}

/// Counts requests in the `RequestCounter` singleton, which logs the count at shutdown. The
/// singleton is resolved once, when the application is made.
struct RequestCountingMiddleware: AsyncMiddleware {
    let counter: RequestCounter

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        counter.increment()
        return try await next.respond(to: request)
    }
}
