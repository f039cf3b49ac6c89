import Foundation
import Wiring

// The notes app's services. config-examples/services.yaml says which implementation each
// environment gets.

/// A note.
struct Note: Codable, Sendable, Equatable {
    let title: String
    let body: String
    let created: Date
}

/// Reading notes.
protocol NoteReading: Sendable {
    func all() throws -> [Note]
}

/// Writing notes.
protocol NoteWriting: Sendable {
    func save(_ note: Note) throws
}

/// Where notes live: `NoteStore` is the service key, so the protocols resolve to it.
class NoteStore: NoteReading, NoteWriting, @unchecked Sendable {
    func all() throws -> [Note] { [] }
    func save(_ note: Note) throws {}
}

/// Notes as JSON files in a folder (`args.directory`), written for real.
final class FileNoteStore: NoteStore, @unchecked Sendable {
    let directory: URL
    let fsync: Bool

    init(directory: String, fsync: Bool) {
        self.directory = URL(fileURLWithPath: directory)
        self.fsync = fsync
    }

    override func all() throws -> [Note] {
        let files = (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)) ?? []
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return try files.filter { $0.pathExtension == "json" }
            .map { try decoder.decode(Note.self, from: Data(contentsOf: $0)) }
            .sorted { ($0.created, $0.title) < ($1.created, $1.title) }
    }

    override func save(_ note: Note) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        let name = note.title.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" }
        let file = directory.appendingPathComponent(String(name) + ".json")
        try encoder.encode(note).write(to: file, options: fsync ? [.atomic] : [])
    }
}

/// Notes in memory, for tests.
final class InMemoryNoteStore: NoteStore, @unchecked Sendable {
    private let lock = NSLock()
    private var notes: [Note] = []

    override func all() throws -> [Note] { lock.withLock { notes } }
    override func save(_ note: Note) throws { lock.withLock { notes.append(note) } }
}

/// Wraps a store and writes an audit line for every save (`decorates: NoteStore`).
final class AuditedNoteStore: NoteStore, @unchecked Sendable {
    let inner: NoteStore
    let prefix: String
    let log: any LogSink

    init(inner: NoteStore, prefix: String, log: any LogSink) {
        (self.inner, self.prefix, self.log) = (inner, prefix, log)
    }

    override func all() throws -> [Note] { try inner.all() }
    override func save(_ note: Note) throws {
        try inner.save(note)
        log.write("\(prefix)saved '\(note.title)'")
    }
}

/// The time.
protocol Clock: Sendable {
    var now: Date { get }
}

struct SystemClock: Clock {
    var now: Date { Date() }
}

struct FixedClock: Clock {
    let now: Date
}

/// Where log lines go (`implements: [LogSink]` on Logger).
protocol LogSink: Sendable {
    func write(_ line: String)
}

/// The app's logger: lines to standard error at or above its level.
final class ConsoleLogger: LogSink, @unchecked Sendable {
    let level: String
    let timestamps: Bool
    init(level: String, timestamps: Bool) { (self.level, self.timestamps) = (level, timestamps) }
    func write(_ line: String) {
        guard level != "error" else { return }
        FileHandle.standardError.write(Data("[\(level)] \(line)\n".utf8))
    }
}

/// Log lines appended to a file (the `audit` variant of Logger).
final class FileLogger: LogSink, @unchecked Sendable {
    let path: String
    init(path: String) { self.path = path }
    func write(_ line: String) {
        let url = URL(fileURLWithPath: path)
        try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        if let handle = try? FileHandle(forWritingTo: url) {
            handle.seekToEndOfFile()
            handle.write(Data((line + "\n").utf8))
            try? handle.close()
        } else {
            try? Data((line + "\n").utf8).write(to: url)
        }
    }
}

/// Log lines kept in memory (tests).
final class MemoryLogger: LogSink, @unchecked Sendable {
    private let lock = NSLock()
    private(set) var lines: [String] = []
    func write(_ line: String) { lock.withLock { lines.append(line) } }
}

/// Tells someone a note was saved.
protocol Notifier: Sendable {
    func noteSaved(_ note: Note, count: Int)
}

/// Prints a notification from a template (`{title}`, `{count}`).
struct ConsoleNotifier: Notifier {
    let template: String
    func noteSaved(_ note: Note, count: Int) {
        print(template.replacingOccurrences(of: "{title}", with: note.title)
            .replacingOccurrences(of: "{count}", with: String(count)), terminator: "")
    }
}

/// Records notifications and prints one line each (tests).
struct RecordingNotifier: Notifier {
    func noteSaved(_ note: Note, count: Int) { print("recorded notification: \(note.title) (\(count))") }
}

/// Prepares the webhook call production makes; without a network here, it prints the request.
struct WebhookNotifier: Notifier {
    let url: String
    let timeout: Double
    func noteSaved(_ note: Note, count: Int) {
        print("POST \(url) (timeout \(timeout)s) {\"title\": \"\(note.title)\", \"count\": \(count)}")
    }
}

/// The notes API client (kept for 5 minutes: `scope: cached, ttl: 5m`).
final class APIClient: Sendable {
    let baseURL: String
    let timeout: Int
    init(baseURL: String, timeout: Int) { (self.baseURL, self.timeout) = (baseURL, timeout) }
}

/// Per-session state (`scope: session`, a custom scope).
final class SessionCache: Sendable {}

/// What the app did, one line per event, in a file opened once when the container starts
/// (an async factory, `eager: true`) and closed when it shuts down (its `.onShutdown` hook).
final class ActivityJournal: @unchecked Sendable {
    let path: String
    private let lock = NSLock()
    private var handle: FileHandle?

    private init(path: String, handle: FileHandle) {
        self.path = path
        self.handle = handle
    }

    /// Opens (creating it if needed) the journal at `path`, off the caller's thread.
    static func open(path: String) async throws -> ActivityJournal {
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        if !FileManager.default.fileExists(atPath: path) { try Data().write(to: url) }
        let handle = try FileHandle(forWritingTo: url)
        try handle.seekToEnd()
        let journal = ActivityJournal(path: path, handle: handle)
        journal.record("opened")
        return journal
    }

    func record(_ line: String) {
        lock.withLock { handle?.write(Data((line + "\n").utf8)) }
    }

    /// Writes the last line and closes the file; the container calls it once, at shutdown.
    func close() async throws {
        record("closed")
        let handle = lock.withLock { () -> FileHandle? in
            defer { self.handle = nil }
            return self.handle
        }
        try handle?.close()
    }
}

/// The app: built per command (`scope: unique`), its dependencies injected.
final class NotesApp: @unchecked Sendable {
    @Injected var writer: any NoteWriting
    @Injected var reader: any NoteReading
    @Injected var clock: any Clock
    @Injected var notifier: any Notifier
    @Injected var journal: ActivityJournal
    @LazyInjected var api: APIClient

    func add(title: String, body: String) throws {
        let note = Note(title: title, body: body, created: clock.now)
        try writer.save(note)
        journal.record("saved \(title)")
        notifier.noteSaved(note, count: try reader.all().count)
    }

    func list() throws -> [Note] { try reader.all() }
}
