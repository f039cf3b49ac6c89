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
        #expect(manifest.files.count == 2)
        #expect(Set(manifest.contexts.map(\.name)) == ["test", "staging", "production"])
        #expect(manifest.services.contains { $0.decorates != nil })
        #expect(manifest.services.contains { !$0.names.isEmpty })
        #expect(manifest.services.contains { !$0.implements.isEmpty })
    }
}
