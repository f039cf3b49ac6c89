import Configuration
import Foundation
import Logging
import Wiring
import WiringConfiguration

/// How a notes server makes its container: from the manifests in `config/`, with the contexts
/// the environment names. Both servers (Hummingbird's and Vapor's) start here.
public enum Notes {
    /// The manifests beside the sources, for `swift run`; `NOTES_CONFIG` names another folder.
    public static let defaultConfig = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("config").path

    /// The contexts to apply: `APP_ENV` or `WIRING_CONTEXT` (or `--wiring-context`) when set,
    /// `development` when neither is.
    public static func contexts(environment: [String: String]) -> ContextSelection {
        let named = environment["APP_ENV"].map { [$0] } ?? (environment["WIRING_CONTEXT"] == nil ? ["development"] : [])
        return ContextSelection(contexts: named, environmentVariable: "WIRING_CONTEXT", launchArgument: "--wiring-context", detectsTests: false)
    }

    /// The container for the manifests in `config`, with `contexts` applied, its `${key}`s read
    /// through `settings` (the environment's, by default). Tests pass a registry with some
    /// factories overridden.
    /// - Throws: `ManifestError` with every problem at its `file:line:col`.
    public static func makeContainer(
        config: String = defaultConfig, contexts: ContextSelection, environment: [String: String],
        registry: FactoryRegistry = registry(), settings: NotesSettings? = nil, logger: Logger? = nil
    ) throws -> Container {
        try Container(manifest: config + "/services.yaml", registry: registry, contexts: contexts,
                      options: .init(environment: environment, logger: logger),
                      configuration: (settings ?? NotesSettings(environment: environment)).reader)
    }

    /// The container a server's executable starts with: the manifests in the folder
    /// `NOTES_CONFIG` names (``defaultConfig`` when unset), the contexts the environment names,
    /// the settings of ``NotesSettings/load(environment:pollInterval:)``; its contexts' summary
    /// printed. The container logs its start, refreshes and shutdown at info level; `observers`
    /// (an exporter's, say) are told what it does, after ``NotesTracing``'s.
    public static func launchContainer(
        environment: [String: String], observers: [any ContainerObserver] = []
    ) async throws -> (container: Container, settings: NotesSettings) {
        let settings = try await NotesSettings.load(environment: environment)
        let container = try Container(manifest: launchManifest(environment), registry: registry(), contexts: contexts(environment: environment),
                                      options: launchOptions(environment: environment, settings: settings, observers: observers))
        FileHandle.standardOutput.write(Data((contextLine(container) + "\n").utf8))
        return (container, settings)
    }

    /// Whether the environment names the `development` context (the default): there a server
    /// follows edits of its manifests (``launchReloading(environment:)``).
    public static func isDevelopment(environment: [String: String]) -> Bool {
        environment["APP_ENV"].map { $0 == "development" } ?? (environment["WIRING_CONTEXT"] == nil)
    }

    /// ``launchContainer(environment:)`` for development: a container that follows edits of
    /// the manifests once started, checking them every `NOTES_RELOAD_POLL_MS` milliseconds
    /// (500 by default); it logs each reload too.
    public static func launchReloading(
        environment: [String: String], observers: [any ContainerObserver] = []
    ) async throws -> (wiring: ReloadingContainer, settings: NotesSettings) {
        let settings = try await NotesSettings.load(environment: environment)
        let poll = environment["NOTES_RELOAD_POLL_MS"].flatMap(Int.init).map { Duration.milliseconds($0) } ?? .milliseconds(500)
        let wiring = try ReloadingContainer(manifest: launchManifest(environment), registry: registry(),
                                            contexts: contexts(environment: environment),
                                            options: launchOptions(environment: environment, settings: settings, observers: observers),
                                            pollInterval: poll)
        FileHandle.standardOutput.write(Data((contextLine(wiring.container) + " (reloading on edits)\n").utf8))
        return (wiring, settings)
    }

    /// `contexts: test (WIRING_CONTEXT)`, or `contexts: none`: the line a server prints at launch.
    static func contextLine(_ container: Container) -> String {
        let contexts = container.activeContexts
        return "contexts: " + (contexts.isEmpty ? "none" : contexts.map(\.description).joined(separator: ", "))
    }

    /// The root manifest an executable reads: in the folder `NOTES_CONFIG` names, or ``defaultConfig``.
    private static func launchManifest(_ environment: [String: String]) -> String {
        (environment["NOTES_CONFIG"] ?? defaultConfig) + "/services.yaml"
    }

    /// What an executable's containers read `${…}` through (`settings`' reader), log with and
    /// tell what they do.
    private static func launchOptions(
        environment: [String: String], settings: NotesSettings, observers: [any ContainerObserver]
    ) -> Container.Options {
        Container.Options(environment: environment, logger: Logger(label: "wiring"), configuration: ConfigReaderSource(settings.reader),
                          observers: NotesTracing.observers(environment: environment) + observers)
    }

    /// Ends a server's executable that could not start: a manifest's errors each at its
    /// `file:line:col`, any other error after the program's name, on standard error; status 1.
    public static func exit(reporting error: any Error, program: String) -> Never {
        if let error = error as? ManifestError {
            for diagnostic in error.diagnostics { FileHandle.standardError.write(Data((diagnostic.formatted() + "\n").utf8)) }
        } else {
            FileHandle.standardError.write(Data("\(program): \(error)\n".utf8))
        }
        Foundation.exit(1)
    }

    /// Checks once, when the server starts, that `container` lets each request's
    /// ``RequestLog`` be seeded: a manifest where it is not `scoped` fails start-up, not every
    /// request.
    public static func checkSeeding(in container: Container, logger: Logger) async throws {
        let scope = container.makeScope()
        try scope.seed(RequestLog(requestID: "start-up", logger: logger))
        try await scope.end()
    }

    /// What `GET /health` answers: every service tagged `health-check`, run.
    public static func health(in container: Container) async throws -> HealthReport {
        let checks: [any HealthCheck] = try await container.resolveAll(tagged: "health-check")
        var results: [String: Bool] = [:]
        for check in checks { results[check.name] = await check.check() }
        return HealthReport(healthy: results.values.allSatisfy { $0 }, checks: results)
    }
}
