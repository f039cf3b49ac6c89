import Foundation
import Testing
@testable import Wiring

@Suite("Container snapshot")
struct SnapshotTests {
    static let manifest = """
        wiring: 1
        parameters:
          region: ${REGION:-eu}
        services:
          SlowDatabase: { factory: database, scope: singleton, args: { url: "${DATABASE_URL}", region: $(region) } }
          Sessions:
            factory: sessions
            scope: cached
            implements: [SessionReading]
            names:
              short: { args: { ttl: "${SHORT_TTL:-5}" } }
          Fresh: { factory: fresh, scope: unique }
        contexts:
          test:
            services:
              Fresh: { scope: graph }
        """

    static func container(environment: [String: String] = ["DATABASE_URL": "postgres://secret@db"],
                          contexts: ContextSelection = .explicit("test")) throws -> Container {
        let registry = FactoryRegistry()
        registry.factory("database") { _ in SlowDatabase() }
        registry.factory("sessions") { _ in Sessions() }
        registry.factory("fresh") { _ in Fresh() }
        let path = try TestSupport.temporaryFile(manifest, name: "services.yaml")
        return try Container(manifest: path, registry: registry, contexts: contexts, options: .init(environment: environment))
    }

    @Test func itListsContextsServicesAndWhatIsKeptAndBuilt() throws {
        let container = try Self.container()
        _ = try container.resolve(SlowDatabase.self)
        _ = try container.resolve(Fresh.self)
        let snapshot = container.snapshot()
        #expect(snapshot.contexts == [.init(name: "test", reason: "code")])
        #expect(snapshot.services.map { $0.name.map { "\($0)" } ?? "-" } == ["-", "-", "short", "-"])
        let database = snapshot.services[0], sessions = snapshot.services[1], short = snapshot.services[2], fresh = snapshot.services[3]
        #expect(database.key == "SlowDatabase" && database.scope == "singleton" && database.factory == "database")
        // Relative to the manifest's folder: no path of the machine.
        #expect(database.location == "services.yaml:5:3")
        #expect(database.kept && database.builds == 1)
        #expect(!sessions.kept && sessions.builds == 0 && sessions.implements == ["SessionReading"])
        #expect(short.key == "Sessions" && !short.kept)
        // The context's scope is the one in force; a service the container does not keep has no count.
        #expect(fresh.scope == "graph" && !fresh.kept && fresh.builds == nil)
    }

    @Test func itNamesWhatTheManifestReadsButNeverTheValue() throws {
        let container = try Self.container()
        let snapshot = container.snapshot()
        #expect(snapshot.configuration.map(\.name) == ["DATABASE_URL", "REGION", "SHORT_TTL"])
        #expect(snapshot.configuration.allSatisfy { $0.source == "environment" })
        #expect(snapshot.configuration[0].readAt == ["services.yaml:5:69"])
        #expect(snapshot.configuration[1].readAt == ["services.yaml:5:96"])
        let json = String(decoding: try snapshot.json(), as: UTF8.self)
        #expect(!json.contains("postgres://"))
        #expect(!json.contains("secret"))
    }

    @Test func itsJSONHasStableSortedKeysAndDecodesBack() throws {
        let container = try Self.container()
        let snapshot = container.snapshot()
        let data = try snapshot.json()
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object.keys.sorted() == ["configuration", "contexts", "services", "takenAt"])
        let service = try #require((object["services"] as? [[String: Any]])?.first)
        #expect(service.keys.sorted() == ["builds", "factory", "implements", "kept", "key", "location", "scope"])
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.firstRange(of: "\"configuration\"")!.lowerBound < text.firstRange(of: "\"contexts\"")!.lowerBound)
        #expect(try #require(object["takenAt"] as? String).hasSuffix("Z"))
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let decoded = try decoder.decode(ContainerSnapshot.self, from: data)
        #expect(decoded.services == snapshot.services && decoded.contexts == snapshot.contexts)
    }

    @Test func aSnapshotTakenWhileOtherThreadsResolveIsWhole() async throws {
        let container = try Self.container()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    for _ in 0..<500 {
                        _ = try container.resolve(SlowDatabase.self) as SlowDatabase
                        _ = try container.resolve(Sessions.self, name: "short") as Sessions
                    }
                }
            }
            for _ in 0..<50 {
                let snapshot = container.snapshot()
                #expect(snapshot.services.count == 4)
                #expect(snapshot.services[0].builds! <= 1)
                #expect(snapshot.services[0].kept == (snapshot.services[0].builds == 1))
            }
            try await group.waitForAll()
        }
        #expect(container.snapshot().services[0].builds == 1)
    }
}

extension RefreshTests {
    @Test func aRefreshIsToldToObserversAndShownInTheSnapshot() async throws {
        let source = MutableSource(["pool.size": .int(4), "other": .int(1)])
        let observer = RecordingObserver()
        let registry = FactoryRegistry()
        registry.factory("typed-pool", args: PoolArgs.self) { _, args in Pool(size: args.size) }
        let path = try TestSupport.temporaryFile("""
            wiring: 1
            services:
              Pool: { factory: typed-pool, scope: cached, args: { size: "${pool.size}" } }
            """, name: "services.yaml")
        let container = try Container(manifest: path, registry: registry, contexts: .none,
                                      options: .init(environment: [:], configuration: source, observers: [observer]))
        try await container.start()
        _ = try await container.resolve(Pool.self)
        #expect(container.snapshot().lastRefresh == nil)
        #expect(container.snapshot().configuration == [.init(name: "pool.size", source: "configuration", readAt: [container.snapshot().configuration[0].readAt[0]])])

        source.set("pool.size", .int(16))
        try await source.settle()
        let applied = try #require(observer.refreshes.last)
        #expect(applied.changedKeys == ["pool.size"] && applied.dropped == ["Pool"] && applied.applied)
        #expect(applied.duration > .zero && applied.duration < .seconds(60))
        #expect(container.snapshot().lastRefresh == applied)

        source.set("pool.size", .string("many"))
        try await source.settle()
        let rejected = try #require(observer.refreshes.last)
        #expect(!rejected.applied && rejected.dropped.isEmpty)
        #expect(rejected.rejected == [ReportedFailure(.valueRejected, service: "Pool", message: "the new value of configuration key 'pool.size' cannot be used",
                                                      location: "services.yaml:3:61")])
        #expect(observer.refreshes.count == 2)
        try await container.shutdown()
    }
}

extension ReloadingContainerTests {
    @Test func eachReloadIsToldToObserversAndShownInTheSnapshot() async throws {
        let files = try Files(greeting: "hello")
        let observer = RecordingObserver()
        let container = try ReloadingContainer(manifest: files.services.path, registry: registry(), contexts: .none,
                                               options: .init(environment: [:], observers: [observer]), pollInterval: .seconds(60))
        try await container.start()
        #expect(container.lastReload == nil && container.snapshot().lastReload == nil)
        try files.write(greeting: "[unclosed")
        #expect(await container.reload() == false)
        let rejected = try #require(observer.reloads.last)
        #expect(!rejected.applied && rejected.failures.first?.kind == .manifestError)
        #expect(rejected.failures.first?.location?.hasPrefix("greeting.yaml:") == true)
        try files.write(greeting: "bonjour")
        let clock = ContinuousClock()
        let reloadStarted = clock.now
        #expect(await container.reload())
        let reloadTook = reloadStarted.duration(to: clock.now)
        let applied = try #require(container.lastReload)
        #expect(applied.applied && applied.failures.isEmpty && observer.reloads.count == 2)
        // Its duration, kept in milliseconds, is within what the call took.
        #expect(applied.duration > .zero && applied.duration <= reloadTook + .milliseconds(1))
        let snapshot = container.snapshot()
        #expect(snapshot.lastReload == applied)
        let json = String(decoding: try snapshot.json(), as: UTF8.self)
        #expect(json.contains("\"applied\" : true") && json.contains("\"durationMilliseconds\""))
        try await container.shutdown()
    }
}
