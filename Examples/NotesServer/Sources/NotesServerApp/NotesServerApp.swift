import Foundation
import Hummingbird
import Logging
import NotesCore
import ServiceLifecycle
import UnixSignals
import Wiring
import WiringHummingbird
import WiringServiceLifecycle

/// The notes server: a container from NotesCore's `config/`, a Hummingbird router whose requests each get
/// a Wiring scope, and a service group that drains requests before the container shuts down.
public enum NotesServerApp {
    /// Runs the container and the server in one service group: `gracefulShutdownSignals`
    /// (SIGTERM and SIGINT from the command line) make the server drain its requests, then the
    /// container shut down, each instance in reverse order of construction. In the
    /// `development` context `container` is a `ReloadingContainer`: each request gets a scope of
    /// the container in force, so that an edit of the manifests applies to the next request,
    /// without a restart. `telemetry` (``NotesTelemetry/exporter``) runs first and stops last.
    public static func run(
        container: any ContainerProvider, telemetry: (any Service)? = nil, settingsFile: (any Service)? = nil,
        gracefulShutdownSignals: [UnixSignal] = [.sigterm, .sigint],
        onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) async throws {
        try await makeServiceGroup(container: container, telemetry: telemetry, settingsFile: settingsFile,
                                   gracefulShutdownSignals: gracefulShutdownSignals, onServerRunning: onServerRunning).run()
    }

    /// The HTTP application for `container`; `onServerRunning` gets the port it listens on.
    public static func makeApplication(
        container: any ContainerProvider, onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) async throws -> some ApplicationProtocol {
        // What the server keeps for its life is the first container's: a reload of the
        // manifests applies to the requests' services.
        let first = container.container
        let settings = try await first.resolve(ServerSettings.self)
        let logger = try await first.resolve(Logger.self)
        let router = Router(context: AppRequestContext.self)
        router.add(middleware: RequestCountingMiddleware(counter: try await first.resolve(RequestCounter.self)))
        try await Notes.checkSeeding(in: first, logger: logger)
        // The container's snapshot, behind the admin token; mounted before the request scopes'
        // middleware, which applies to the routes added after it: the snapshot needs no scope.
        router.group("admin").add(middleware: AdminTokenMiddleware(container: container))
            .serveSnapshot(of: container, at: "wiring/snapshot")
        router.add(middleware: RequestScopeMiddleware.seedingRequestLog(container: container))
        Routes.add(to: router)
        return Application(
            router: router,
            configuration: .init(address: .hostname(settings.host, port: settings.port), serverName: "NotesServer"),
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? settings.port) },
            logger: logger)
    }

    /// The service group ``run(container:telemetry:settingsFile:gracefulShutdownSignals:onServerRunning:)``
    /// runs, with the container started: the telemetry's exporter first (it stops last, and
    /// exports the shutdown's spans), the settings file's watch, then the container, so that it
    /// shuts down after the server.
    public static func makeServiceGroup(
        container: any ContainerProvider, telemetry: (any Service)? = nil, settingsFile: (any Service)? = nil,
        gracefulShutdownSignals: [UnixSignal] = [],
        onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) async throws -> ServiceGroup {
        // Eager services (the store, the log level) are ready before the server listens.
        try await container.start()
        let logger = try await container.container.resolve(Logger.self)
        if let report = container.container.startupReport { logger.debug("\(report)") }
        let app = try await makeApplication(container: container, onServerRunning: onServerRunning)
        return ServiceGroup(services: [telemetry, settingsFile].compactMap { $0 } + [ContainerService(container), app],
                            gracefulShutdownSignals: gracefulShutdownSignals, logger: logger)
    }
}

/// Counts requests in the `RequestCounter` singleton, which logs the count at shutdown. The
/// singleton is resolved once, when the application is made: a request pays for the count, not
/// for a resolve.
struct RequestCountingMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let counter: RequestCounter

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        counter.increment()
        return try await next(request, context)
    }
}
