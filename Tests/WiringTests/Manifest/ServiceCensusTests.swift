import Foundation
import Testing
@testable import Wiring

/// The census a manifest carries (``ServiceCensus``) is noted while its services are decoded,
/// file by file; the validator sizes its tables by it and finds decorators
/// through it, and so does binding. It must be what counting the services gives.
@Suite("Service census")
struct ServiceCensusTests {
    /// Services with `implements` entries named and unnamed, named variants, and decorators
    /// here and there.
    private func services(_ range: Range<Int>, prefix: String = "S") -> String {
        var text = ""
        for index in range {
            text += "  \(prefix)\(index):\n    factory: f\n"
            if index % 3 == 0 { text += "    implements: [Own\(prefix)\(index), { type: Shared\(prefix)\(index), name: n\(index) }]\n" }
            if index % 5 == 0 { text += "    names:\n      alt: {}\n      other: {}\n" }
            if index % 37 == 11 { text += "    decorates: \(prefix)\(index - 1)\n" }
        }
        return text
    }

    @Test func aLargeFileCountsWhatItsServicesHold() throws {
        let text = "wiring: 1\nservices:\n" + services(0..<2_000)
        let (diagnostics, file, _) = ManifestLoader.readFile(Array(text.utf8), path: "big.yaml", limits: .default, values: ExternalValues(environment: [:]))
        #expect(diagnostics.isEmpty)
        #expect(file.services.count == 2_000)
        let census = ServiceCensus(of: file.services)
        #expect(census.count == 2_000)
        #expect(census.decorators.count == 54)
        // 667 services list two entries; one is named, the other claims a name for each of
        // the two variants of the 134 services that have them.
        #expect(census.implementsEntries == 1_334)
        #expect(census.namedClaims == 667 + 134 * 2)
    }

    @Test func servicesMergedIntoTheSectionFollowThoseWrittenThere() throws {
        let text = "wiring: 1\nx-more: &more\n" + services(0..<20, prefix: "M") + "services:\n  <<: *more\n" + services(0..<40)
        let (diagnostics, file, _) = ManifestLoader.readFile(Array(text.utf8), path: "merged.yaml", limits: .default, values: ExternalValues(environment: [:]))
        #expect(diagnostics.isEmpty)
        #expect(file.services.map(\.key) == (0..<40).map { "S\($0)" } + (0..<20).map { "M\($0)" })
        #expect(ServiceCensus(of: file.services).decorators.count == 2)
    }

    @Test func aManifestOfSeveralFilesCountsEveryFilesServicesInOrder() throws {
        let folder = try TestSupport.temporaryFolder()
        try ("wiring: 1\nservices:\n" + services(0..<300, prefix: "I")).write(
            to: folder.appendingPathComponent("imported.yaml"), atomically: true, encoding: .utf8)
        try ("wiring: 1\nimports: [imported.yaml]\nservices:\n" + services(0..<3_000)).write(
            to: folder.appendingPathComponent("root.yaml"), atomically: true, encoding: .utf8)
        let manifest = try ManifestLoader(environment: [:]).load(folder.appendingPathComponent("root.yaml").path)
        #expect(manifest.services.count == 3_300)
        #expect(manifest.census.count == 3_300)
        #expect(manifest.census.decorators.contains { manifest.services[$0].key == "I11" })
    }
}
