import Foundation
import Testing
import Wiring

@Suite("config-examples")
struct ConfigExamplesTests {
    @Test func theExampleManifestsLoadWithNoDiagnostics() throws {
        let path = TestSupport.packageRoot + "/config-examples/services.yaml"
        let result = ManifestLoader(environment: [:]).validate(path)
        #expect(result.diagnostics.map(\.description) == [])
        let manifest = try #require(result.manifest)
        #expect(manifest.files.map { ($0 as NSString).lastPathComponent } == ["services.yaml", "logging.yaml", "services.production.yaml"])
        #expect(Set(manifest.contexts.map(\.name)) == ["test", "staging", "production"])
        // Each context applies cleanly; production comes from logging.yaml's block and the overlay.
        for context in manifest.contexts {
            #expect(throws: Never.self) { try manifest.applying(contexts: [context.name]) }
        }
        let production = try manifest.applying(contexts: ["production"])
        #expect(production.service("Notifier")?.factoryKey == "webhook-notifier")
        #expect(production.parameter("logLevel")?.value.description == "warning")
        #expect(manifest.services.contains { $0.decorates != nil })
        #expect(manifest.services.contains { !$0.names.isEmpty })
        #expect(manifest.services.contains { !$0.implements.isEmpty })
        // What a program outside the package reads of the services: their keys, in order.
        #expect(manifest.serviceKeys == manifest.services.map(\.key))
        #expect(manifest.serviceKeys.first == manifest.services.first?.key && manifest.serviceKeys.contains("NoteStore"))
    }
}
