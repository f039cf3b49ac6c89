import Foundation
import Testing
@testable import Wiring

/// Services of a recorded graph: App → Store → Pool, and Cache alone.
final class App: Sendable {}
final class Store: Sendable {}
final class Cache: Sendable {}

@Suite("Start and shutdown")
struct LifecycleTests {
    static let manifest = """
        services:
          App: { factory: app, scope: singleton, eager: true }
          Store: { factory: store, scope: singleton }
          Pool: { factory: pool, scope: singleton }
          Cache: { factory: cache, scope: singleton, eager: true }
        """

    /// Factories that record their builds and their shutdowns in `journal`.
    static func registry(_ journal: Journal, failing: Set<String> = [], hookDelay: Duration = .zero) -> FactoryRegistry {
        let registry = FactoryRegistry()
        @Sendable func hook(_ name: String) -> @Sendable (any Sendable) async throws -> Void {
            { _ in
                journal.record("close \(name)")
                if hookDelay > .zero { try? await Task.sleep(for: hookDelay) }
                if failing.contains("close \(name)") { throw HookFailed(service: name) }
            }
        }
        registry.factory("pool") { _ in
            if failing.contains("build Pool") { throw StoreUnavailable() }
            let pool = try await Pool.connect(delay: .milliseconds(5))
            journal.record("build Pool")
            return pool
        }.onShutdown { pool in try await hook("Pool")(pool) }
        registry.factory("store") { r in
            _ = try await r.resolve(Pool.self)
            journal.record("build Store")
            return Store()
        }.onShutdown { store in try await hook("Store")(store) }
        registry.factory("app") { r in
            _ = try await r.resolve(Store.self)
            if failing.contains("build App") { throw StoreUnavailable() }
            journal.record("build App")
            return App()
        }.onShutdown { app in try await hook("App")(app) }
        registry.factory("cache") { _ in
            journal.record("build Cache")
            return Cache()
        }.onShutdown { cache in try await hook("Cache")(cache) }
        return registry
    }

    @Test func startBuildsEagerServicesDependenciesFirstAndShutdownRunsInReverse() async throws {
        let journal = Journal()
        let container = try AsyncFixture.container(Self.manifest, registry: Self.registry(journal))
        try await container.start()
        let built = journal.all
        #expect(Set(built) == ["build Pool", "build Store", "build App", "build Cache"])
        #expect(built.firstIndex(of: "build Pool")! < built.firstIndex(of: "build Store")!)
        #expect(built.firstIndex(of: "build Store")! < built.firstIndex(of: "build App")!)
        // Built by start, an async service now resolves synchronously.
        _ = try container.resolveSynchronously(App.self)
        try await container.shutdown()
        let closed = Array(journal.all.dropFirst(4))
        #expect(closed.count == 4)
        // The reverse of construction: each instance before what it depends on.
        #expect(closed == built.reversed().map { $0.replacingOccurrences(of: "build", with: "close") })
    }

    @Test func startAndShutdownTwiceAreHarmless() async throws {
        let journal = Journal()
        let container = try AsyncFixture.container(Self.manifest, registry: Self.registry(journal))
        try await container.start()
        try await container.start()
        try await container.shutdown()
        try await container.shutdown()
        #expect(journal.count("build Pool") == 1)
        #expect(journal.count("close Pool") == 1)
        await #expect(throws: ResolutionError.self) { try await container.start() }
    }

    @Test func aFailureInTheMiddleOfStartRollsBackInReverse() async throws {
        let journal = Journal()
        let container = try AsyncFixture.container(Self.manifest, registry: Self.registry(journal, failing: ["build App"]))
        let error = await #expect(throws: ResolutionError.self) { try await container.start() }
        #expect(error?.path.map(\.service) == ["App"])
        #expect(error?.message.hasPrefix("factory 'app' of service App (") == true)
        let entries = journal.all
        // What was built was shut down, each after what depends on it.
        #expect(entries.contains("close Store") && entries.contains("close Pool"))
        #expect(entries.firstIndex(of: "close Store")! < entries.firstIndex(of: "close Pool")!)
        #expect(!entries.contains("close App"))
        // The container can be started again: a rolled-back start kept nothing.
        #expect(journal.count("build Pool") == 1)
    }

    @Test func aHookThatOverrunsItsTimeoutIsAbandonedAndReported() async throws {
        let journal = Journal()
        let container = try AsyncFixture.container("""
            services:
              Pool: { factory: pool, scope: singleton, shutdownTimeout: 50ms }
              Cache: { factory: cache, scope: singleton }
            """, registry: Self.registry(journal, hookDelay: .seconds(60)), timeout: .milliseconds(100))
        _ = try await container.resolve(Pool.self)
        _ = try await container.resolve(Cache.self)
        let clock = ContinuousClock(), start = clock.now
        let error = await #expect(throws: ShutdownError.self) { try await container.shutdown() }
        #expect(clock.now - start < .seconds(30))
        #expect(error?.failures.map(\.service) == ["Cache", "Pool"])
        #expect(error?.failures.last?.error is ShutdownError.TimedOut)
        #expect(error?.description.contains("Pool (") == true)
        #expect(error?.description.contains("): timed out after 0.05 seconds") == true)
    }

    @Test func everyHookRunsAndEveryFailureIsCollected() async throws {
        let journal = Journal()
        let container = try AsyncFixture.container(Self.manifest, registry: Self.registry(journal, failing: ["close Store", "close Cache"]))
        try await container.start()
        let error = await #expect(throws: ShutdownError.self) { try await container.shutdown() }
        #expect(Set(error?.failures.map(\.service) ?? []) == ["Store", "Cache"])
        #expect(error?.description.hasPrefix("2 shutdown hooks failed:\n") == true)
        #expect(journal.count("close Pool") == 1 && journal.count("close App") == 1)
    }

    @Test func resolvingAfterShutdownThrows() async throws {
        let container = try AsyncFixture.container(Self.manifest, registry: Self.registry(Journal()))
        try await container.start()
        try await container.shutdown()
        #expect(container.isShutDown)
        let error = await #expect(throws: ResolutionError.self) { try await container.resolve(Cache.self) }
        #expect(error?.message.hasPrefix("the container is shut down; Cache (") == true)
        #expect(throws: ResolutionError.self) { try container.resolveSynchronously(Cache.self) }
    }

    @Test func eagerNeedsAKeptScopeAndShutdownTimeoutAKeptInstance() throws {
        let headlines = try TestSupport.validate(text: """
            wiring: 1
            scopes: { custom: { scoped: {} } }
            services:
              A: { scope: unique, eager: true }
              B: { scope: scoped, eager: true }
              C: { scope: graph, shutdownTimeout: 5s }
              D: { scope: singleton, eager: yes please, shutdownTimeout: 0s }
              E:
                scope: singleton
                names: { fresh: { scope: unique, eager: true } }
            contexts:
              test:
                services:
                  E: { scope: unique, eager: true }
            """)
        #expect(headlines == [
            "m.yaml:2:21: error: custom scope 'scoped' has the name of a built-in scope",
            "m.yaml:4:30: error: 'eager: true' of service 'A' needs singleton, cached, shared or a custom scope; 'unique' keeps no instance to start",
            "m.yaml:5:30: error: 'eager: true' of service 'B' needs singleton, cached, shared or a custom scope; a scoped instance is built in its scope, not at start",
            "m.yaml:6:39: error: 'shutdownTimeout' of service 'C' needs a scope that keeps its instance, not 'graph': its instances are never shut down",
            "m.yaml:7:33: error: 'eager' of service 'D' must be true or false, found a string",
            "m.yaml:7:62: error: 'shutdownTimeout' of service 'D' must be longer than zero",
            "m.yaml:10:45: error: 'eager: true' of named variant 'fresh' of service 'E' needs singleton, cached, shared or a custom scope; 'unique' keeps no instance to start",
            "m.yaml:14:34: error: 'eager: true' of the override of 'E' in context 'test' needs singleton, cached, shared or a custom scope; 'unique' keeps no instance to start",
        ])
    }

    @Test func aHookOnAnInstanceNobodyKeepsIsAWarning() throws {
        let registry = Self.registry(Journal())
        let container = try AsyncFixture.container("services:\n  Cache: { factory: cache, scope: unique }", registry: registry)
        #expect(container.diagnostics.map(\.message).contains(
            "service Cache has a shutdown hook, but its scope 'unique' keeps no instance: the hook never runs"))
    }
}
