import Logging
import Synchronization

/// The level every logger of a notes server logs at, changed while it runs: the `LogLevel`
/// service sets it from `log.level`, and the container builds that service again when the
/// value changes (an edit to the settings file), so the level follows the file.
public final class LiveLogLevel: Sendable {
    private let raw = Atomic<UInt8>(LiveLogLevel.code(of: .info))

    public init() {}

    public var level: Logger.Level {
        get { Logger.Level.allCases[Int(raw.load(ordering: .relaxed))] }
        set { raw.store(Self.code(of: newValue), ordering: .relaxed) }
    }

    private static func code(of level: Logger.Level) -> UInt8 {
        UInt8(Logger.Level.allCases.firstIndex(of: level)!)
    }
}

/// What the `LogLevel` service holds: the level it set.
public struct LogLevel: Sendable {
    public let level: Logger.Level
}

/// A swift-log handler writing to standard error, as swift-log's default does, at the level
/// a ``LiveLogLevel`` says at each message.
struct LiveLevelLogHandler: LogHandler {
    var stream: StreamLogHandler
    let live: LiveLogLevel

    var logLevel: Logger.Level {
        get { live.level }
        set { live.level = newValue }
    }

    var metadata: Logger.Metadata {
        get { stream.metadata }
        set { stream.metadata = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { stream[metadataKey: key] }
        set { stream[metadataKey: key] = newValue }
    }

    func log(event: LogEvent) {
        stream.log(event: event)
    }
}
