import Foundation
import Testing
@testable import Wiring
import WiringCommands

@Suite("The declared graph, checked statically")
struct DeclaredGraphTests {
    /// Writes `files` to a fresh folder and validates the first, every context checked; returns
    /// the headlines with the folder removed.
    static func validate(_ files: [(String, String)]) throws -> [String] {
        let folder = try TestSupport.temporaryFolder()
        for (name, text) in files { try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        let result = ManifestLoader(environment: [:]).validate(folder.appendingPathComponent(files[0].0).path,
                                                               options: ValidationOptions(contexts: [], eachContext: true, factoryKeys: nil))
        return result.diagnostics.map { $0.headline.replacingOccurrences(of: folder.path + "/", with: "") }
    }

    @Test func aCycleAcrossAnImportAndAContextIsReportedOnceWithEveryEdge() throws {
        let headlines = try Self.validate([
            ("services.yaml", """
                wiring: 1
                imports: [logging.yaml]
                services:
                  App: { scope: singleton, args: { store: !service NoteStore } }
                  NoteStore: { scope: singleton, args: { log: !service Logger } }
                contexts:
                  debug:
                    services:
                      Logger: { args: { app: !service App } }
                """),
            ("logging.yaml", """
                wiring: 1
                services:
                  Logger: { scope: singleton }
                """),
        ])
        #expect(headlines == [
            "services.yaml:4:43: error: circular dependency through declared references: App → NoteStore (services.yaml:4:43) → Logger (services.yaml:5:47) → App (services.yaml:9:30)",
        ])
    }

    @Test func captiveDependenciesAreWarningsWithTheirPath() throws {
        let headlines = try Self.validate([("services.yaml", """
            wiring: 1
            scopes: { custom: { session: { ttl: 5m } } }
            services:
              App: { scope: singleton, args: { unit: !service Unit, session: !service Session } }
              Unit: { scope: scoped, args: { clock: !service Clock } }
              Clock: { scope: unique }
              Session: { scope: session }
            """)])
        #expect(headlines == [
            "services.yaml:4:42: warning: captive dependency: App (singleton) → Unit (scoped) through argument 'unit': the singleton instance would keep one Unit for longer than its scope",
            "services.yaml:4:66: warning: captive dependency: App (singleton) → Session (session) through argument 'session': the singleton instance would keep one Session for longer than its scope",
            "services.yaml:5:41: warning: captive dependency: Unit (scoped) → Clock (unique) through argument 'clock': the scoped instance would keep one Clock for longer than its scope",
        ])
    }

    @Test func unknownAndSwitchedOffServicesNamesAndTags() throws {
        let headlines = try Self.validate([("services.yaml", """
            wiring: 1
            services:
              App:
                args:
                  store: !service NoteStor
                  archive: !service { service: NoteStore, name: arkive }
                  checks: !tagged helth
                  clock: !service Clock
                  odd: !service { service: NoteStore, nme: x }
              NoteStore: { tags: [health], names: { archive: {} } }
              Clock: {}
            contexts:
              test:
                services:
                  Clock: { enabled: false }
            """)])
        #expect(headlines == [
            "services.yaml:5:14: error: argument 'store' of service 'App' refers to unknown service 'NoteStor'; did you mean 'NoteStore'?",
            "services.yaml:6:16: error: argument 'archive' of service 'App' refers to variant 'arkive' of service 'NoteStore', which it does not declare; did you mean 'archive'? (its names: archive)",
            "services.yaml:7:15: warning: argument 'checks' of service 'App' reads the services tagged 'helth', but no service has that tag; did you mean 'health'?",
            "services.yaml:9:43: error: unknown key 'nme' in a !service reference; did you mean 'name'? (keys: service, name)",
        ])
        let fixed = try Self.validate([("services.yaml", """
            wiring: 1
            services:
              App: { args: { clock: !service Clock } }
              Clock: {}
            contexts:
              test:
                services:
                  Clock: { enabled: false }
            """)])
        #expect(fixed == [
            "services.yaml:3:25: error: argument 'clock' of service 'App' refers to service 'Clock', which is switched off in context 'test' (services.yaml:8:25)",
        ])
    }

    @Test func aReferenceInsideAnArgumentIsReportedWithItsPath() throws {
        let headlines = try Self.validate([("services.yaml", """
            wiring: 1
            services:
              App:
                args:
                  db: { primary: !service Store, replica: !service Stor }
                  pools: [!service Store, { main: [0, !service Missing] }]
                  plain: [1, { a: b }]
              Store: {}
            """)])
        #expect(headlines == [
            "services.yaml:5:47: error: argument 'db.replica' of service 'App' refers to unknown service 'Stor'; did you mean 'Store'?",
            "services.yaml:6:43: error: argument 'pools[1].main[1]' of service 'App' refers to unknown service 'Missing'",
        ])
    }

    /// `!service` names a service key: naming a type that services implement is an error that
    /// says which services implement it, instead of calling the type an unknown service.
    @Test func aReferenceToAnImplementedTypeSaysWhoImplementsIt() throws {
        let headlines = try Self.validate([("services.yaml", """
            wiring: 1
            services:
              App: { args: { bin: !service Bin, fast: !service { service: NamedBin, name: fast } } }
              FastBin: { implements: [Bin, { type: NamedBin, name: fast }] }
              SlowBin: { implements: [{ type: NamedBin, name: slow }] }
            """)])
        #expect(headlines == [
            "services.yaml:3:23: error: argument 'bin' of service 'App' refers to 'Bin', a type implemented by 'FastBin'; "
                + "!service names a service's key, not a type it implements",
            "services.yaml:3:43: error: argument 'fast' of service 'App' refers to 'NamedBin', a type implemented by 'FastBin' and 'SlowBin'; "
                + "!service names a service's key, not a type it implements",
        ])
    }

    static let graphManifest = """
        wiring: 1
        services:
          App: { scope: unique, args: { store: !service NoteStore, checks: !tagged health } }
          NoteStore: { scope: singleton, tags: [health], names: { archive: { tags: [cold] } } }
          Report: { scope: singleton, args: { app: !service App, archive: !service { service: NoteStore, name: archive } } }
        """

    static func loaded() throws -> Manifest {
        let path = try TestSupport.temporaryFile(graphManifest, name: "services.yaml")
        return try #require(ManifestLoader(environment: [:]).validate(path).manifest)
    }

    @Test func graphDrawsDeclaredReferencesSolidAndTagsInBothFormats() throws {
        let manifest = try Self.loaded()
        let dot = manifest.graph(format: .dot)
        #expect(dot.contains("  n0 -> n1 [label=\"store\"];"))
        #expect(dot.contains("  n1 -> n4 [label=\"tag\", style=dashed];"))
        #expect(dot.contains("  n0 -> n4 [label=\"checks\"];"))
        #expect(dot.contains("  n4 [label=\"#health\", shape=hexagon];"))
        #expect(dot.contains("  n3 -> n2 [label=\"archive\"];"))   // to the named variant's node
        #expect(dot.contains("  n2 -> n5 [label=\"tag\", style=dashed];"))
        let mermaid = manifest.graph(format: .mermaid)
        #expect(mermaid.contains("  n0 -->|store| n1"))
        #expect(mermaid.contains("  n4{{\"#health\"}}"))
        #expect(mermaid.contains("  n1 -.->|tag| n4"))
    }

    @Test func explainListsDependenciesAndDependentsWithPositions() throws {
        let explained = try Self.loaded().explain("NoteStore", environment: [:]).description
            .replacing(#/[^ ]*/services\.yaml/#, with: "services.yaml")
        #expect(explained.contains("  depended on by  App (store)       services.yaml:3:40\n"))
        #expect(explained.contains("  depended on by  App (checks)      services.yaml:3:68\n"))
        #expect(explained.contains("  depended on by  Report (archive)  services.yaml:5:67\n"))
        let app = try Self.loaded().explain("App", environment: [:]).description
        #expect(app.contains("  depends on      NoteStore (args.store)"))
        #expect(app.contains("  depends on      tagged health (args.checks)"))
        #expect(app.contains("  depended on by  Report (app)"))
    }

    @Test func aContainerWarnsOfCaptiveDependencies() throws {
        let registry = FactoryRegistry()
        for key in ["app", "note-store", "report"] { registry.factory(key) { _ in key } }
        let path = try TestSupport.temporaryFile(Self.graphManifest
            .replacingOccurrences(of: "App: {", with: "App: { factory: app,")
            .replacingOccurrences(of: "NoteStore: {", with: "NoteStore: { factory: note-store,")
            .replacingOccurrences(of: "Report: {", with: "Report: { factory: report,"), name: "services.yaml")
        let container = try Container(manifest: path, registry: registry, contexts: .none, options: .init(environment: [:]))
        #expect(container.diagnostics.map(\.message).contains(
            "captive dependency: Report (singleton) → App (unique) through argument 'app': the singleton instance would keep one App for longer than its scope"))
    }

    @Test func aContainerRecordsWhatFactoriesResolveInCodeForGraphInstantiate() async throws {
        let registry = FactoryRegistry()
        registry.factory("app") { r in
            _ = try await r.resolve(key: "NoteStore")   // awaited: NoteStore's factory is async
            return "app"
        }
        registry.factory("note-store") { r in
            _ = try await r.resolve(key: "Report")
            return "store"
        }
        registry.factory("report") { _ in "report" }
        let path = try TestSupport.temporaryFile("""
            wiring: 1
            services:
              App: { factory: app, scope: unique }
              NoteStore: { factory: note-store, scope: singleton }
              Report: { factory: report, scope: singleton }
            """, name: "services.yaml")
        let manifest = try #require(ManifestLoader(environment: [:]).validate(path).manifest)
        var options = Container.Options(environment: [:])
        options.recordsResolvedEdges = true
        let container = try Container(manifest: manifest, registry: registry, contexts: .none, options: options)
        #expect(await container.instantiateAll().isEmpty)
        #expect(container.resolvedEdges == [ResolvedEdge(from: "App", to: "NoteStore"), ResolvedEdge(from: "NoteStore", to: "Report")])
        let dot = manifest.graph(format: .dot, resolvedEdges: container.resolvedEdges)
        #expect(dot.contains("  n0 -> n1 [label=\"resolves\", style=dashed];"))
        #expect(dot.contains("  n1 -> n2 [label=\"resolves\", style=dashed];"))
        // Off by default: nothing is recorded.
        let plain = try Container(manifest: manifest, registry: registry, contexts: .none, options: .init(environment: [:]))
        _ = await plain.instantiateAll()
        #expect(plain.resolvedEdges.isEmpty)
    }

    @Test func propertyWrappersOfAnInstanceAFactoryBuildsAreRecordedAsItsEdges() throws {
        let registry = FactoryRegistry()
        registry.factory("report") { _ in EdgeReport() }     // its @Injected resolves the clock
        registry.factory("clock") { _ in "12:00" }
        let path = try TestSupport.temporaryFile("""
            wiring: 1
            services:
              EdgeReport: { factory: report, scope: unique }
              String: { factory: clock, scope: singleton }
            """, name: "services.yaml")
        let manifest = try #require(ManifestLoader(environment: [:]).validate(path).manifest)
        var options = Container.Options(environment: [:])
        options.recordsResolvedEdges = true
        let container = try Container(manifest: manifest, registry: registry, contexts: .none, options: options)
        _ = try container.resolve(String.self)           // built first: the edge must not need a build
        #expect(try container.resolve(EdgeReport.self).clock == "12:00")
        #expect(container.resolvedEdges == [ResolvedEdge(from: "EdgeReport", to: "String")])
        // A wrapper resolved outside any factory is nobody's dependency.
        _ = Container.using(container) { EdgeReport() }
        #expect(container.resolvedEdges.count == 1)
    }

    @Test func aCaptiveDependencyAContextBringsIsReportedWithTheContext() throws {
        let folder = try TestSupport.temporaryFolder()
        let path = folder.appendingPathComponent("services.yaml").path
        try """
            wiring: 1
            services:
              App: { scope: singleton }
              Clock: { scope: unique }
            contexts:
              test:
                services:
                  App: { args: { clock: !service Clock } }
            """.write(toFile: path, atomically: true, encoding: .utf8)
        let diagnostics = ManifestLoader(environment: [:]).validate(path).diagnostics
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.headline.hasSuffix(
            "services.yaml:8:29: warning: captive dependency: App (singleton) → Clock (unique) through argument 'clock': the singleton instance would keep one Clock for longer than its scope") == true)
        #expect(diagnostics.first?.context == "test")
        #expect(diagnostics.first?.notes.map(\.message) == ["with context test applied"])
    }
}

/// A type whose dependency comes through a property wrapper, not its factory.
private final class EdgeReport {
    @Injected var clock: String
}
