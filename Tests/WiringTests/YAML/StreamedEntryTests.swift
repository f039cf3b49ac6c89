import Foundation
import Testing
@testable import Wiring

/// The entries of the streamed section are written into a store as libyaml's events come, not
/// built as nodes. These tests hold that path to giving exactly the nodes and problems that
/// building every node gives: anchors, aliases, merge keys, tags, repeated keys, long scalars.
@Suite("Streamed entries")
struct StreamedEntryTests {
    /// The tree and diagnostics of `bytes` read one way, as text.
    private func dump(_ root: YAMLNode?, _ diagnostics: [Diagnostic]) -> String {
        "\(String(describing: root))\n" + diagnostics.map(\.description).joined(separator: "\n")
    }

    /// `bytes` read building every node, and read streaming `services` with the entries put
    /// back in their places.
    private func readBothWays(_ bytes: [UInt8], limits: YAMLLimits = .default) -> (built: String, streamed: String) {
        let built = YAMLReader.read(bytes, file: "f.yaml", limits: limits, pipelining: .never)
        var collector = YAMLEntryCollector()
        let streamed = YAMLReader.read(
            bytes, file: "f.yaml", limits: limits, streaming: "services", into: &collector, pipelining: .never)
        return (dump(built.root, built.diagnostics),
                dump(collector.restoring(into: streamed.root, section: "services"), streamed.diagnostics))
    }

    @Test func anchorsAliasesMergesTagsAndRepeatedKeysReadAsBuilt() {
        let text = """
            wiring: 1
            x-defaults:
              base: &base { scope: singleton, ttl: 5s }
              more: &more { factory: m, scope: graph }
              long: &long "a scalar longer than sixty-four bytes, which the store keeps as a string"
            services:
              A:
                <<: [*base, *more]
                factory: a
                args: &args { url: "$(x)/a", list: [1, 2.5, true, null, ~, 'q'], nested: { deep: [{ k: v }] } }
              B:
                <<: { scope: unique, factory: inline }
                args: *args
                names:
                  r: { args: { <<: *args, url: override, text: *long } }
              C: *base
              D:
                args: { a: 1, a: 2, b: !!str 3, c: !!int x, d: !secret s, e: *nowhere, f: !!float 1 }
                ? [complex, key]
                : value
                !!merge <<: { extra: 1 }
                "<<": quoted
              E: ~
              F:
                factory: f
                args: { many: { k1: 1, k2: 2, k3: 3, k4: 4, k5: 5, k6: 6, k7: 7, k8: 8, k9: 9, k10: 10, k3: again } }
                anchored: &inner { x: 1, <<: *base, scope: kept }
                list: &items [a, [b, c], { d: e }]
                folded: >
                  folded
                  text
              G: { factory: g, args: *inner, items: *items, <<: [*inner, { y: 2 }] }
              H: { <<: *long }
              A: repeated
            contexts:
              test: { services: { A: { args: *inner } } }

            """
        let (built, streamed) = readBothWays(Array(text.utf8))
        #expect(streamed == built)
        // The input does reach every path: the problems are all there.
        for problem in ["duplicate key 'a'", "duplicate key 'k3'", "duplicate key 'A'", "undefined alias '*nowhere'",
                        "'x' is not a valid !!int", "a merge key '<<' takes a mapping"] {
            #expect(built.contains(problem), "\(problem) is not reported")
        }
    }

    @Test func anAnchorInAnEntryServesLaterEntriesAndTheRestOfTheFile() {
        let text = """
            wiring: 1
            services:
              First: { factory: f, args: &shared { url: "http://h", pool: { min: 1 } } }
              Second: { factory: f, args: *shared }
              Third: { factory: f, args: { <<: *shared, url: "http://other" } }
            parameters:
              copy: *shared

            """
        let (built, streamed) = readBothWays(Array(text.utf8))
        #expect(streamed == built)
        #expect(!built.contains("error"))
    }

    @Test func limitsCrossedInsideAnEntryStopAsWhenBuilt() {
        let deep = String(repeating: "[", count: 40) + String(repeating: "]", count: 40)
        let text = "wiring: 1\nx: &a [1, 2, 3, 4]\nservices:\n  S: { args: [*a, *a, *a] }\n  T: { args: \(deep) }\n"
        let limits = YAMLLimits(maxFileSize: 1 << 20, maxDepth: 16, maxAliasExpansion: 10)
        let (built, streamed) = readBothWays(Array(text.utf8), limits: limits)
        #expect(streamed == built)
        #expect(built.contains("aliases expand to more than 10 nodes"))
    }

    @Test(arguments: ["bad-input", "invalid", "valid", "contexts", "imports", "container"])
    func everyFixtureReadsAsBuilt(folder: String) throws {
        let root = TestSupport.fixture(folder)
        let files = (FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? [])
            .filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }.sorted()
        #expect(!files.isEmpty, "no fixtures under \(folder)")
        for file in files {
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: root + "/" + file)))
            let (built, streamed) = readBothWays(bytes)
            #expect(streamed == built, "\(file) streams differently from how it is built")
        }
    }
}
