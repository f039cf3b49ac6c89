import Synchronization
import Foundation
import Logging
import Testing
@testable import Wiring

/// Services whose factories take known times, for the startup report.
final class SlowDatabase: Sendable {}
final class SlowStore: Sendable {}
final class Sessions: Sendable {}
final class PerRequest: Sendable {}
final class Fresh: Sendable {}

/// An observer that keeps what it was told.
final class RecordingObserver: ContainerObserver {
    private let events = Locked<[String]>([])
    private let reports = Locked<(start: [StartupReport], shutdown: [ShutdownReport], refresh: [RefreshEvent], reload: [ReloadEvent])>(([], [], [], []))

    var lines: [String] { events.withLock { $0 } }
    var starts: [StartupReport] { reports.withLock { $0.start } }
    var shutdowns: [ShutdownReport] { reports.withLock { $0.shutdown } }
    var refreshes: [RefreshEvent] { reports.withLock { $0.refresh } }
    var reloads: [ReloadEvent] { reports.withLock { $0.reload } }

    func containerBuilt(_ build: BuildEvent) {
        events.withLock { $0.append("built \(build.service.description) \(build.scope)\(build.duringStart ? " during start" : "")\(build.error == nil ? "" : " failed")") }
    }
    func scopeOpened() { events.withLock { $0.append("scope opened") } }
    func scopeEnded() { events.withLock { $0.append("scope ended") } }
    func containerStarted(_ report: StartupReport) { reports.withLock { $0.start.append(report) } }
    func containerShutDown(_ report: ShutdownReport) { reports.withLock { $0.shutdown.append(report) } }
    func containerRefreshed(_ refresh: RefreshEvent) { reports.withLock { $0.refresh.append(refresh) } }
    func containerReloaded(_ reload: ReloadEvent) { reports.withLock { $0.reload.append(reload) } }
}

@Suite("Startup report and observers")
struct ObserverTests {
    static let manifest = """
        wiring: 1
        services:
          SlowStore: { factory: store, scope: singleton, eager: true }
          SlowDatabase: { factory: database, scope: singleton }
          Sessions: { factory: sessions, scope: cached }
          PerRequest: { factory: per-request, scope: scoped }
          Fresh: { factory: fresh, scope: unique }
        """

    static func registry(failing: Bool = false) -> FactoryRegistry {
        let registry = FactoryRegistry()
        registry.factory("database") { _ in
            try await Task.sleep(for: .milliseconds(60))
            if failing { throw StoreUnavailable() }
            return SlowDatabase()
        }.onShutdown { _ in try await Task.sleep(for: .milliseconds(5)) }
        registry.factory("store") { r in
            _ = try await r.resolve(SlowDatabase.self)
            _ = try resolveSynchronously(Fresh.self, from: r)
            try await Task.sleep(for: .milliseconds(20))
            return SlowStore()
        }
        registry.factory("sessions") { _ in Sessions() }
        registry.factory("per-request") { _ in PerRequest() }
        registry.factory("fresh") { _ in Fresh() }
        return registry
    }

    static func container(observers: [any ContainerObserver] = [], logger: Logging.Logger? = nil, failing: Bool = false) throws -> Container {
        let path = try TestSupport.temporaryFile(manifest, name: "services.yaml")
        return try Container(manifest: path, registry: registry(failing: failing), contexts: .none,
                             options: Container.Options(environment: [:], logger: logger, observers: observers))
    }

    @Test func theStartupReportTimesEachBuildWithoutItsDependencies() async throws {
        let container = try Self.container()
        #expect(container.startupReport == nil)
        try await container.start()
        let report = try #require(container.startupReport)
        #expect(report.error == nil)
        #expect(report.builds.map(\.service) == ["SlowStore", "SlowDatabase", "Fresh"])
        let store = report.builds[0], database = report.builds[1], fresh = report.builds[2]
        #expect(store.parent == nil && database.parent == 0 && fresh.parent == 0)
        #expect(store.dependencies == ["SlowDatabase", "Fresh"])
        #expect(store.scope == .singleton && fresh.scope == .unique)
        // Own time leaves the database's 60 ms out of the store's; its total keeps them.
        #expect(database.duration >= .milliseconds(60))
        // By construction, not by the machine's speed: the dependency's whole time is outside the store's own.
        #expect(store.duration >= .milliseconds(20) && store.duration + database.elapsed <= store.elapsed)
        #expect(store.elapsed >= .milliseconds(80))
        #expect(database.offset >= store.offset)
        #expect(report.total >= store.elapsed)
        // Which of the two sleeps overran more is the machine's doing (a loaded one stretches either):
        // the report names the build of the longest own time, and lists rows in that order.
        let bySlowest = report.builds.sorted { $0.duration > $1.duration }.map(\.service)
        #expect(report.slowest.map(\.service) == bySlowest)
        #expect(report.summary.hasPrefix("start: 3 services in "))
        #expect(report.summary.contains("; slowest \(bySlowest[0]) "))
        let rows = report.description.split(separator: "\n")
        #expect(rows.count == 5)
        #expect(rows[1].hasPrefix("  service "))
        #expect(zip(rows.dropFirst(2), bySlowest).allSatisfy { row, shown in row.hasPrefix("  \(shown) ") })
        let databaseRow = try #require(rows.first { $0.hasPrefix("  SlowDatabase ") })
        let storeRow = try #require(rows.first { $0.hasPrefix("  SlowStore ") })
        #expect(databaseRow.contains("singleton") && storeRow.hasSuffix("SlowDatabase, Fresh"))
    }

    @Test func startLogsTheSummaryLineAtInfo() async throws {
        let records = LogRecords()
        var logger = Logging.Logger(label: "test") { _ in RecordingLogHandler(records: records) }
        logger.logLevel = .info
        let container = try Self.container(logger: logger)
        try await container.start()
        let line = try #require(records.lines.first { $0.hasPrefix("info: start: ") })
        let slowest = try #require(container.startupReport?.slowest.first?.service.description)
        #expect(line.hasPrefix("info: start: 3 services in ") && line.contains("; slowest \(slowest) "))
        try await container.shutdown()
        let shutdown = try #require(records.lines.first { $0.hasPrefix("info: shutdown: ") })
        #expect(shutdown.hasPrefix("info: shutdown: 1 hook in ") && shutdown.contains("; slowest SlowDatabase "))
    }

    @Test func aFailedStartReportsTheBuildThatThrew() async throws {
        let observer = RecordingObserver()
        let container = try Self.container(observers: [observer], failing: true)
        await #expect(throws: (any Error).self) { try await container.start() }
        let report = try #require(container.startupReport)
        #expect(report.error != nil)
        #expect(report.builds.map(\.service) == ["SlowStore", "SlowDatabase"])
        #expect(report.builds.allSatisfy { $0.error != nil })
        #expect(report.summary.contains("; failed: "))
        #expect(observer.starts.count == 1 && observer.starts[0].error != nil)
        #expect(observer.lines == ["built SlowDatabase singleton during start failed", "built SlowStore singleton during start failed"])
    }

    @Test func observersHearOfStartBuildsAndKeptBuildsButNotWarmOrUniqueResolves() async throws {
        let observer = RecordingObserver()
        let container = try Self.container(observers: [observer])
        try await container.start()
        #expect(observer.lines == ["built SlowDatabase singleton during start", "built Fresh unique during start",
                                   "built SlowStore singleton during start"])
        #expect(observer.starts.count == 1)
        // After start: a kept build is told once; a warm resolve and a unique build are not.
        _ = try container.resolveSynchronously(Sessions.self)
        _ = try container.resolveSynchronously(Sessions.self)
        _ = try container.resolveSynchronously(Fresh.self)
        _ = try container.resolveSynchronously(SlowStore.self)
        let scope = container.makeScope()
        _ = try await scope.resolve(PerRequest.self)
        _ = try await scope.resolve(PerRequest.self)
        try await scope.end()
        #expect(Array(observer.lines.dropFirst(3)) == ["built Sessions cached", "scope opened", "built PerRequest scoped", "scope ended"])
        // Ending twice tells once.
        try await scope.end()
        #expect(observer.lines.filter { $0 == "scope ended" }.count == 1)
        try await container.shutdown()
        let shutdown = try #require(observer.shutdowns.first)
        #expect(shutdown.hooks.map(\.service) == ["SlowDatabase"])
        #expect(shutdown.hooks[0].duration >= .milliseconds(5) && shutdown.hooks[0].error == nil)
        #expect(container.shutdownReport?.hooks.count == 1)
    }

    @Test func aChildTellsItsParentsObservers() async throws {
        let observer = RecordingObserver()
        let container = try Self.container(observers: [observer])
        let child = try container.child { $0.override(Fresh.self) { _ in Fresh() } }
        _ = try child.resolveSynchronously(Sessions.self)
        #expect(observer.lines == ["built Sessions cached"])
    }

    @Test func shutdownReportsAHookThatTimedOut() async throws {
        let registry = FactoryRegistry()
        registry.factory("sessions") { _ in Sessions() }.onShutdown { _ in try await Task.sleep(for: .seconds(3_600)) }
        let path = try TestSupport.temporaryFile("""
            wiring: 1
            services:
              Sessions: { factory: sessions, scope: singleton, shutdownTimeout: 50ms }
            """, name: "services.yaml")
        let observer = RecordingObserver()
        let container = try Container(manifest: path, registry: registry, contexts: .none,
                                      options: Container.Options(environment: [:], observers: [observer]))
        _ = try container.resolveSynchronously(Sessions.self)
        await #expect(throws: ShutdownError.self) { try await container.shutdown() }
        let report = try #require(container.shutdownReport)
        #expect(report.hooks.count == 1 && report.hooks[0].timedOut)
        // Stopped by its timeout, not by its end, however slow the machine.
        #expect(report.hooks[0].duration >= .milliseconds(50) && report.hooks[0].duration < .seconds(3_600))
        #expect(report.summary.hasSuffix("; 1 failed (1 timed out)"))
        #expect(observer.shutdowns.count == 1)
        // The description: the summary, then a row per hook.
        let lines = report.description.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        #expect(lines.count == 3)
        #expect(lines.first.map { $0.joined(separator: " ") } == report.summary)
        #expect(lines.dropFirst().first == ["service", "time", "outcome"])
        #expect(lines.last?.first == "Sessions" && Array(lines.last?.suffix(2) ?? []) == ["timed", "out"])
    }

    /// What a refresh or reload event shows of a failure, as its logs and the snapshot's text say it.
    @Test func aReportedFailureReadsAsOneLine() {
        #expect(ReportedFailure(.rebuildFailed, service: "Pool", errorType: "PostgresError", location: "services.yaml:3:3").description
                == "rebuildFailed Pool (services.yaml:3:3): PostgresError")
        #expect(ReportedFailure(.valueRejected, service: "Pool", message: "the new value of configuration key 'pool.size' cannot be used").description
                == "valueRejected Pool: the new value of configuration key 'pool.size' cannot be used")
        #expect(ReportedFailure(.startFailed, errorType: "AppError", message: "at launch").description == "startFailed: AppError: at launch")
        #expect(ReportedFailure(.manifestError, location: "services.yaml:9:1").description == "manifestError (services.yaml:9:1)")
    }

    final class Slow: Sendable {}
    final class Fast: Sendable {}

    /// Two eager services built at once, where `Fast`'s factory asks for `Slow` while the start's
    /// other task builds it: `Fast` lists `Slow` and its own time leaves the wait out, so the
    /// slowest row is `Slow` (it was `Fast`, with the wait as its own time and no dependency).
    @Test func aBuildThatWaitedForAnotherTasksBuildListsItAndLeavesTheWaitOut() async throws {
        let slowStarted = Atomic<Bool>(false)
        let registry = FactoryRegistry()
        registry.factory("slow") { (_: FactoryContext) async throws -> Slow in
            slowStarted.store(true, ordering: .releasing)
            try await Task.sleep(for: .milliseconds(300))
            return Slow()
        }
        registry.factory("fast") { (r: FactoryContext) async throws -> Fast in
            // Asks for Slow only once the other task builds it, so that it waits for that build.
            while !slowStarted.load(ordering: .acquiring) { try await Task.sleep(for: .milliseconds(1)) }
            _ = try await r.resolve(Slow.self)
            return Fast()
        }
        let path = try TestSupport.temporaryFile("""
            wiring: 1
            services:
              Slow: { factory: slow, scope: singleton, eager: true }
              Fast: { factory: fast, scope: singleton, eager: true }
            """, name: "services.yaml")
        let container = try Container(manifest: path, registry: registry, contexts: .none, options: .init(environment: [:]))
        try await container.start()
        let report = try #require(container.startupReport)
        let fast = try #require(report.builds.first { $0.service == "Fast" })
        let slow = try #require(report.builds.first { $0.service == "Slow" })
        #expect(report.builds.count == 2)
        #expect(fast.dependencies == ["Slow"])
        #expect(slow.duration >= .milliseconds(300) && fast.duration < slow.duration)
        #expect(report.slowest.first?.service.description == "Slow")
        try await container.shutdown()
    }

    /// Collects the build events.
    struct CollectingObserver: ContainerObserver {
        let events = Locked<[BuildEvent]>([])
        func containerBuilt(_ build: BuildEvent) { events.withLock { $0.append(build) } }
    }

    @Test(arguments: [false, true])
    func aBuildAfterStartIsToldItsOwnTimeWithoutTheBuildsItAskedFor(async: Bool) async throws {
        let registry = FactoryRegistry()
        if async {
            registry.factory("database") { _ in
                try await Task.sleep(for: .milliseconds(40))
                return SlowDatabase()
            }
            registry.factory("store") { r in
                _ = try await r.resolve(SlowDatabase.self)
                return SlowStore()
            }
        } else {
            registry.factory("database") { _ in
                usleep(40_000)
                return SlowDatabase()
            }
            registry.factory("store") { r in
                _ = try r.resolve(SlowDatabase.self)
                return SlowStore()
            }
        }
        let path = try TestSupport.temporaryFile("""
            wiring: 1
            services:
              SlowStore: { factory: store, scope: singleton }
              SlowDatabase: { factory: database, scope: cached }
            """, name: "services.yaml")
        let observer = CollectingObserver()
        let container = try Container(manifest: path, registry: registry, contexts: .none,
                                      options: .init(environment: [:], observers: [observer]))
        _ = try await container.resolve(SlowStore.self)
        let events = observer.events.withLock { $0 }
        try #require(events.map(\.service) == ["SlowDatabase", "SlowStore"])
        let (database, store) = (events[0], events[1])
        #expect(!store.duringStart && database.duration == database.elapsed && database.elapsed >= .milliseconds(40))
        // By construction: the database's whole build is outside the store's own time.
        #expect(store.duration + database.elapsed <= store.elapsed)
        try await container.shutdown()
    }

    /// Makes the build it runs the task's current one, as a tracer makes its span current.
    struct CurrentBuildObserver: ContainerObserver {
        @TaskLocal static var current: String?
        @TaskLocal static var starting = false

        nonisolated(nonsending) func observingStart<E: Error>(_ body: nonisolated(nonsending) () async throws(E) -> Void) async throws(E) {
            let result = await Self.$starting.withValue(true) { () async -> Result<Void, E> in
                do throws(E) { return .success(try await body()) } catch { return .failure(error) }
            }
            try result.get()
        }
        func observingBuild<R, E: Error>(_ build: BuildStart, _ body: () throws(E) -> R) throws(E) -> R {
            try Self.$current.withValue(build.service.description) { Result { () throws(E) -> R in try body() } }.get()
        }
        nonisolated(nonsending) func observingBuild<R, E: Error>(
            _ build: BuildStart, _ body: nonisolated(nonsending) () async throws(E) -> R
        ) async throws(E) -> R {
            let result = await Self.$current.withValue(build.service.description) { () async -> Result<R, E> in
                do throws(E) { return .success(try await body()) } catch { return .failure(error) }
            }
            return try result.get()
        }
    }

    @Test func duringStartEachFactoryRunsInsideItsObserversBuildAndAfterStartNone() async throws {
        let seen = Locked<[String]>([])
        @Sendable func saw(_ factory: String) { seen.withLock { $0.append("\(factory): \(CurrentBuildObserver.current ?? "-") \(CurrentBuildObserver.starting)") } }
        let registry = FactoryRegistry()
        registry.factory("store") { r in
            saw("store")
            _ = try await r.resolve(SlowDatabase.self)
            _ = try resolveSynchronously(Fresh.self, from: r)
            return SlowStore()
        }
        registry.factory("database") { _ in
            saw("database")
            return SlowDatabase()
        }
        registry.factory("fresh") { _ in
            saw("fresh")
            return Fresh()
        }
        let path = try TestSupport.temporaryFile("""
            wiring: 1
            services:
              SlowStore: { factory: store, scope: singleton, eager: true }
              SlowDatabase: { factory: database, scope: singleton }
              Fresh: { factory: fresh, scope: unique }
            """, name: "services.yaml")
        let container = try Container(manifest: path, registry: registry, contexts: .none,
                                      options: .init(environment: [:], observers: [CurrentBuildObserver()]))
        try await container.start()
        _ = try await container.resolve(Fresh.self)
        #expect(seen.withLock { $0 } == ["store: SlowStore true", "database: SlowDatabase true", "fresh: Fresh true", "fresh: - false"])
        try await container.shutdown()
    }
}
