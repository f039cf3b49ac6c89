import Foundation
import Logging
import Synchronization

/// A logger for one request: every line carries the request id. `scoped`: one per request,
/// made by the server's request-scope middleware (WiringHummingbird's or WiringVapor's), which
/// seeds it into the request's scope.
public final class RequestLog: Sendable {
    public let requestID: String
    public let logger: Logger

    public init(requestID: String, logger: Logger) {
        self.requestID = requestID
        self.logger = logger
    }
}

/// What one request did to the store, logged when its scope ends. `scoped`.
public final class UnitOfWork: Sendable {
    public let requestID: String
    private let log: RequestLog
    private let operations = Atomic(0)
    private let ended = Atomic(false)

    public init(log: RequestLog) {
        self.requestID = log.requestID
        self.log = log
    }

    /// Counts an operation; after the unit has ended, there is no work to add it to.
    func record(_ operation: String) throws {
        guard !hasEnded else { throw UnitOfWorkEnded(requestID: requestID, operation: operation) }
        operations.add(1, ordering: .relaxed)
        log.logger.debug("\(operation)")
    }

    /// The shutdown hook of a scoped instance: runs when the request's scope ends.
    public func end() {
        guard !ended.exchange(true, ordering: .relaxed) else { return }
        log.logger.debug("unit of work ended after \(operations.load(ordering: .relaxed)) operations")
    }

    /// Whether the scope has ended: the tests check that each request's unit ends.
    public var hasEnded: Bool { ended.load(ordering: .relaxed) }
}

/// An operation after the request's unit of work had ended: the request's scope ended early.
public struct UnitOfWorkEnded: Error, CustomStringConvertible {
    public let requestID: String
    public let operation: String
    public var description: String { "\(operation): the unit of work of request \(requestID) has ended" }
}

/// The notes a request reads and writes, through the store, in the request's unit of work,
/// logged with the request id. `scoped`, with three dependencies declared in the manifest.
///
/// A class, as the request's other services are: one instance per request, the same for all
/// that resolve it, and one the container holds as a reference, where a struct larger than
/// three words is boxed (the container's work for a request with caches cooled: 1.85 µs with
/// this type and ``RequestLog`` as structs, 1.60 µs as classes; `NotesBenchmark
/// --in-process`).
public final class NoteQueries: Sendable {
    public let store: any NoteStore
    public let unit: UnitOfWork
    public let log: RequestLog

    public init(store: any NoteStore, unit: UnitOfWork, log: RequestLog) {
        self.store = store
        self.unit = unit
        self.log = log
    }

    public func all() async throws -> [Note] {
        try unit.record("list notes")
        return try await store.all()
    }

    public func note(id: Int) async throws -> Note? {
        try unit.record("read note \(id)")
        return try await store.note(id: id)
    }

    public func add(_ note: NewNote) async throws -> Note {
        try unit.record("add note")
        let added = try await store.add(note)
        log.logger.info("added note \(added.id)")
        return added
    }

    public func delete(id: Int) async throws -> Bool {
        try unit.record("delete note \(id)")
        return try await store.delete(id: id)
    }
}

/// How many requests the server answered; logged at shutdown. A singleton built when the
/// application is made, after `start()` built the store, so it shuts down before the store.
public final class RequestCounter: Sendable {
    private let count = Atomic(0)
    private let logger: Logger

    public init(logger: Logger) {
        self.logger = logger
        logger.debug("request counter ready")
    }

    public func increment() { count.add(1, ordering: .relaxed) }

    func close() {
        logger.info("shutdown: request counter closed after \(count.load(ordering: .relaxed)) requests")
    }
}

/// The token `DELETE` requires as `Authorization: Bearer …`: a secret from the environment.
public struct AdminToken: Sendable {
    let value: String

    public func allows(_ authorization: String?) -> Bool {
        authorization == "Bearer \(value)"
    }
}

/// Where the server listens.
public struct ServerSettings: Sendable {
    public let host: String
    public let port: Int
}
