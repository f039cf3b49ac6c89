import Foundation
import Logging
import Synchronization
import Testing
@testable import Wiring

/// A started container rebuilding what reads a configuration key that changed, over a source
/// of the test's own that reports changes as swift-configuration's reader does (the newest
/// values, a burst coalesced).
@Suite("Configuration refresh")
struct RefreshTests {
    /// Values a test changes; each change is reported to the watching container.
    final class MutableSource: WatchableConfigurationSource {
        private struct State {
            var values: [String: ConfigurationValue]
            var version = 0
            var applied = 0
            var watchers: [Int: AsyncStream<Int>.Continuation] = [:]
            var nextWatcher = 0
        }

        private let state: Locked<State>

        init(_ values: [String: ConfigurationValue]) {
            state = Locked(State(values: values))
        }

        /// The values as of one version.
        struct Snapshot: ConfigurationSource {
            let values: [String: ConfigurationValue]
            func value(forKey key: String) -> ConfigurationValue? { values[key] }
        }

        func value(forKey key: String) -> ConfigurationValue? { state.withLock { $0.values[key] } }

        func set(_ key: String, _ value: ConfigurationValue?) {
            let watchers = state.withLock { state in
                state.values[key] = value
                state.version += 1
                return (Array(state.watchers.values), state.version)
            }
            for watcher in watchers.0 { watcher.yield(watchers.1) }
        }

        var watcherCount: Int { state.withLock { $0.watchers.count } }

        func watch(_ update: @Sendable (_ current: any ConfigurationSource) async -> Void) async throws {
            let (versions, continuation) = AsyncStream.makeStream(of: Int.self, bufferingPolicy: .bufferingNewest(1))
            let number = state.withLock { state in
                defer { state.nextWatcher += 1 }
                state.watchers[state.nextWatcher] = continuation
                return state.nextWatcher
            }
            defer { _ = state.withLock { $0.watchers.removeValue(forKey: number) } }
            continuation.yield(state.withLock { $0.version })
            for await _ in versions {
                let (values, version) = state.withLock { ($0.values, $0.version) }
                await update(Snapshot(values: values))
                state.withLock { $0.applied = max($0.applied, version) }
            }
        }

        /// Waits until the watching container has applied the latest change.
        func settle() async throws {
            let deadline = ContinuousClock.now + .seconds(10)
            while state.withLock({ $0.applied < $0.version }) {
                try #require(ContinuousClock.now < deadline, "the container did not apply the change")
                try await Task.sleep(for: .milliseconds(2))
            }
        }
    }

    final class Pool: Sendable {
        let size: Int
        let closed = Atomic<Bool>(false)
        init(size: Int) { self.size = size }
        var isClosed: Bool { closed.load(ordering: .relaxed) }
    }

    struct PoolArgs: Decodable, Sendable {
        var size: Int
    }

    /// Built instances and hook runs, by factory.
    final class Counts: Sendable {
        let built = Locked<[String: Int]>([:])
        let closed = Locked<[Int]>([])
        func build(_ key: String) { built.withLock { $0[key, default: 0] += 1 } }
        subscript(key: String) -> Int { built.withLock { $0[key] ?? 0 } }
    }

    /// A container over `source`, started unless `start` is false: a change to `source` is then
    /// applied. Logs to `records`, when given.
    func started(_ yaml: String, _ source: MutableSource, counts: Counts = Counts(), records: LogRecords? = nil,
                 start: Bool = true) async throws -> Container {
        let logger = records.map { records in Logging.Logger(label: "test") { _ in RecordingLogHandler(records: records) } }
        let registry = FactoryRegistry()
        registry.factory("pool") { r in
            counts.build("pool")
            return Pool(size: try r.arg("size", as: Int.self))
        }.onShutdown { (pool: Pool) in
            pool.closed.store(true, ordering: .relaxed)
            counts.closed.withLock { $0.append(pool.size) }
        }
        registry.factory("typed-pool", args: PoolArgs.self) { _, args in
            counts.build("typed-pool")
            return Pool(size: args.size)
        }
        let container = try Container(manifest: try TestSupport.temporaryFile(yaml, name: "services.yaml"), registry: registry, contexts: .none,
                                      options: .init(environment: [:], logger: logger, configuration: source))
        if start { try await container.start() }
        return container
    }

    @Test func aChangedKeyRebuildsACachedServiceRunningItsHookWhileASingletonStaysTheSame() async throws {
        let source = MutableSource(["pool.size": .int(4)])
        let counts = Counts()
        let container = try await started("""
            wiring: 1
            services:
              Pool: { factory: pool, scope: cached, args: { size: "${pool.size}" } }
              Fixed: { factory: pool, scope: singleton, implements: [], args: { size: "${pool.size}" } }
            """, source, counts: counts)
        let first = try await container.resolve(Pool.self)
        let fixed = try #require(try await container.resolve(key: "Fixed") as? Pool)
        #expect(first.size == 4 && fixed.size == 4)

        source.set("pool.size", .int(16))
        try await source.settle()
        let second = try await container.resolve(Pool.self)
        #expect(second.size == 16)
        #expect(second !== first)
        #expect(first.isClosed)
        #expect(counts.closed.withLock { $0 } == [4])
        #expect(try await container.resolve(Pool.self) === second)
        #expect(try await container.resolve(key: "Fixed") as? Pool === fixed)
        #expect(fixed.size == 4 && !fixed.isClosed)
        try await container.shutdown()
    }

    @Test func keysReadThroughParametersTypedArgumentsCustomScopesAndVariantsRefreshToo() async throws {
        let source = MutableSource(["pool.size": .string("2")])
        let counts = Counts()
        let container = try await started("""
            wiring: 1
            scopes:
              custom: { session: {} }
            parameters:
              size: "${pool.size}"
            services:
              Pool:
                factory: typed-pool
                scope: session
                args: { size: "$(size)" }
                names:
                  big: { scope: cached, args: { size: "1${pool.size}" } }
              Other: { factory: pool, scope: unique, implements: [], args: { size: "$(size)" } }
            """, source, counts: counts)
        #expect(try await container.resolve(Pool.self).size == 2)
        #expect(try await container.resolve(Pool.self, name: "big").size == 12)
        #expect(try await (container.resolve(key: "Other") as? Pool)?.size == 2)
        source.set("pool.size", .string("3"))
        try await source.settle()
        #expect(try await container.resolve(Pool.self).size == 3)
        #expect(try await container.resolve(Pool.self, name: "big").size == 13)
        #expect(try await (container.resolve(key: "Other") as? Pool)?.size == 3)
        try await container.shutdown()
    }

    @Test func aNewValueThatDoesNotFitKeepsTheEarlierOneAndIsLoggedAtItsPositionWithoutTheValue() async throws {
        let source = MutableSource(["pool.size": .int(4)])
        let records = LogRecords()
        let container = try await started("""
            wiring: 1
            services:
              Pool: { factory: typed-pool, scope: cached, args: { size: "${pool.size}" } }
            """, source, records: records)
        let first = try await container.resolve(Pool.self)
        source.set("pool.size", .string("lots-secret"))
        try await source.settle()
        #expect(try await container.resolve(Pool.self) === first)
        let logged = records.lines.filter { $0.contains("refresh") }
        #expect(logged.count == 1)
        let line = try #require(logged.first)
        #expect(line.hasPrefix("error: refresh: service 'Pool' keeps its earlier values: the new value of configuration key 'pool.size' cannot be used"))
        #expect(line.contains("services.yaml:3:61: error: service Pool: argument 'size': expected an integer, found a string from configuration key 'pool.size'"))
        #expect(!line.contains("lots-secret"))

        // A key removed is a key unset, with no default: the same.
        source.set("pool.size", nil)
        try await source.settle()
        #expect(try await container.resolve(Pool.self) === first)
        #expect(records.lines.filter { $0.contains("refresh") }.last?.hasSuffix("services.yaml:3:61: error: configuration key 'pool.size' is not set and has no default") == true)

        source.set("pool.size", .int(5))
        try await source.settle()
        #expect(try await container.resolve(Pool.self).size == 5)
        try await container.shutdown()
    }

    @Test func eachRefreshIsLoggedAtInfoNamingServiceAndKeyNeverTheValue() async throws {
        let source = MutableSource(["pool.size": .int(4)])
        let records = LogRecords()
        let container = try await started("""
            wiring: 1
            services:
              Pool: { factory: pool, scope: cached, args: { size: "${pool.size}" } }
              Fixed: { factory: pool, scope: singleton, implements: [], args: { size: "${pool.size}" } }
            """, source, records: records)
        source.set("pool.size", .int(987_654))
        try await source.settle()
        let logged = records.lines.filter { $0.contains("refresh") }
        #expect(logged == [
            "info: refresh: service 'Pool' reads configuration key 'pool.size', which changed: its kept instance is dropped, the next resolve builds it anew",
            "warning: refresh: singleton service 'Fixed' reads configuration key 'pool.size', which changed: it keeps the instance built with the earlier value (a singleton is never rebuilt; make it cached to rebuild it)",
        ])
        #expect(!records.lines.joined().contains("987654"))
        try await container.shutdown()
    }

    @Test func anEagerServiceIsBuiltAgainAtOnce() async throws {
        let source = MutableSource(["pool.size": .int(4)])
        let counts = Counts()
        let container = try await started("""
            wiring: 1
            services:
              Pool: { factory: pool, scope: cached, eager: true, args: { size: "${pool.size}" } }
            """, source, counts: counts)
        #expect(counts["pool"] == 1)
        source.set("pool.size", .int(5))
        try await source.settle()
        #expect(counts["pool"] == 2)
        #expect(counts.closed.withLock { $0 } == [4])
        #expect(try await container.resolve(Pool.self).size == 5)
        #expect(counts["pool"] == 2)
        try await container.shutdown()
    }

    @Test func aChildKeepsWhatItBuiltAndBuildsWithTheValuesInForce() async throws {
        let source = MutableSource(["pool.size": .int(4)])
        let container = try await started("""
            wiring: 1
            services:
              Pool: { factory: pool, scope: cached, args: { size: "${pool.size}" } }
              Fresh: { factory: pool, scope: unique, implements: [], args: { size: "${pool.size}" } }
            """, source)
        let child = try container.child { _ in }
        let kept = try await child.resolve(Pool.self)
        source.set("pool.size", .int(9))
        try await source.settle()
        #expect(try await container.resolve(Pool.self).size == 9)
        #expect(try await child.resolve(Pool.self) === kept)
        #expect(try await (child.resolve(key: "Fresh") as? Pool)?.size == 9)
        try await container.shutdown()
    }

    @Test func onlyAStartedContainerWatchesAndShutdownStopsWatching() async throws {
        let source = MutableSource(["pool.size": .int(4)])
        let container = try await started("""
            wiring: 1
            services:
              Pool: { factory: pool, scope: cached, args: { size: "${pool.size}" } }
            """, source, start: false)
        #expect(source.watcherCount == 0)
        try await container.start()
        let deadline = ContinuousClock.now + .seconds(10)
        while source.watcherCount == 0 && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(2)) }
        #expect(source.watcherCount == 1)
        try await container.shutdown()
        #expect(source.watcherCount == 0)
    }

    @Test func aBurstOfChangesDoesBoundedWorkAndLeavesTheLastValue() async throws {
        let source = MutableSource(["pool.size": .int(0)])
        let counts = Counts()
        let container = try await started("""
            wiring: 1
            services:
              Pool: { factory: pool, scope: cached, args: { size: "${pool.size}" } }
            """, source, counts: counts)
        #expect(try await container.resolve(Pool.self).size == 0)
        for value in 1...1_000 { source.set("pool.size", .int(value)) }
        try await source.settle()
        #expect(try await container.resolve(Pool.self).size == 1_000)
        // Nothing resolved it during the burst: one instance dropped, one built.
        #expect(counts["pool"] == 2)
        #expect(counts.closed.withLock { $0 } == [0])
        try await container.shutdown()
    }

    @Test func aChangeToAKeyNothingKeptReadsDropsNothing() async throws {
        let source = MutableSource(["pool.size": .int(1), "other.key": .int(1)])
        let counts = Counts()
        let container = try await started("""
            wiring: 1
            services:
              Pool: { factory: pool, scope: cached, args: { size: "${pool.size}" } }
              Other: { factory: pool, scope: cached, implements: [], args: { size: "${other.key}" } }
            """, source, counts: counts)
        let pool = try await container.resolve(Pool.self)
        source.set("other.key", .int(2))
        try await source.settle()
        #expect(try await container.resolve(Pool.self) === pool)
        #expect(try await (container.resolve(key: "Other") as? Pool)?.size == 2)
        try await container.shutdown()
    }

    @Test func validateSaysASingletonReadingAKeyKeepsItsValues() throws {
        let path = try TestSupport.temporaryFile("""
            wiring: 1
            services:
              Pool: { factory: pool, scope: singleton, args: { size: "${pool.size}" } }
            """, name: "services.yaml")
        let validation = ManifestLoader(environment: [:]).validate(path)
        let notes = validation.diagnostics.filter { $0.message.hasPrefix("singleton service") }
        #expect(notes.map { $0.description.prefix { $0 != "\n" } } == [
            "\(path):3:33: info: singleton service 'Pool' reads configuration key 'pool.size': it is built once, so a change after start does not reach it; scope it cached (or a custom scope) to rebuild it when the value changes",
        ])
    }

    /// The values in force are the newest that fit, a singleton's too: its instance stays, and
    /// a build after `reset()` reads them.
    @Test func aSingletonRebuiltAfterResetReadsTheValuesInForce() async throws {
        let source = MutableSource(["pool.size": .int(4)])
        let container = try await started("""
            wiring: 1
            services:
              Pool: { factory: typed-pool, scope: singleton, args: { size: "${pool.size}" } }
            """, source)
        let fixed = try await container.resolve(Pool.self)
        source.set("pool.size", .int(16))
        try await source.settle()
        #expect(try await container.resolve(Pool.self) === fixed)
        container.reset()
        #expect(try await container.resolve(Pool.self).size == 16)
        try await container.shutdown()
    }

    /// A value that did not fit is checked again at the next snapshot, which may come of
    /// another key's change: until it fits, each check is logged and the earlier values stay.
    @Test func aValueThatDidNotFitIsCheckedAgainAtTheNextSnapshot() async throws {
        let source = MutableSource(["pool.size": .int(4), "other.key": .int(1)])
        let records = LogRecords()
        let container = try await started("""
            wiring: 1
            services:
              Pool: { factory: typed-pool, scope: cached, args: { size: "${pool.size}" } }
              Other: { factory: pool, scope: cached, implements: [], args: { size: "${other.key}" } }
            """, source, records: records)
        let first = try await container.resolve(Pool.self)
        source.set("pool.size", .string("many"))
        try await source.settle()
        source.set("other.key", .int(2))
        try await source.settle()
        let errors = records.lines.filter { $0.hasPrefix("error: refresh: service 'Pool'") }
        #expect(errors.count == 2)
        #expect(errors.last?.contains("the new value of configuration key 'pool.size' cannot be used") == true)
        #expect(try await container.resolve(Pool.self) === first)
        source.set("pool.size", .int(8))
        try await source.settle()
        #expect(try await container.resolve(Pool.self).size == 8)
        try await container.shutdown()
    }

    /// What a kept instance is cached as, for a refresh to drop, is listed once per type however
    /// often it is reset and resolved again.
    /// A source whose watch fails: the container keeps the values it has and says so once.
    @Test func aWatchThatFailsIsLoggedAndTheValuesStay() async throws {
        struct Broken: WatchableConfigurationSource {
            struct Lost: Error, CustomStringConvertible { var description: String { "connection lost" } }
            func value(forKey key: String) -> ConfigurationValue? { key == "pool.size" ? .int(3) : nil }
            func watch(_ update: @concurrent @Sendable (_ current: any ConfigurationSource) async -> Void) async throws { throw Lost() }
        }
        let records = LogRecords()
        let registry = FactoryRegistry()
        registry.factory("pool") { r in Pool(size: try r.arg("size", as: Int.self)) }
        let path = try TestSupport.temporaryFile("wiring: 1\nservices:\n  Pool: { factory: pool, scope: cached, args: { size: \"${pool.size}\" } }\n",
                                                 name: "services.yaml")
        let container = try Container(manifest: path, registry: registry, contexts: .none, options: .init(
            environment: [:], logger: Logging.Logger(label: "test") { _ in RecordingLogHandler(records: records) }, configuration: Broken()))
        try await container.start()
        let deadline = ContinuousClock.now + .seconds(10)
        while !records.lines.contains(where: { $0.hasPrefix("error:") }) && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(records.lines.filter { $0.hasPrefix("error:") } == ["error: refresh: the configuration source stopped reporting changes: connection lost"])
        #expect(try await container.resolve(Pool.self).size == 3)
        try await container.shutdown()
    }

    @Test func resetAndResolveCyclesListEachCachedTypeOnce() async throws {
        let source = MutableSource(["pool.size": .int(4)])
        let container = try await started("""
            wiring: 1
            services:
              Pool: { factory: pool, scope: cached, args: { size: "${pool.size}" } }
            """, source)
        for _ in 0..<50 {
            _ = try await container.resolve(Pool.self)
            container.reset()
        }
        _ = try await container.resolve(Pool.self)
        #expect(container.configurationWatch?.cachedTypeCount == 1)
        try await container.shutdown()
    }
}
