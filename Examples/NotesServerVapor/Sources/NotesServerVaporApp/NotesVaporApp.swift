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
    /// requests in flight, then shuts the container down.
    ///
    /// - Throws: What resolving the server's settings throws, or a `ResolutionError` when the
    ///   manifest does not let a request's `RequestLog` be seeded.
    public static func makeApplication(container: Container) async throws -> Application {
        let logger = try await container.resolve(Logger.self)
        // Vapor reads its command line for its own commands; the notes server has none (its
        // context comes from the environment or `--wiring-context`), so Vapor sees only the
        // program's name and serves.
        let app = try await Application.make(Environment(name: "production", arguments: [CommandLine.arguments[0]]), logger: logger)
        do {
            try await configure(app, container: container)
        } catch {
            try await app.asyncShutdown()
            throw error
        }
        return app
    }

    static func configure(_ app: Application, container: Container) async throws {
        let settings = try await container.resolve(ServerSettings.self)
        app.http.server.configuration.hostname = settings.host
        app.http.server.configuration.port = settings.port
        app.http.server.configuration.serverName = "NotesServerVapor"
        try await Notes.checkSeeding(in: container, logger: app.logger)
        app.middleware.use(RequestCountingMiddleware(counter: try await container.resolve(RequestCounter.self)))
        app.wiring.use(container) { scope, req in
            try scope.seed(RequestLog(requestID: req.id, logger: req.logger))
        }
        Routes.add(to: app, container: container)
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
