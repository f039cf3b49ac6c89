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
    /// The HTTP application for `container`; `onServerRunning` gets the port it listens on.
    public static func makeApplication(
        container: Container, onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) async throws -> some ApplicationProtocol {
        try await makeApplication(.fixed(container), onServerRunning: onServerRunning)
    }

    /// Runs the container and the server in one service group: `gracefulShutdownSignals`
    /// (SIGTERM and SIGINT from the command line) make the server drain its requests, then the
    /// container shut down, each instance in reverse order of construction.
    public static func run(
        container: Container, settingsFile: (any Service)? = nil, gracefulShutdownSignals: [UnixSignal] = [.sigterm, .sigint],
        onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) async throws {
        try await makeServiceGroup(.fixed(container), settingsFile: settingsFile, gracefulShutdownSignals: gracefulShutdownSignals,
                                   onServerRunning: onServerRunning).run()
    }

    /// ``run(container:settingsFile:gracefulShutdownSignals:onServerRunning:)`` for the
    /// `development` context: each request gets a scope of the container `reloading` has in
    /// force, so that an edit of the manifests applies to the next request, without a restart.
    public static func run(
        reloading: ReloadingContainer, settingsFile: (any Service)? = nil, gracefulShutdownSignals: [UnixSignal] = [.sigterm, .sigint],
        onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) async throws {
        try await makeServiceGroup(.reloading(reloading), settingsFile: settingsFile, gracefulShutdownSignals: gracefulShutdownSignals,
                                   onServerRunning: onServerRunning).run()
    }

    /// The service group ``run(container:settingsFile:gracefulShutdownSignals:onServerRunning:)``
    /// runs, with the container started: the settings file's watch first (it stops last), then
    /// the container, so that it shuts down after the server.
    public static func makeServiceGroup(
        container: Container, settingsFile: (any Service)? = nil, gracefulShutdownSignals: [UnixSignal] = [],
        onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) async throws -> ServiceGroup {
        try await makeServiceGroup(.fixed(container), settingsFile: settingsFile, gracefulShutdownSignals: gracefulShutdownSignals,
                                   onServerRunning: onServerRunning)
    }

    /// ``makeServiceGroup(container:settingsFile:gracefulShutdownSignals:onServerRunning:)``
    /// with a container that follows its manifests' edits.
    public static func makeServiceGroup(
        reloading: ReloadingContainer, settingsFile: (any Service)? = nil, gracefulShutdownSignals: [UnixSignal] = [],
        onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) async throws -> ServiceGroup {
        try await makeServiceGroup(.reloading(reloading), settingsFile: settingsFile, gracefulShutdownSignals: gracefulShutdownSignals,
                                   onServerRunning: onServerRunning)
    }

    /// The container a server runs on: one, or one that follows its manifests' edits.
    enum Wired: Sendable {
        case fixed(Container)
        case reloading(ReloadingContainer)

        /// The container in force.
        var container: Container {
            switch self {
            case .fixed(let container): container
            case .reloading(let reloading): reloading.container
            }
        }

        func start() async throws {
            switch self {
            case .fixed(let container): try await container.start()
            case .reloading(let reloading): try await reloading.start()
            }
        }

        var service: ContainerService {
            switch self {
            case .fixed(let container): ContainerService(container)
            case .reloading(let reloading): ContainerService(reloading)
            }
        }

        /// Each request's scope, seeded with its ``RequestLog``.
        var scopes: RequestScopeMiddleware<AppRequestContext> {
            switch self {
            case .fixed(let container): .seedingRequestLog(container: container)
            case .reloading(let reloading): .seedingRequestLog(reloading: reloading)
            }
        }
    }

    static func makeApplication(
        _ wired: Wired, onServerRunning: @escaping @Sendable (Int) async -> Void
    ) async throws -> some ApplicationProtocol {
        // What the server keeps for its life is the first container's: a reload of the
        // manifests applies to the requests' services.
        let container = wired.container
        let settings = try await container.resolve(ServerSettings.self)
        let logger = try await container.resolve(Logger.self)
        let router = Router(context: AppRequestContext.self)
        router.add(middleware: RequestCountingMiddleware(counter: try await container.resolve(RequestCounter.self)))
        try await Notes.checkSeeding(in: container, logger: logger)
        router.add(middleware: wired.scopes)
        Routes.add(to: router)
        return Application(
            router: router,
            configuration: .init(address: .hostname(settings.host, port: settings.port), serverName: "NotesServer"),
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? settings.port) },
            logger: logger)
    }

    static func makeServiceGroup(
        _ wired: Wired, settingsFile: (any Service)?, gracefulShutdownSignals: [UnixSignal],
        onServerRunning: @escaping @Sendable (Int) async -> Void
    ) async throws -> ServiceGroup {
        // Eager services (the store, the log level) are ready before the server listens.
        try await wired.start()
        let logger = try await wired.container.resolve(Logger.self)
        let app = try await makeApplication(wired, onServerRunning: onServerRunning)
        return ServiceGroup(services: [settingsFile].compactMap { $0 } + [wired.service, app],
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
