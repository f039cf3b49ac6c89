#if Configuration
import Configuration
import Foundation
import Testing
import Wiring
import WiringConfiguration

/// A started container over a reader whose provider changes, as a server's code builds one.
@Suite("Refresh through a ConfigReader")
struct ConfigReaderRefreshTests {
    final class Limiter: Sendable {
        let perSecond: Int
        init(perSecond: Int) { self.perSecond = perSecond }
    }

    struct LimiterArgs: Decodable, Sendable {
        var perSecond: Int
    }

    func manifest() throws -> String {
        try ConfigReaderSourceTests().manifest("""
            wiring: 1
            services:
              Limiter: { factory: limiter, scope: cached, args: { perSecond: "${limits.rate}" } }
              Startup: { factory: limiter, scope: singleton, implements: [], args: { perSecond: "${limits.rate}" } }
            """)
    }

    func registry() -> FactoryRegistry {
        let registry = FactoryRegistry()
        registry.factory("limiter", args: LimiterArgs.self) { _, args in Limiter(perSecond: args.perSecond) }
        return registry
    }

    /// Resolves `Limiter` until `done` holds of it, for at most ten seconds.
    func resolve(_ container: Container, until done: (Limiter) -> Bool) async throws -> Limiter {
        let deadline = ContinuousClock.now + .seconds(10)
        while true {
            let limiter = try await container.resolve(Limiter.self)
            if done(limiter) || ContinuousClock.now > deadline { return limiter }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Records each access the reader reports: the key, the type asked, whether it failed.
    final class Accesses: AccessReporter, @unchecked Sendable {
        private let lock = NSLock()
        private var events: [String] = []
        func report(_ event: AccessEvent) {
            let failed: Bool
            switch event.result {
            case .success(let value): failed = value == nil
            case .failure: failed = true
            }
            lock.withLock { events.append("\(event.metadata.key) as \(event.metadata.valueType)\(failed ? " failed" : "")") }
        }
        func take() -> [String] { lock.withLock { defer { events = [] }; return events } }
    }

    /// A refresh asks the reader once for each key, as the type the typed argument reads: an
    /// app's `AccessReporter` sees no failed access for an integer key.
    @Test func aRefreshReadsEachKeyOnceAsItsTypeWithNoFailedAccess() async throws {
        let provider = MutableInMemoryProvider(initialValues: ["limits.rate": 10])
        let accesses = Accesses()
        let reader = ConfigReader(providers: [provider], accessReporter: accesses)
        let container = try Container(manifest: manifest(), registry: registry(), contexts: .none, configuration: reader)
        try await container.start()
        _ = try await container.resolve(Limiter.self)
        _ = accesses.take()
        provider.setValue(25, forKey: "limits.rate")
        let after = try await resolve(container) { $0.perSecond != 10 }
        #expect(after.perSecond == 25)
        #expect(accesses.take() == ["limits.rate as int"])
        try await container.shutdown()
    }

    /// Building a container asks the reader once for each key, as the type the typed argument
    /// reads, though two services read it: no failed access.
    @Test func aBuildReadsEachKeyOnceAsItsTypeWithNoFailedAccess() throws {
        let accesses = Accesses()
        let reader = ConfigReader(providers: [InMemoryProvider(values: ["limits.rate": 10])], accessReporter: accesses)
        let container = try Container(manifest: manifest(), registry: registry(), contexts: .none, configuration: reader)
        #expect(try container.resolve(Limiter.self).perSecond == 10)
        #expect(accesses.take() == ["limits.rate as int"])
    }

    @Test func aChangedValueRebuildsTheCachedServiceAndTheSingletonStays() async throws {
        let provider = MutableInMemoryProvider(initialValues: ["limits.rate": 10])
        let reader = ConfigReader(providers: [InMemoryProvider(values: ["other.key": 1]), provider])
        let container = try Container(manifest: manifest(), registry: registry(), contexts: .none, configuration: reader)
        try await container.start()
        let before = try await container.resolve(Limiter.self)
        let startup = try #require(try await container.resolve(key: "Startup") as? Limiter)
        #expect(before.perSecond == 10)

        provider.setValue(25, forKey: "limits.rate")
        let after = try await resolve(container) { $0.perSecond != 10 }
        #expect(after.perSecond == 25)
        #expect(after !== before)
        #expect(try await container.resolve(key: "Startup") as? Limiter === startup)
        #expect(startup.perSecond == 10)

        try await container.shutdown()
        provider.setValue(40, forKey: "limits.rate")
        try await Task.sleep(for: .milliseconds(50))
        #expect(container.isShutDown)
    }

    @Test func aBurstOfChangesLeavesTheLastValue() async throws {
        let provider = MutableInMemoryProvider(initialValues: ["limits.rate": 0])
        let container = try Container(manifest: manifest(), registry: registry(), contexts: .none,
                                      configuration: ConfigReader(provider: provider))
        try await container.start()
        #expect(try await container.resolve(Limiter.self).perSecond == 0)
        for rate in 1...1_000 { provider.setValue(.init(.int(rate), isSecret: false), forKey: "limits.rate") }
        #expect(try await resolve(container) { $0.perSecond == 1_000 }.perSecond == 1_000)
        try await container.shutdown()
    }
}
#endif
