import Foundation
import Testing
@testable import Wiring

/// Services for the async, lifecycle and scope tests.
final class Pool: Sendable {
    let id = UUID()
    static func connect(delay: Duration = .zero) async throws -> Pool {
        if delay > .zero { try await Task.sleep(for: delay) }
        return Pool()
    }
}

final class SQLStore: Sendable {
    let pool: Pool
    init(pool: Pool) { self.pool = pool }
}

/// Built by a synchronous factory that asks for the async `Pool` synchronously.
final class EagerReport: Sendable {}

@MainActor final class ViewModel {
    var title = "notes"
}

actor Counter {
    var count = 0
    func increment() -> Int {
        count += 1
        return count
    }
}

@globalActor actor StorageActor {
    static let shared = StorageActor()
}

@StorageActor final class Repository {
    var rows: [String] = []
}

final class UnitOfWork: Sendable {
    let id = UUID()
    let connection: Connection
    let pool: Pool
    init(connection: Connection, pool: Pool) {
        self.connection = connection
        self.pool = pool
    }
}

/// An order of events, recorded from any task.
final class Journal: Sendable {
    private let entries = Locked<[String]>([])
    func record(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }
    func count(_ entry: String) -> Int { all.filter { $0 == entry }.count }
}

/// A signal a test opens once: everything awaiting it resumes.
final class Gate: Sendable {
    private let state = Locked<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))
    func wait() async {
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { state in
                if state.open { return true }
                state.waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }
    func open() {
        let waiters = state.withLock { state in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}

struct HookFailed: Error, CustomStringConvertible {
    let service: String
    var description: String { "\(service) could not close" }
}

enum AsyncFixture {
    /// A container of `yaml` (a manifest body after `wiring: 1`) with `registry`.
    static func container(_ yaml: String, registry: FactoryRegistry, timeout: Duration = .seconds(30)) throws -> Container {
        let path = try TestSupport.temporaryFile("wiring: 1\n" + yaml, name: "services.yaml")
        return try Container(manifest: path, registry: registry, contexts: .none,
                             options: Container.Options(environment: [:], shutdownTimeout: timeout))
    }
}
