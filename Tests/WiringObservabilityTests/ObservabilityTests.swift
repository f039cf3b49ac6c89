#if Observability
import Foundation
import InMemoryTracing
import Metrics
import MetricsTestKit
import Testing
import Tracing
import Wiring
import WiringObservability

final class Database: Sendable {}
final class Store: Sendable {}
final class Session: Sendable {}
final class Broken: Sendable {}
struct Unreachable: Error {}

/// The process's tracer and metrics backend, bootstrapped once for the whole test process (each
/// may be bootstrapped only once); the suite runs serialized and clears them before each test.
enum Backends {
    static let tracer: InMemoryTracer = {
        let tracer = InMemoryTracer()
        InstrumentationSystem.bootstrap(tracer)
        return tracer
    }()
    static let metrics: TestMetrics = {
        let metrics = TestMetrics()
        MetricsSystem.bootstrap(metrics)
        return metrics
    }()

    static func cleared() -> (InMemoryTracer, TestMetrics) {
        tracer.clearAll(includingActive: true)
        metrics.reset()
        return (tracer, metrics)
    }
}

@Suite("Tracing and metrics", .serialized)
struct ObservabilityTests {
    static func container(_ yaml: String, observers: [any ContainerObserver], slow: Bool = false) throws -> Container {
        let registry = FactoryRegistry()
        registry.factory("database") { _ in
            try await Task.sleep(for: .milliseconds(slow ? 30 : 2))
            return Database()
        }
        registry.factory("store") { r in
            _ = try await r.resolve(Database.self)
            return Store()
        }
        registry.factory("session") { _ in Session() }.onShutdown { _ in }
        registry.factory("broken") { _ -> Broken in throw Unreachable() }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("wiring-observability-\(UUID().uuidString).yaml")
        try Data(("wiring: 1\nservices:\n" + yaml).utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        return try Container(manifest: file.path, registry: registry, contexts: .none,
                             options: Container.Options(environment: [:], observers: observers))
    }

    static let services = """
          Store: { factory: store, scope: singleton, eager: true }
          Database: { factory: database, scope: singleton }
          Session: { factory: session, scope: scoped }
        """

    @Test func startIsASpanWithABuildSpanPerServiceNestedAsTheBuildsNest() async throws {
        let (tracer, _) = Backends.cleared()
        let container = try Self.container(Self.services, observers: [ContainerTracing()])
        try await container.start()
        let spans = tracer.finishedSpans
        let start = try #require(spans.first { $0.operationName == "wiring.start" })
        let builds = spans.filter { $0.operationName == "wiring.build" }
        #expect(builds.count == 2)
        let store = try #require(builds.first { $0.attributes["wiring.service"]?.toSpanAttribute() == "Store" })
        let database = try #require(builds.first { $0.attributes["wiring.service"]?.toSpanAttribute() == "Database" })
        #expect(store.parentSpanID == start.spanID && database.parentSpanID == store.spanID)
        #expect(store.traceID == start.traceID && database.traceID == start.traceID)
        #expect(store.attributes["wiring.scope"]?.toSpanAttribute() == "singleton")
        // The database's span lies within the store's, which lies within start's.
        #expect(database.startInstant.nanosecondsSinceEpoch >= store.startInstant.nanosecondsSinceEpoch)
        #expect(database.endInstant.nanosecondsSinceEpoch <= store.endInstant.nanosecondsSinceEpoch)
        #expect(store.endInstant.nanosecondsSinceEpoch <= start.endInstant.nanosecondsSinceEpoch)
        #expect(database.endInstant.nanosecondsSinceEpoch - database.startInstant.nanosecondsSinceEpoch >= 2_000_000)
        #expect(start.errors.isEmpty && start.status == nil)
        try await container.shutdown()
    }

    @Test func aFactoryThatThrowsDuringStartIsRecordedOnItsSpan() async throws {
        let (tracer, _) = Backends.cleared()
        let container = try Self.container("  Broken: { factory: broken, scope: singleton, eager: true }\n", observers: [ContainerTracing()])
        await #expect(throws: (any Error).self) { try await container.start() }
        let build = try #require(tracer.finishedSpans.first { $0.operationName == "wiring.build" })
        #expect(build.errors.count == 1 && build.status?.code == .error)
        // As swift-distributed-tracing expects: the error recorded, its type, a status that
        // repeats none of its text.
        #expect(build.attributes["error.type"]?.toSpanAttribute() == "Unreachable")
        #expect(build.errors.first?.attributes["error.type"]?.toSpanAttribute() == "Unreachable")
        #expect(build.status?.message == nil)
        let start = try #require(tracer.finishedSpans.first { $0.operationName == "wiring.start" })
        #expect(start.status?.code == .error && start.status?.message == nil)
    }

    @Test(arguments: [false, true])
    func aSpanAFactoryMakesDuringStartIsAChildOfItsBuildsSpan(async: Bool) async throws {
        let (tracer, _) = Backends.cleared()
        let registry = FactoryRegistry()
        if async {
            registry.factory("database") { _ in
                try await withSpan("db.connect") { _ in try await Task.sleep(for: .milliseconds(1)) }
                return Database()
            }
        } else {
            registry.factory("database") { _ in
                withSpan("db.connect") { _ in }
                return Database()
            }
        }
        if async {
            registry.factory("store") { r in
                _ = try await r.resolve(Database.self)
                return Store()
            }
        } else {
            registry.factory("store") { r in
                _ = try r.resolve(Database.self)
                return Store()
            }
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("wiring-obs-\(UUID().uuidString).yaml")
        try Data("wiring: 1\nservices:\n  Store: { factory: store, scope: singleton, eager: true }\n  Database: { factory: database, scope: singleton }\n".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let container = try Container(manifest: file.path, registry: registry, contexts: .none,
                                      options: .init(environment: [:], observers: [ContainerTracing()]))
        try await withSpan("launch") { _ in try await container.start() }
        let spans = tracer.finishedSpans
        let launch = try #require(spans.first { $0.operationName == "launch" })
        let start = try #require(spans.first { $0.operationName == "wiring.start" })
        let store = try #require(spans.first { $0.attributes["wiring.service"]?.toSpanAttribute() == "Store" })
        let database = try #require(spans.first { $0.attributes["wiring.service"]?.toSpanAttribute() == "Database" })
        let connect = try #require(spans.first { $0.operationName == "db.connect" })
        #expect(start.parentSpanID == launch.spanID && start.attributes["wiring.services"]?.toSpanAttribute() == 2)
        #expect(store.parentSpanID == start.spanID && database.parentSpanID == store.spanID)
        #expect(connect.parentSpanID == database.spanID && connect.traceID == launch.traceID)
        try await container.shutdown()
    }

    @Test func aResolveAfterStartMakesNoSpanCurrent() async throws {
        let (tracer, _) = Backends.cleared()
        let registry = FactoryRegistry()
        registry.factory("database") { _ in
            withSpan("db.connect") { _ in }
            return Database()
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("wiring-obs-\(UUID().uuidString).yaml")
        try Data("wiring: 1\nservices:\n  Database: { factory: database, scope: singleton }\n".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let container = try Container(manifest: file.path, registry: registry, contexts: .none,
                                      options: .init(environment: [:], observers: [ContainerTracing()]))
        try await container.start()
        try await withSpan("request") { _ in _ = try await container.resolve(Database.self) }
        let request = try #require(tracer.finishedSpans.first { $0.operationName == "request" })
        let connect = try #require(tracer.finishedSpans.first { $0.operationName == "db.connect" })
        // No threshold: no span of the container's; the factory's span is the request's child.
        #expect(tracer.finishedSpans.filter { $0.operationName == "wiring.build" }.isEmpty)
        #expect(connect.parentSpanID == request.spanID)
        try await container.shutdown()
    }

    @Test func shutdownIsASpanWithAHookSpanPerHook() async throws {
        let (tracer, _) = Backends.cleared()
        let container = try Self.container("  Session: { factory: session, scope: singleton }\n", observers: [ContainerTracing()])
        _ = try await container.resolve(Session.self)
        try await container.shutdown()
        let shutdown = try #require(tracer.finishedSpans.first { $0.operationName == "wiring.shutdown" })
        let hooks = tracer.finishedSpans.filter { $0.operationName == "wiring.hook" }
        #expect(hooks.count == 1 && hooks[0].parentSpanID == shutdown.spanID)
        #expect(hooks[0].attributes["wiring.service"]?.toSpanAttribute() == "Session")
        #expect(hooks[0].attributes["wiring.timed_out"]?.toSpanAttribute() == false)
    }

    @Test func aSlowBuildAfterStartIsASpanUnderTheCurrentOneOnlyPastTheThreshold() async throws {
        let (tracer, _) = Backends.cleared()
        let yaml = "  Database: { factory: database, scope: singleton }\n  Session: { factory: session, scope: scoped }\n"
        let container = try Self.container(yaml, observers: [ContainerTracing(slowBuildThreshold: .milliseconds(20))], slow: true)
        try await container.start()
        tracer.clearAll()
        try await InstrumentationSystem.tracer.withSpan("request") { _ in
            _ = try await container.resolve(Database.self)
            try await container.withScope { scope in _ = try await scope.resolve(Session.self) }
        }
        let request = try #require(tracer.finishedSpans.first { $0.operationName == "request" })
        let builds = tracer.finishedSpans.filter { $0.operationName == "wiring.build" }
        // The database took 30 ms, past the threshold; the session did not.
        #expect(builds.count == 1)
        #expect(builds.first?.attributes["wiring.service"]?.toSpanAttribute() == "Database")
        #expect(builds.first?.parentSpanID == request.spanID)
        try await container.shutdown()
    }

    @Test func metricsCountBuildsByScopeTimeStartBuildsOwnTimeAndMeterOpenScopes() async throws {
        let (_, metrics) = Backends.cleared()
        let container = try Self.container(Self.services, observers: [ContainerMetrics()], slow: true)
        try await container.start()
        #expect(metrics.counterTotal(label: "wiring.builds", dimensions: [("wiring.scope", "singleton")]) == 2)
        // By scope only: the store's and the database's builds are one series, in seconds.
        let timer = try metrics.expectTimer("wiring.build.duration", [("wiring.scope", "singleton")])
        #expect(timer.displayUnit == .seconds)
        #expect(timer.values.count == 2)
        // Own time: the store's build waited 30 ms for the database's, which is not its own.
        let report = try #require(container.startupReport)
        #expect(Set(timer.values) == Set(report.builds.map { Int64($0.duration.components.seconds * 1_000_000_000 + $0.duration.components.attoseconds / 1_000_000_000) }))
        #expect(timer.values.filter { $0 >= 30_000_000 }.count == 1)
        let scope = container.makeScope()
        _ = try await scope.resolve(Session.self)
        let other = container.makeScope()
        #expect(try metrics.expectMeter("wiring.scopes.open").lastValue == 2)
        try await scope.end()
        try await other.end()
        #expect(try metrics.expectMeter("wiring.scopes.open").lastValue == 0)
        #expect(metrics.counterTotal(label: "wiring.builds", dimensions: [("wiring.scope", "scoped")]) == 1)
        // A scoped build after start is counted, not timed (no threshold).
        #expect(metrics.timers.allSatisfy { timer in !timer.dimensions.contains { $0 == ("wiring.scope", "scoped") } })
        try await container.shutdown()
    }

    @Test func theServiceDimensionIsTheAppsChoice() async throws {
        let (_, metrics) = Backends.cleared()
        let container = try Self.container(Self.services, observers: [ContainerMetrics(serviceDimension: true)])
        try await container.start()
        #expect(try metrics.expectTimer("wiring.build.duration", [("wiring.scope", "singleton"), ("wiring.service", "Database")]).values.count == 1)
        #expect(try metrics.expectTimer("wiring.build.duration", [("wiring.scope", "singleton"), ("wiring.service", "Store")]).values.count == 1)
        try await container.shutdown()
    }

    @Test func openScopesAddUpAcrossContainersAndObserversUnderConcurrency() async throws {
        let (_, metrics) = Backends.cleared()
        let first = try Self.container(Self.services, observers: [ContainerMetrics()])
        let second = try Self.container(Self.services, observers: [ContainerMetrics(slowBuildThreshold: .seconds(1))])
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<200 {
                group.addTask {
                    let scope = (index.isMultiple(of: 2) ? first : second).makeScope()
                    await Task.yield()
                    try await scope.end()
                }
            }
            try await group.waitForAll()
        }
        let meter = try metrics.expectMeter("wiring.scopes.open")
        #expect(meter.lastValue == 0)
        #expect(meter.values.count == 400 && meter.values.allSatisfy { $0 >= 0 && $0 <= 200 })
        let open = (0..<3).map { _ in first.makeScope() }
        #expect(meter.lastValue == 3)
        for scope in open { try await scope.end() }
        #expect(meter.lastValue == 0)
        try await first.shutdown()
        try await second.shutdown()
    }

    @Test func aSlowBuildAfterStartIsTimedByItsOwnTime() async throws {
        let (_, metrics) = Backends.cleared()
        // The store's build waits 30 ms for the database's: its own time is below the threshold.
        let container = try Self.container("""
              Store: { factory: store, scope: singleton }
              Database: { factory: database, scope: singleton }
            """, observers: [ContainerMetrics(slowBuildThreshold: .milliseconds(20))], slow: true)
        _ = try await container.resolve(Store.self)
        let timer = try metrics.expectTimer("wiring.build.duration", [("wiring.scope", "singleton")])
        #expect(timer.values.count == 1 && timer.values[0] >= 30_000_000)
        #expect(metrics.counterTotal(label: "wiring.builds", dimensions: [("wiring.scope", "singleton")]) == 2)
        try await container.shutdown()
    }

    /// A source whose changes the test pushes, one update per push.
    final class PushedSource: WatchableConfigurationSource {
        struct Values: ConfigurationSource {
            let values: [String: ConfigurationValue]
            func value(forKey key: String) -> ConfigurationValue? { values[key] }
        }
        let initial: [String: ConfigurationValue]
        let (updates, continuation) = AsyncStream.makeStream(of: [String: ConfigurationValue].self)
        let applied = AsyncStream.makeStream(of: Void.self)

        init(_ initial: [String: ConfigurationValue]) { self.initial = initial }
        func value(forKey key: String) -> ConfigurationValue? { initial[key] }
        func watch(_ update: @concurrent @Sendable (_ current: any ConfigurationSource) async -> Void) async throws {
            for await values in updates {
                await update(Values(values: values))
                applied.continuation.yield()
            }
        }
        /// Pushes `values` and waits until the container applied them.
        func push(_ values: [String: ConfigurationValue]) async {
            continuation.yield(values)
            var waiting = applied.stream.makeAsyncIterator()
            _ = await waiting.next()
        }
    }

    struct Sized: Sendable { let size: Int }
    struct SizeArgs: Decodable, Sendable { var size: Int }

    @Test func refreshesAreCountedAndTracedByResult() async throws {
        let (tracer, metrics) = Backends.cleared()
        let source = PushedSource(["pool.size": .int(4)])
        let registry = FactoryRegistry()
        registry.factory("sized", args: SizeArgs.self) { _, args in Sized(size: args.size) }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("wiring-obs-\(UUID().uuidString).yaml")
        try Data("wiring: 1\nservices:\n  Sized: { factory: sized, scope: cached, args: { size: \"${pool.size}\" } }\n".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let container = try Container(manifest: file.path, registry: registry, contexts: .none,
                                      options: .init(environment: [:], configuration: source,
                                                     observers: [ContainerTracing(), ContainerMetrics()]))
        try await container.start()
        _ = try container.resolveSynchronously(Sized.self)
        await source.push(["pool.size": .int(8)])
        await source.push(["pool.size": .string("many")])
        #expect(metrics.counterTotal(label: "wiring.refreshes", dimensions: [("wiring.result", "applied")]) == 1)
        #expect(metrics.counterTotal(label: "wiring.refreshes", dimensions: [("wiring.result", "rejected")]) == 1)
        let refreshes = tracer.finishedSpans.filter { $0.operationName == "wiring.refresh" }
        #expect(refreshes.count == 2)
        #expect(refreshes[0].attributes["wiring.changed_keys"]?.toSpanAttribute() == .stringArray(["pool.size"]))
        #expect(refreshes[0].attributes["wiring.dropped"]?.toSpanAttribute() == .stringArray(["Sized"]))
        // A problem is an event with attributes, not an exception, and no value in it.
        #expect(refreshes[0].events.isEmpty && refreshes[0].status == nil)
        #expect(refreshes[1].errors.isEmpty && refreshes[1].status?.code == .error && refreshes[1].status?.message == nil)
        let problem = try #require(refreshes[1].events.first)
        #expect(refreshes[1].events.count == 1 && problem.name == "wiring.failure")
        #expect(problem.attributes["wiring.failure.kind"]?.toSpanAttribute() == "valueRejected")
        #expect(problem.attributes["wiring.service"]?.toSpanAttribute() == "Sized")
        #expect(!"\(problem.attributes)".contains("many"))
        try await container.shutdown()
    }

    @Test func reloadsAreCountedAndTracedByResult() async throws {
        let (tracer, metrics) = Backends.cleared()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wiring-obs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("services.yaml")
        try Data("wiring: 1\nservices:\n  Session: { factory: session, scope: singleton }\n".utf8).write(to: file)
        let registry = FactoryRegistry()
        registry.factory("session") { _ in Session() }
        let container = try ReloadingContainer(manifest: file.path, registry: registry, contexts: .none,
                                               options: .init(environment: [:], observers: [ContainerTracing(), ContainerMetrics()]))
        try await container.start()
        try Data("wiring: 1\nservices:\n  Session: { factory: sesion, scope: singleton }\n".utf8).write(to: file)
        #expect(await container.reload() == false)
        try Data("wiring: 1\nservices:\n  Session: { factory: session, scope: cached }\n".utf8).write(to: file)
        #expect(await container.reload())
        #expect(metrics.counterTotal(label: "wiring.reloads", dimensions: [("wiring.result", "rejected")]) == 1)
        #expect(metrics.counterTotal(label: "wiring.reloads", dimensions: [("wiring.result", "applied")]) == 1)
        let reloads = tracer.finishedSpans.filter { $0.operationName == "wiring.reload" }
        #expect(reloads.count == 2)
        #expect(reloads[0].attributes["wiring.applied"]?.toSpanAttribute() == false && reloads[0].errors.isEmpty)
        let problem = try #require(reloads[0].events.first)
        #expect(problem.name == "wiring.failure" && problem.attributes["wiring.failure.kind"]?.toSpanAttribute() == "manifestError")
        #expect(problem.attributes["wiring.location"]?.toSpanAttribute() == "services.yaml:3:23")
        #expect(reloads[0].status?.code == .error)
        #expect(reloads[1].attributes["wiring.applied"]?.toSpanAttribute() == true && reloads[1].events.isEmpty)
        try await container.shutdown()
    }
}
extension Container {
    /// The synchronous `resolve`, from async code (where Swift picks the async one).
    func resolveSynchronously<T>(_ type: T.Type) throws -> T { try resolve(type) }
}
#endif
