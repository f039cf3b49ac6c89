import Logging
import Wiring

// What each factory reads from its service's `args` in config/: a wrong type, a misspelt key
// or level, a port out of range is an error at its manifest line when the container is built.

/// `level: ${log.level:-info}`: a level swift-log knows, or an error listing them; the
/// level every logger reads.
struct LogLevelArgs: Decodable, Sendable {
    var level: Logger.Level
    @Reference var live: LiveLogLevel
}

/// `live: !service LiveLogLevel`: the level the logger logs at, as it changes.
struct LoggerArgs: Decodable, Sendable {
    @Reference var live: LiveLogLevel
}

/// `port: $(port)`, read from `${http.port:-8080}`: a number from 0 to 65535.
struct ServerSettingsArgs: Decodable, Sendable {
    var host: String
    var port: UInt16
}

struct AdminTokenArgs: Decodable, Sendable {
    var token: String
}

struct FileNoteStoreArgs: Decodable, Sendable {
    var directory: String
    @Reference var log: Logger
}

/// A service that logs through `log: !service Logger`.
struct LoggedArgs: Decodable, Sendable {
    @Reference var log: Logger
}

struct StoreHealthArgs: Decodable, Sendable {
    @Reference var store: any NoteStore
}
