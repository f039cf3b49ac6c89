import Configuration
import Logging
import SystemPackage

/// Where a notes server's settings come from, through swift-configuration: the environment
/// first (`HTTP_PORT`, `LOG_LEVEL`, as its provider maps the manifests' `${http.port}` and
/// `${log.level}`), then the JSON file `NOTES_SETTINGS` names, if any:
///
/// ```json
/// { "http": { "port": 8080 }, "log": { "level": "debug" } }
/// ```
///
/// The file is polled for changes while ``file`` runs (a service group runs it): an edit to
/// `log.level` changes the servers' log level live, through the container's refresh.
public struct NotesSettings: Sendable {
    public let reader: ConfigReader
    /// The settings file's provider, when `NOTES_SETTINGS` names one: run it for its changes
    /// to be seen.
    public let file: ReloadingFileProvider<JSONSnapshot>?

    /// The environment alone.
    public init(environment: [String: String]) {
        reader = ConfigReader(provider: EnvironmentVariablesProvider(environmentVariables: environment))
        file = nil
    }

    /// The environment, then the file `NOTES_SETTINGS` names (a missing file reads as empty,
    /// so that it can be written later), polled every `pollInterval` (`NOTES_SETTINGS_POLL_MS`
    /// when set).
    public static func load(environment: [String: String], pollInterval: Duration = .seconds(2)) async throws -> NotesSettings {
        guard let path = environment["NOTES_SETTINGS"] else { return NotesSettings(environment: environment) }
        let interval = environment["NOTES_SETTINGS_POLL_MS"].flatMap(Int.init).map { Duration.milliseconds($0) } ?? pollInterval
        var quiet = Logger(label: "notes-settings")
        quiet.logLevel = .warning
        let file = try await ReloadingFileProvider<JSONSnapshot>(filePath: FilePath(path), allowMissing: true,
                                                                 pollInterval: interval, logger: quiet)
        return NotesSettings(environment: environment, file: file)
    }

    private init(environment: [String: String], file: ReloadingFileProvider<JSONSnapshot>) {
        reader = ConfigReader(providers: [EnvironmentVariablesProvider(environmentVariables: environment), file])
        self.file = file
    }
}
