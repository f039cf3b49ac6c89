import Foundation
import Logging

/// Where notes live. `development` and `production` keep them in a file, `test` in memory.
public protocol NoteStore: Sendable {
    func all() async throws -> [Note]
    func note(id: Int) async throws -> Note?
    func add(_ note: NewNote) async throws -> Note
    func delete(id: Int) async throws -> Bool
    /// Whether the store answers: what its health check asks.
    func ping() async -> Bool
    /// Releases what the store holds; its shutdown hook calls it once.
    func close() async throws
    /// How many times ``close()`` ran: the lifecycle tests check it is exactly once.
    var closeCount: Int { get async }
}

/// The notes in memory, gone when the process ends.
public actor InMemoryNoteStore: NoteStore {
    private var notes: [Int: Note] = [:]
    private var nextID = 1
    private let log: Logger
    public private(set) var closeCount = 0

    public init(log: Logger) { self.log = log }

    public func all() -> [Note] { notes.values.sorted { $0.id < $1.id } }
    public func note(id: Int) -> Note? { notes[id] }

    public func add(_ new: NewNote) -> Note {
        let note = Note(id: nextID, title: new.title, body: new.body)
        notes[note.id] = note
        nextID += 1
        return note
    }

    public func delete(id: Int) -> Bool { notes.removeValue(forKey: id) != nil }
    public func ping() -> Bool { closeCount == 0 }

    public func close() {
        closeCount += 1
        log.info("shutdown: in-memory note store closed")
    }
}

/// The notes in a JSON file in a folder, opened asynchronously when the server starts (the
/// service is `eager`) and written back on every change and when it closes.
public actor FileNoteStore: NoteStore {
    private let file: URL
    private var notes: [Int: Note]
    private let log: Logger
    public private(set) var closeCount = 0

    private init(file: URL, notes: [Int: Note], log: Logger) {
        self.file = file
        self.notes = notes
        self.log = log
    }

    /// Opens the store in `directory`, creating it when needed.
    public static func open(directory: String, log: Logger) async throws -> FileNoteStore {
        let folder = URL(fileURLWithPath: directory, isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("notes.json")
        var notes: [Int: Note] = [:]
        if FileManager.default.fileExists(atPath: file.path) {
            let data = try Data(contentsOf: file)
            for note in try JSONDecoder().decode([Note].self, from: data) { notes[note.id] = note }
        }
        log.info("opened file note store at \(file.path) with \(notes.count) notes")
        return FileNoteStore(file: file, notes: notes, log: log)
    }

    public func all() -> [Note] { notes.values.sorted { $0.id < $1.id } }
    public func note(id: Int) -> Note? { notes[id] }

    public func add(_ new: NewNote) throws -> Note {
        let note = Note(id: (notes.keys.max() ?? 0) + 1, title: new.title, body: new.body)
        notes[note.id] = note
        try save()
        return note
    }

    public func delete(id: Int) throws -> Bool {
        guard notes.removeValue(forKey: id) != nil else { return false }
        try save()
        return true
    }

    public func ping() -> Bool { closeCount == 0 && FileManager.default.isWritableFile(atPath: file.deletingLastPathComponent().path) }

    public func close() throws {
        closeCount += 1
        try save()
        log.info("shutdown: file note store closed (\(notes.count) notes in \(file.path))")
    }

    private func save() throws {
        try JSONEncoder().encode(all()).write(to: file, options: .atomic)
    }
}
