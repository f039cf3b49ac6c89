import Foundation
import Testing
@testable import Wiring

/// A large `services:` section is cut into pieces that two threads read at once
/// (`YAMLPipelining.split`). These tests hold it to giving exactly what reading on one thread
/// gives — tree, positions, streamed entries, diagnostics — and to reading the whole file again
/// whenever a cut might change the meaning: inside a scalar or flow collection, an alias across
/// a cut, a key repeated across one, a problem in a piece.
@Suite("Reading a section in pieces")
struct SplitReaderTests {
    /// `count` services from `first` on, each a few lines, `extra` adding lines to some.
    private func services(_ range: Range<Int>, indent: String = "  ", extra: (Int) -> String = { _ in "" }) -> String {
        var text = ""
        let inner = indent + indent
        for index in range {
            text += "\(indent)Service\(index):\n\(inner)factory: f-\(index % 7)\n\(inner)implements: [P\(index)]\n"
            text += "\(inner)args: { url: \"http://h/\(index)\", tags: [a, b] }\n" + extra(index)
        }
        return text
    }

    private let prefix = "wiring: 1\nx-defaults:\n  base: &base { scope: singleton }\n  http: &http { timeout: 5 }\nservices:\n"

    /// Reads `text` split and on one thread; both must read the same, and `split` says
    /// whether the pieces were kept.
    private func expectSame(_ text: String, split: Bool, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let bytes = Array(text.utf8)
        let alone = ReaderDump.read(bytes, .never)
        let pieces = ReaderDump.read(bytes, .split)
        #expect(pieces.text == alone.text, "reads differently in pieces", sourceLocation: sourceLocation)
        #expect(pieces.split == split, sourceLocation: sourceLocation)
    }

    @Test func aManifestIsReadInPiecesWithEveryPositionWhereTheFileHasIt() {
        // Anchors before the section, merge keys, a block scalar, comments at column 1 and a
        // contexts block after the section: the pieces keep it all in place.
        let text = prefix + services(0..<300) { index in
            var lines = index % 4 == 0 ? "    <<: *base\n    options:\n      <<: *http\n      retries: 3\n" : ""
            if index % 50 == 7 { lines += "    script: |\n      echo one\n\n      echo two\n# a comment at column 1\n" }
            return lines
        } + "contexts:\n  test:\n    services:\n" + services(0..<40, indent: "      ")
        expectSame(text, split: true)

        var streamed = YAMLEntryCollector()
        let result = YAMLReader.read(Array(text.utf8), file: "f.yaml", streaming: "services", into: &streamed, pipelining: .split)
        #expect(result.readSplit)
        #expect(streamed.entries.map { $0.key.scalar ?? "" } == (0..<300).map { "Service\($0)" })
    }

    @Test func windowsLineEndingsNonASCIITextAndADeeperIndentationKeepTheirPositions() {
        let accented = prefix.replacingOccurrences(of: "services:", with: "# café → naïve\nservices:")
            + services(0..<200, indent: "    ") { "        label: \"Ünïcödé №\($0) — ✓\"\n" }
        expectSame(accented, split: true)
        expectSame(accented.replacingOccurrences(of: "\n", with: "\r\n"), split: true)
    }

    @Test func aCutInsideAQuotedScalarIsNotKept() {
        // Continuation lines of a quoted scalar may sit at any indentation: these look like
        // entries, and lines alone cannot tell they are not.
        let trap = "  Quoted:\n    description: \"starts here\n" + (0..<300).map { "  Fake\($0): value\n" }.joined() + "  ends here\"\n"
        expectSame(prefix + services(0..<20) + trap + services(20..<40), split: false)
    }

    @Test func aCutInsideAFlowCollectionIsNotKept() {
        let trap = "  Flow: {\n" + (0..<300).map { "  Fake\($0): value,\n" }.joined() + "  last: value }\n"
        expectSame(prefix + services(0..<20) + trap + services(20..<40), split: false)
        // Here each piece reads cleanly on its own (`value,` is a plain scalar outside a flow
        // collection), and the head's remainder closes the collection the first cut fell in:
        // only the head's check that nothing crosses its cut tells.
        expectSame(prefix + trap + services(0..<20) + "contexts: }\n", split: false)
    }

    @Test func anAliasToAnAnchorInAnEarlierPieceIsNotKept() {
        let text = prefix + "  Shared:\n    args: &shared { url: \"http://shared\" }\n" + services(0..<300)
            + "  Last:\n    args: *shared\n"
        expectSame(text, split: false)
    }

    @Test func anAliasAfterTheSectionToAnAnchorInAPieceIsNotKept() {
        let text = prefix + services(0..<300) + "  Late:\n    args: &late { url: \"http://late\" }\n"
            + "contexts:\n  test:\n    services:\n      Service1: { args: *late }\n"
        expectSame(text, split: false)
        // Also when the head knows an earlier anchor of that name: the alias means the later one.
        expectSame(text.replacingOccurrences(of: "x-defaults:\n", with: "x-defaults:\n  late: &late { url: \"http://early\" }\n"),
                   split: false)
    }

    @Test func anAnchorRedefinedInTheSectionBeforeAPieceUsesItIsNotKept() {
        // The last service's `*base` is the one redefined in the first service, not the one
        // before the section.
        let text = prefix + "  First:\n    args: &base { scope: unique }\n" + services(0..<300) + "  Last:\n    <<: *base\n"
        expectSame(text, split: false)
    }

    @Test func aKeyRepeatedAcrossACutIsReportedAsOnOneThread() {
        let text = prefix + services(0..<300) + services(5..<6)
        expectSame(text, split: false)
        #expect(ReaderDump.read(Array(text.utf8), .split).text.contains("duplicate key 'Service5'"))
    }

    @Test func aKeyRepeatedWithinAPieceIsReportedAsOnOneThread() {
        // Both entries fall in one piece: the pieces leave repeats to their join.
        let text = prefix + services(0..<300) { $0 == 150 ? "  Service150:\n    factory: again\n" : "" }
        expectSame(text, split: false)
        #expect(ReaderDump.read(Array(text.utf8), .split).text.contains("duplicate key 'Service150'"))
    }

    @Test func aProblemInAPieceIsReportedAsOnOneThread() {
        let text = prefix + services(0..<300) { $0 == 250 ? "    mode: !custom fast\n    other: *missing\n" : "" }
        expectSame(text, split: false)
        let read = ReaderDump.read(Array(text.utf8), .split).text
        #expect(read.contains("unknown tag '!custom'") && read.contains("undefined alias '*missing'"))
    }

    @Test func anEmptyValueLastInAPieceIsNotKept() {
        // libyaml places the missing value of a complex key (`? …`) at the next token: in the
        // whole file the next entry's key, in a piece its end. Found by the fuzzer.
        let found = """
            wiring: 1
            parameters:
              level: debug
              port: ${WIRING_TEST_PORT:-8080}
            scopes:
              60s }
            services:
              Logger:
                tory: clock
                scontext:
                factory: request-context
                scope: graph
              Handler:
                factory: handler
                scots.QualifiedService:
              ? facfactory: logger
                scock:
                factory:tory: slow
                scope: singleton
              WiringTests.QualifiedService:
              ? factory: qualified
            """
        expectSame(found + "\n", split: false)
        // A plain key's empty value sits just after its colon, in both.
        expectSame(prefix + services(0..<300) { _ in "    note:\n" }, split: true)
    }

    @Test func aMergeKeyOfTheSectionItselfIsNotKept() {
        let text = prefix + "  <<: { Merged: { factory: m } }\n" + services(0..<300)
        expectSame(text, split: false)
    }

    @Test func aSectionThatEndsBeforeTheCutsIsNotKept() {
        // Cuts are found by line near the middle of the file; here the lines there belong to
        // another key.
        let other = "other:\n" + services(0..<300).replacingOccurrences(of: "Service", with: "Other")
        expectSame(prefix + services(0..<3) + other, split: false)
    }

    @Test func sectionsWrittenOtherwiseAreReadOnOneThread() {
        let body = services(0..<200)
        // In flow style, after a directive, quoted, or not there at all.
        expectSame("wiring: 1\nservices: {\n" + body.replacingOccurrences(of: "\n  Service", with: ",\n  Service") + "}\n", split: false)
        expectSame("%YAML 1.1\n---\n" + prefix + body, split: false)
        expectSame(prefix.replacingOccurrences(of: "services:", with: "\"services\":") + body, split: false)
        expectSame("wiring: 1\nmodules:\n" + body, split: false)
    }

    @Test func aLimitCrossedOnlyByThePiecesTogetherIsReportedAsOnOneThread() {
        // Each piece expands fewer aliases than the limit allows; all of them, more.
        let limits = YAMLLimits(maxAliasExpansion: 500)
        let text = prefix + services(0..<300) { _ in "    <<: *base\n" }
        let bytes = Array(text.utf8)
        let pieces = ReaderDump.read(bytes, .split, limits: limits)
        #expect(pieces.text == ReaderDump.read(bytes, .never, limits: limits).text)
        #expect(!pieces.split)
        #expect(pieces.text.contains("aliases expand to more than 500 nodes"))
    }

    /// Each piece keeps the values it decodes in a store of its own (the two threads never
    /// write one store), and every service's values read as written, whichever piece held it.
    @Test func theValuesOfEveryPieceReadAsWritten() throws {
        let text = prefix + services(0..<3_000) { index in
            index % 3 == 0 ? "    names:\n      replica: { args: { url: \"http://r/\(index)\", weight: \(index) } }\n" : ""
        }
        #expect(text.utf8.count >= YAMLPipelining.threshold, "large enough that the loader reads it in pieces")
        let manifest = try ManifestLoader(environment: [:]).load(try TestSupport.temporaryFile(text))
        #expect(manifest.services.count == 3_000)
        for (index, service) in manifest.services.enumerated() {
            let args = try #require(service.args)
            #expect(try args.decode("url", as: String.self) == "http://h/\(index)")
            #expect(try args.decode("tags", as: [String].self) == ["a", "b"])
            // Four lines a service, two more for every third one's names.
            let keyLine = 6 + 4 * index + 2 * ((index + 2) / 3)
            #expect(service.location.line == keyLine)
            #expect(args.location.line == keyLine + 3 && args.location.column == 11)
            if index % 3 == 0 {
                let replica = try #require(service.variant(named: "replica")?.args)
                #expect(try replica.decode("url", as: String.self) == "http://r/\(index)")
                #expect(try replica.decode("weight", as: Int.self) == index)
            }
        }
    }

    /// Joining the pieces indexes the section's keys; the index gives each entry's position,
    /// and merging a manifest's files starts from it.
    @Test func joiningThePiecesIndexesEachKeyAtItsPosition() throws {
        let text = prefix + services(0..<2_000)
        var collector = YAMLEntryCollector()
        let read = YAMLReader.read(Array(text.utf8), file: "f.yaml", streaming: "services", into: &collector, pipelining: .split)
        #expect(read.readSplit)
        let index = try #require(read.sectionIndex)
        #expect(index.pairs == 2_000 && index.positions.count == 2_000)
        for (position, entry) in collector.entries.enumerated() {
            #expect(index.positions[try #require(entry.key.scalar)] == position)
        }
        #expect(ReaderDump.read(Array(text.utf8), .never).split == false)
        #expect(YAMLReader.read(Array(text.utf8), file: "f.yaml", streaming: "services", into: &collector, pipelining: .never)
            .sectionIndex == nil)

        // A manifest whose root file was read in pieces, with an import after it: every key
        // finds its service.
        let folder = try TestSupport.temporaryFolder()
        try ("wiring: 1\nservices:\n" + services(3_000..<3_050).replacingOccurrences(of: "Service", with: "Imported"))
            .write(to: folder.appendingPathComponent("shared.yaml"), atomically: true, encoding: .utf8)
        try (prefix.replacingOccurrences(of: "wiring: 1\n", with: "wiring: 1\nimports: [shared.yaml]\n") + services(0..<3_000))
            .write(to: folder.appendingPathComponent("root.yaml"), atomically: true, encoding: .utf8)
        let manifest = try ManifestLoader(environment: [:]).load(folder.appendingPathComponent("root.yaml").path)
        #expect(manifest.services.count == 3_050)
        for (position, service) in manifest.services.enumerated() {
            #expect(manifest.serviceIndex(of: service.key) == position)
        }
    }
}
