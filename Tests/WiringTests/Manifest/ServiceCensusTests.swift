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
        let (diagnostics, file) = ManifestLoader.readFile(Array(text.utf8), path: "big.yaml", limits: .default, environment: [:])
        #expect(diagnostics.isEmpty)
        #expect(file.services.count == 2_000)
        #expect(file.census == ServiceCensus(of: file.services))
        #expect(file.census.decorators.count == 54)
        // 667 services list two entries; one is named, the other claims a name for each of
        // the two variants of the 134 services that have them.
        #expect(file.census.implementsEntries == 1_334)
        #expect(file.census.namedClaims == 667 + 134 * 2)
    }

    @Test func servicesMergedIntoTheSectionAreCountedAfterTheOthers() throws {
        // A merge key in the section: its services follow those written there.
        let text = "wiring: 1\nx-more: &more\n" + services(0..<20, prefix: "M") + "services:\n  <<: *more\n" + services(0..<40)
        let (diagnostics, file) = ManifestLoader.readFile(Array(text.utf8), path: "merged.yaml", limits: .default, environment: [:])
        #expect(diagnostics.isEmpty)
        #expect(file.services.count == 60)
        #expect(file.census == ServiceCensus(of: file.services))
    }

    @Test func aManifestOfSeveralFilesCountsEveryFilesServicesInOrder() throws {
        let folder = try TestSupport.temporaryFolder()
        try ("wiring: 1\nservices:\n" + services(0..<300, prefix: "I")).write(
            to: folder.appendingPathComponent("imported.yaml"), atomically: true, encoding: .utf8)
        try ("wiring: 1\nimports: [imported.yaml]\nservices:\n" + services(0..<3_000)).write(
            to: folder.appendingPathComponent("root.yaml"), atomically: true, encoding: .utf8)
        let manifest = try ManifestLoader(environment: [:]).load(folder.appendingPathComponent("root.yaml").path)
        #expect(manifest.services.count == 3_300)
        #expect(manifest.census == ServiceCensus(of: manifest.services))
        #expect(manifest.census.decorators.contains { manifest.services[$0].key == "I11" })
    }

    @Test func aServiceDeclaredTwiceLeavesTheCensusToTheServicesKept() throws {
        let folder = try TestSupport.temporaryFolder()
        try ("wiring: 1\nservices:\n" + services(0..<50)).write(
            to: folder.appendingPathComponent("imported.yaml"), atomically: true, encoding: .utf8)
        try ("wiring: 1\nimports: [imported.yaml]\nservices:\n" + services(0..<100)).write(
            to: folder.appendingPathComponent("root.yaml"), atomically: true, encoding: .utf8)
        let read = ManifestLoader(environment: [:]).read(folder.appendingPathComponent("root.yaml").path)
        #expect(read.diagnostics.contains { $0.message == "service 'S0' is declared twice" })
        #expect(read.manifest.services.count == 100)
        #expect(read.manifest.census == ServiceCensus(of: read.manifest.services))
    }
}
