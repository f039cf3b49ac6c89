import Foundation
import Testing
import Wiring
@testable import WiringCommands

/// Autowired factories' dependencies in the tools, with the real `wiring` binary: from an app's
/// catalog, `validate`, `graph`, `explain` and `build-check` (the build plugin's tool) see them
/// before anything runs.
@Suite("Autowiring in the tools (binary)")
struct AutowiringCommandTests {
    /// A manifest whose NoteService is autowired and whose Clock is misspelt.
    static let manifest = """
        wiring: 1
        services:
          NoteStore: { factory: store, scope: singleton }
          SystemClok: { factory: clock, implements: [Clok] }
          NoteService: { factory: note-service, scope: singleton }

        """

    /// The folder, with the manifest, the app's catalog (as its `catalog` command writes it,
    /// from a registry with an autowired factory) and the build plugin's configuration.
    func folder(manifest: String = Self.manifest) throws -> URL {
        final class NoteStore: Sendable {}
        final class Clock: Sendable {}
        final class NoteService: Sendable { init(store: NoteStore, clock: Clock, audit: NoteStore?) {} }
        let registry = FactoryRegistry()
        registry.factory("store") { _ in NoteStore() }
        registry.factory("clock") { _ in Clock() }
        registry.autowire("note-service", NoteService.init)
        let folder = try TestSupport.temporaryFolder()
        try manifest.write(to: folder.appendingPathComponent("services.yaml"), atomically: true, encoding: .utf8)
        try FactoryCatalog(registry: registry).jsonData().write(to: folder.appendingPathComponent("factories.json"))
        try #"{ "registrations": "off", "catalog": "factories.json" }"#
            .write(to: folder.appendingPathComponent("wiring-plugin.json"), atomically: true, encoding: .utf8)
        return folder
    }

    func wiring(_ arguments: [String]) throws -> BinaryRunner.Output {
        try BinaryRunner.run("wiring", arguments)
    }

    @Test func theCatalogRecordsEachAutowiredFactorysDependencyTypes() throws {
        let catalog = try String(contentsOf: try folder().appendingPathComponent("factories.json"), encoding: .utf8)
        #expect(catalog.contains("""
              "autowired" : {
                "note-service" : [
                  "NoteStore",
                  "Clock",
                  "NoteStore?"
                ]
              }
            """), "\(catalog)")
    }

    @Test func validateReportsADependencyNoServiceProvidesAtTheServiceWithASuggestion() throws {
        let folder = try folder()
        let services = folder.appendingPathComponent("services.yaml").path
        let output = try wiring(["validate", services, "--catalog", folder.appendingPathComponent("factories.json").path])
        #expect(output.status == 1)
        #expect(output.stdout.contains(
            "\(services):5:27: error: autowired parameter 'Clock' of service 'NoteService' refers to unknown service 'Clock'; did you mean 'Clok'?"),
            "\(output.stdout)")
        // Without the catalog, nothing is known of the factory's parameters.
        #expect(try wiring(["validate", services]).status == 0)
    }

    @Test func theBuildPluginsToolReportsItAtBuildTime() throws {
        let folder = try folder()
        let output = try wiring(["build-check", "--manifest", folder.appendingPathComponent("services.yaml").path,
                                 "--config", folder.appendingPathComponent("wiring-plugin.json").path,
                                 "--output", folder.appendingPathComponent("out/WiringFactoryKeys.swift").path])
        #expect(output.status == 1)
        #expect(output.stdout.contains("services.yaml:5:27: error: autowired parameter 'Clock' of service 'NoteService' refers to unknown service 'Clock'"),
                "\(output.stdout)")
    }

    @Test func graphAndExplainDrawAutowiredEdgesBesideDeclaredOnes() throws {
        let folder = try folder(manifest: Self.manifest.replacingOccurrences(of: "Clok", with: "Clock"))
        let services = folder.appendingPathComponent("services.yaml").path
        let catalog = folder.appendingPathComponent("factories.json").path
        let graph = try wiring(["graph", services, "--catalog", catalog, "--format", "mermaid"])
        #expect(graph.status == 0)
        #expect(graph.stdout.contains("n3 -->|autowired| n0"), "\(graph.stdout)")   // NoteService → NoteStore
        #expect(graph.stdout.contains("n3 -->|autowired| n1"), "\(graph.stdout)")   // NoteService → SystemClock, which implements Clock
        // Three edges: the optional NoteStore? has its service too.
        #expect(graph.stdout.components(separatedBy: "|autowired|").count - 1 == 3)
        let explain = try wiring(["explain", services, "NoteService", "--catalog", catalog])
        #expect(explain.status == 0)
        #expect(explain.stdout.contains("NoteStore (autowired)"), "\(explain.stdout)")
        #expect(explain.stdout.contains("SystemClock (autowired)"), "\(explain.stdout)")
    }

    @Test func aCycleThroughAutowiredFactoriesIsReported() throws {
        let catalog = try TestSupport.temporaryFile(
            #"{"wiring-catalog": 2, "factories": ["a", "b"], "autowired": {"a": ["B"], "b": ["A"]}}"#, name: "factories.json")
        let manifest = try TestSupport.temporaryFile("wiring: 1\nservices:\n  A: { factory: a }\n  B: { factory: b }\n", name: "cycle.yaml")
        let output = try wiring(["validate", manifest, "--catalog", catalog])
        #expect(output.status == 1)
        #expect(output.stdout.contains("error: circular dependency through declared references: A → B"), "\(output.stdout)")
    }
}
