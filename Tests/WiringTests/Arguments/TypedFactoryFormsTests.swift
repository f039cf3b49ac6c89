import Foundation
import Testing
import Wiring

/// A connection made by an async typed factory, closed by its shutdown hook.
final class TypedConnection: Sendable {
    let args: PoolArgs
    let closed = Mutex(false)
    init(_ args: PoolArgs) { self.args = args }
    static func open(_ args: PoolArgs) async throws -> TypedConnection {
        try await Task.sleep(for: .milliseconds(1))
        return TypedConnection(args)
    }
}

@MainActor final class TitledViewModel {
    let title: String
    var subtitle = ""
    init(title: String) { self.title = title }
}

struct TitleArgs: Decodable, Sendable { var title: String }

/// A store a typed factory receives through a `@Reference` field.
final class AuditLog: Sendable {}
final class ReportService: Sendable {
    let args: ReportArgs
    init(_ args: ReportArgs) { self.args = args }
}
struct ReportArgs: Decodable, Sendable {
    var heading: String
    @Reference var log: AuditLog
    @Reference var sinks: [AuditLog]
}

import Synchronization

@Suite("Typed arguments: every form of factory")
struct TypedFactoryFormsTests {
    static func container(_ yaml: String, _ registry: FactoryRegistry, contexts: ContextSelection = .none) throws -> Container {
        let path = try TestSupport.temporaryFile("wiring: 1\n" + yaml, name: "services.yaml")
        return try Container(manifest: path, registry: registry, contexts: contexts, options: .init(environment: [:]))
    }

    @Test func anAsyncFactoryWithAShutdownHookGetsItsArguments() async throws {
        let registry = FactoryRegistry()
        registry.factory("pool", args: PoolArgs.self) { r, args in try await TypedConnection.open(args) }
            .onShutdown { connection in connection.closed.withLock { $0 = true } }
        let container = try Self.container("""
            services:
              TypedConnection: { factory: pool, scope: singleton, args: { url: "postgres://db", mode: fast } }
            """, registry)
        let connection: TypedConnection = try await container.resolve()
        #expect(connection.args.url == "postgres://db" && connection.args.mode == .fast)
        try await container.shutdown()
        #expect(connection.closed.withLock { $0 })
    }

    @Test @MainActor func aMainActorFactoryAndPropertyHooksWork() async throws {
        let registry = FactoryRegistry()
        registry.factory("view-model", args: TitleArgs.self) { @MainActor _, args in TitledViewModel(title: args.title) }
        let container = try Self.container("""
            services:
              TitledViewModel: { factory: view-model, args: { title: Notes } }
            """, registry)
        let model: TitledViewModel = try await container.resolve()
        #expect(model.title == "Notes")

        let hooked = FactoryRegistry()
        hooked.factory("report", args: TitleArgs.self) { _, args in TypedConnection(PoolArgs(url: args.title, mode: .safe)) }
            .resolvingProperties { _, connection in connection.closed.withLock { $0 = true } }
        let other = try Self.container("""
            services:
              TypedConnection: { factory: report, args: { title: x } }
            """, hooked)
        let hookedConnection = try await other.resolve(TypedConnection.self)
        #expect(hookedConnection.closed.withLock { $0 })
    }

    @Test func referencesInTypedArgumentsResolveInTheResolution() async throws {
        let registry = FactoryRegistry()
        registry.factory("log") { _ in AuditLog() }
        registry.factory("report", args: ReportArgs.self) { _, args in ReportService(args) }
        registry.factory("async-report", args: ReportArgs.self) { _, args in
            try await Task.sleep(for: .milliseconds(1))
            return ReportService(args)
        }
        let yaml = """
            services:
              AuditLog: { factory: log, scope: singleton, tags: [sink] }
              ReportService:
                factory: report
                args: { heading: Daily, log: !service AuditLog, sinks: !tagged sink }
                names:
                  async: { factory: async-report }
            """
        let container = try Self.container(yaml, registry)
        let log: AuditLog = try await container.resolve()
        let report: ReportService = try await container.resolve()
        #expect(report.args.heading == "Daily")
        #expect(report.args.log === log)
        #expect(report.args.sinks.count == 1 && report.args.sinks[0] === log)
        let awaited = try await container.resolve(ReportService.self, name: "async")
        #expect(awaited.args.log === log)

        // A plain value where the type reads a reference, and the reverse, fail the build.
        let wrong = #expect(throws: ManifestError.self) {
            try Self.container("""
                services:
                  AuditLog: { factory: log }
                  ReportService: { factory: report, args: { heading: !service AuditLog, log: AuditLog, sinks: [] } }
                """, registry)
        }
        #expect(wrong?.errors.map(\.message) == [
            "service ReportService: argument 'heading': is a service reference, but factory 'report' reads a string there",
            "service ReportService: argument 'log': expected a service reference (!service or !tagged) for AuditLog, found a string 'AuditLog'",
        ])
    }

    /// An async typed factory whose `@Reference` fields sit in a list of references and in a
    /// nested mapping: each service is awaited (its factory is async) before the arguments are
    /// handed over.
    @Test func anAsyncTypedFactoryAwaitsReferencesInListsAndNestedMappings() async throws {
        struct Target: Decodable, Sendable { @Reference var log: AuditLog }
        struct NestedArgs: Decodable, Sendable {
            @Reference var sinks: [AuditLog]
            var target: Target
        }
        let registry = FactoryRegistry()
        registry.factory("log") { _ in
            await Task.yield()
            return AuditLog()
        }
        registry.factory("nested", args: NestedArgs.self) { _, args in
            await Task.yield()
            return args
        }
        let container = try Self.container("""
            services:
              AuditLog: { factory: log, scope: singleton, names: { spare: {} } }
              Nested:
                factory: nested
                args: { sinks: [!service AuditLog, !service { service: AuditLog, name: spare }], target: { log: !service AuditLog } }
            """, registry)
        let args = try #require(try await container.resolve(key: "Nested") as? NestedArgs)
        let log = try await container.resolve(AuditLog.self)
        #expect(args.sinks.count == 2 && args.sinks[0] === log && args.sinks[1] !== log)
        #expect(args.target.log === log)
    }

    /// Arguments built in code, as a test of the service builds them: each `@Reference` field
    /// given its instance.
    @Test func argumentsWithReferencesCanBeBuiltInCode() {
        let log = AuditLog()
        let report = ReportService(ReportArgs(heading: "Weekly", log: log, sinks: [log, AuditLog()]))
        #expect(report.args.heading == "Weekly" && report.args.log === log)
        #expect(report.args.sinks.count == 2 && report.args.sinks[0] === log)
    }

    @Test func contextsAndAddedServicesAreCheckedWhenTheyApply() throws {
        let registry = FactoryRegistry()
        registry.factory("pool", args: PoolArgs.self) { _, args in ArgsPool(args) }
        let yaml = """
            services:
              ArgsPool: { factory: pool, args: { url: "postgres://db", mode: fast } }
            contexts:
              test:
                services:
                  ArgsPool: { args: { url: "sqlite://", mode: slow } }
                add:
                  TypedConnection: { factory: pool, args: { url: 5 } }
            """
        let plain = try Self.container(yaml, registry)
        #expect(try plain.resolve(ArgsPool.self).args.mode == .fast)
        let error = #expect(throws: ManifestError.self) {
            try Self.container(yaml, registry, contexts: ContextSelection(contexts: ["test"], environmentVariable: nil, launchArgument: nil, detectsTests: false))
        }
        #expect(error?.errors.map(\.message) == [
            "service ArgsPool: argument 'mode': 'slow' is not a case of Mode (fast, safe)",
            "service TypedConnection: missing argument 'mode' (a Mode (fast, safe))",
            "service TypedConnection: argument 'url': expected a string, found an integer (5)",
        ])
    }

    @Test func rArgStillReadsTheSameArgumentsInATypedFactory() throws {
        let registry = FactoryRegistry()
        registry.factory("pool", args: PoolArgs.self) { r, args in
            let url = try r.arg("url", as: String.self)
            #expect(url == args.url)
            return ArgsPool(args)
        }
        let container = try Self.container("""
            services:
              ArgsPool: { factory: pool, args: { url: "postgres://db", mode: safe } }
            """, registry)
        _ = try container.resolve(ArgsPool.self)
    }
}
