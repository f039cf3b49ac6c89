import Foundation
import Testing
import Wiring
import WiringCommands

/// What the corpus's typed factories read.
private struct CorpusPoolArgs: Decodable, Sendable {
    enum Mode: String, Decodable, CaseIterable, Sendable { case fast, safe }
    struct TLS: Decodable, Sendable {
        var certificate: String
        var port: UInt16?
    }
    var url: String
    var size: Int?
    var mode: Mode
    var timeout: Duration?
    var retries: UInt8?
    var port: UInt16?
    var tls: TLS?
}

private final class CorpusClock: Sendable {}

private struct CorpusAuditArgs: Decodable, Sendable {
    @Reference var clock: CorpusClock
}

/// Every file of Fixtures/bad-input-typed fails the build of a container with the diagnostics
/// its expected.txt lists, at their positions, with no factory run; `validate` with the
/// registry's schemas (what an app's `validate` and `wiring validate --catalog` run) reports
/// the same, except what only the type's own `init(from:)` knows.
@Suite("Bad-input corpus: typed arguments")
struct TypedArgumentCorpusTests {
    static let folder = TestSupport.fixture("bad-input-typed")
    static let environment = ["PORT": "eighty"]
    /// Files whose problem only decoding finds: a type's own `init(from:)` throwing.
    static let decodedOnly: Set<String> = ["own-error.yaml"]

    static let factoryCalls = Mutex(0)

    static func registry() -> FactoryRegistry {
        let registry = FactoryRegistry()
        registry.factory("pool", args: CorpusPoolArgs.self) { _, args in
            factoryCalls.withLock { $0 += 1 }
            return args.url
        }
        registry.factory("clock") { _ in
            factoryCalls.withLock { $0 += 1 }
            return CorpusClock()
        }
        registry.factory("audited", args: CorpusAuditArgs.self) { _, args in args.clock }
        registry.factory("window", args: RangeArgs.self) { _, args in args.low }
        return registry
    }

    static let expectations = TestSupport.expectations(in: folder)

    static func headlines(_ diagnostics: [Diagnostic]) -> [String] {
        diagnostics.filter { $0.severity == .error }.map { $0.headline.replacingOccurrences(of: folder + "/", with: "") }
    }

    @Test func theCorpusHasOneExpectationPerFile() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder).filter { $0.hasSuffix(".yaml") }.sorted()
        #expect(files.count >= 14)
        #expect(Self.expectations.map(\.file) == files)
    }

    @Test(arguments: TypedArgumentCorpusTests.expectations.map(\.file))
    func eachFileFailsTheBuildAtItsLinesWithNoFactoryRun(_ file: String) throws {
        let expected = try #require(Self.expectations.first { $0.file == file }).lines
        #expect(!expected.isEmpty)
        let path = Self.folder + "/" + file
        let before = Self.factoryCalls.withLock { $0 }
        let error = #expect(throws: ManifestError.self) {
            try Container(manifest: path, registry: Self.registry(), contexts: .none, options: .init(environment: Self.environment))
        }
        #expect(Self.headlines(error?.diagnostics ?? []) == expected)
        #expect(Self.factoryCalls.withLock { $0 } == before)
        #expect(!(error?.description.contains("eighty") ?? true) && !(error?.description.contains("hunter2") ?? true))

        let validated = ManifestLoader(environment: Self.environment)
            .validate(path, options: ValidationOptions(eachContext: true, argumentSchemas: FactoryCatalog(registry: Self.registry()).arguments))
        #expect(Self.headlines(validated.diagnostics) == (Self.decodedOnly.contains(file) ? [] : expected))
    }
}

import Synchronization
