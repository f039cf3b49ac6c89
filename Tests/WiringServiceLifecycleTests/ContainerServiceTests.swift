import Foundation
import Logging
import ServiceLifecycle
import Testing
import Wiring
import WiringServiceLifecycle

final class Pool: Sendable {}
final class Store: Sendable {
    let pool: Pool
    init(pool: Pool) { self.pool = pool }
}

/// Closes recorded in order, from any task.
final class Closes: @unchecked Sendable {
    private let lock = NSLock()
    private var names: [String] = []
    func record(_ name: String) { lock.withLock { names.append(name) } }
    var all: [String] { lock.withLock { names } }
}

@Suite("ContainerService in a ServiceGroup")
struct ContainerServiceTests {
    static func container(_ closes: Closes) throws -> Container {
        let registry = FactoryRegistry()
        registry.factory("pool") { _ in
            try await Task.sleep(for: .milliseconds(5))
            return Pool()
        }.onShutdown { _ in closes.record("Pool") }
        registry.factory("store") { r in Store(pool: try await r.resolve(Pool.self)) }
            .onShutdown { _ in closes.record("Store") }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wiring-lifecycle-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("services.yaml").path
        try """
            wiring: 1
            services:
              Pool: { factory: pool, scope: singleton }
              Store: { factory: store, scope: singleton, eager: true }
            """.write(toFile: path, atomically: true, encoding: .utf8)
        // Read when the container is made: the folder goes right after.
        defer { try? FileManager.default.removeItem(at: folder) }
        return try Container(manifest: path, registry: registry, contexts: .none, options: .init(environment: [:]))
    }

    @Test func theGroupStartsTheContainerAndShutsItDownOnGracefulShutdown() async throws {
        let closes = Closes()
        let container = try Self.container(closes)
        let service = ContainerService(container)
        #expect(service.container === container)
        let group = ServiceGroup(configuration: .init(services: [service], logger: Logger(label: "test")))
        let running = Task { try await group.run() }
        // The eager store is built by the service's start (an await would build it otherwise).
        var store: Store?
        for _ in 0..<500 where store == nil {
            store = Self.builtStore(container)
            if store == nil { try await Task.sleep(for: .milliseconds(2)) }
        }
        #expect(store != nil)
        #expect(closes.all.isEmpty)
        await group.triggerGracefulShutdown()
        try await running.value
        #expect(closes.all == ["Store", "Pool"])
        #expect(container.isShutDown)
    }

    /// The store if it is built: a synchronous resolve never builds an async service.
    static func builtStore(_ container: Container) -> Store? {
        try? container.resolve(Store.self)
    }

    @Test func aCancelledGroupStillShutsTheContainerDown() async throws {
        let closes = Closes()
        let container = try Self.container(closes)
        try await container.start()
        let group = ServiceGroup(configuration: .init(services: [ContainerService(container)], logger: Logger(label: "test")))
        let running = Task { try await group.run() }
        try await Task.sleep(for: .milliseconds(20))
        running.cancel()
        _ = try? await running.value
        #expect(closes.all == ["Store", "Pool"])
    }
}
