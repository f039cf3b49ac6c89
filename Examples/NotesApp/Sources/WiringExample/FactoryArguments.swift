import Foundation
import Wiring

// What each factory of the notes app reads from its service's `args`: building the container
// checks every service's arguments against these before any factory runs, each problem at its
// manifest line (`notes validate config-examples/services.yaml` does too).

struct FixedClockArgs: Decodable, Sendable {
    var epochSeconds: Int
}

struct FileNoteStoreArgs: Decodable, Sendable {
    enum Encoding: String, Decodable, CaseIterable, Sendable { case utf8 = "utf-8" }
    var directory: String
    var fsync: Bool?
    var encoding: Encoding?
}

struct AuditedNoteStoreArgs: Decodable, Sendable {
    var prefix: String
    /// `log: !service Logger`.
    @Reference var log: any LogSink
}

struct ConsoleNotifierArgs: Decodable, Sendable {
    var template: String
}

struct WebhookNotifierArgs: Decodable, Sendable {
    var url: URL
    var timeout: Duration
}

struct APIClientArgs: Decodable, Sendable {
    struct Retry: Decodable, Sendable {
        var attempts: Int
        var backoff: Duration
    }
    var baseURL: URL
    var timeout: Duration
    var headers: [String: String]?
    var retry: Retry?
}

struct ActivityJournalArgs: Decodable, Sendable {
    var path: String
}

/// A log level: a misspelt one is an error at its line, not a silent default.
enum LogLevel: String, Decodable, CaseIterable, Sendable {
    case debug, info, warning, error
}

struct ConsoleLoggerArgs: Decodable, Sendable {
    var level: LogLevel
    var timestamps: Bool?
}

/// The `audit` variant of Logger: it inherits the service's `level` and `timestamps`.
struct FileLoggerArgs: Decodable, Sendable {
    var path: String
    var level: LogLevel?
    var timestamps: Bool?
}
