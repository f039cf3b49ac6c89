import Foundation
import Testing
@testable import Wiring

@Suite("YAML reader")
struct YAMLReaderTests {
    private func read(_ text: String, limits: YAMLLimits = .default) -> YAMLReadResult {
        YAMLReader.read(Array(text.utf8), file: "t.yaml", limits: limits)
    }

    private func read(bytes: [UInt8]) -> YAMLReadResult {
        YAMLReader.read(bytes, file: "t.yaml")
    }

    private func errors(_ text: String, limits: YAMLLimits = .default) -> [String] {
        read(text, limits: limits).diagnostics.map(\.headline)
    }

    private func pairs(_ node: YAMLNode?) -> [(String, YAMLNode)] {
        guard case .mapping(let pairs)? = node?.content else { return [] }
        return pairs.map { ($0.key.scalar ?? "?", $0.value) }
    }

    private func value(_ node: YAMLNode?, _ path: String...) -> YAMLNode? {
        var current = node
        for key in path {
            current = pairs(current).first { $0.0 == key }?.1
        }
        return current
    }

    // MARK: Accepted input

    @Test func mappingsKeepSourceOrderAndPositions() {
        let result = read("b: 1\na:\n  c: x\n  d: [1, 2]\n")
        #expect(result.diagnostics.isEmpty)
        #expect(pairs(result.root).map(\.0) == ["b", "a"])
        let c = value(result.root, "a", "c")
        #expect(c?.scalar == "x")
        #expect(c?.line == 3 && c?.column == 6)
        guard case .sequence(let items)? = value(result.root, "a", "d")?.content else {
            Issue.record("d is not a sequence")
            return
        }
        #expect(items.map { $0.column } == [7, 10])
    }

    @Test func scalarStylesAndTagsAreKept() {
        let result = read("""
            plain: 42
            single: '42'
            double: "42"
            literal: |
              two
              lines
            folded: >
              one
              line
            tagged: !!str 42
            secret: !secret hunter2
            """)
        #expect(result.diagnostics.isEmpty)
        let styles = pairs(result.root).map { name, node -> String in
            guard case .scalar(_, let style) = node.content else { return "?" }
            return "\(name)=\(style)"
        }
        #expect(styles == ["plain=plain", "single=singleQuoted", "double=doubleQuoted", "literal=literal",
                           "folded=folded", "tagged=plain", "secret=plain"])
        #expect(value(result.root, "plain")?.resolvedScalar == .int(42))
        #expect(value(result.root, "single")?.resolvedScalar == .string("42"))
        #expect(value(result.root, "double")?.resolvedScalar == .string("42"))
        #expect(value(result.root, "literal")?.scalar == "two\nlines\n")
        #expect(value(result.root, "folded")?.scalar == "one line\n")
        #expect(value(result.root, "tagged")?.tag == .string)
        #expect(value(result.root, "tagged")?.resolvedScalar == .string("42"))
        #expect(value(result.root, "secret")?.tag == .secret)
    }

    @Test func everyKnownTagIsReadAsItselfAndANearMissIsAnError() {
        let result = read("""
            str: !!str 1
            int: !!int 1
            float: !!float 1.5
            bool: !!bool true
            null: !!null null
            map: !!map { a: 1 }
            seq: !!seq [1]
            secret: !secret s
            replace: !replace [1]
            service: !service S
            tagged: !tagged t
            plain: ! 1
            long: !!python/str x
            short: !servic S
            """)
        let tags = pairs(result.root).map { "\($0.0)=\($0.1.tag)" }
        #expect(tags == ["str=string", "int=int", "float=float", "bool=bool", "null=null", "map=map", "seq=seq",
                         "secret=secret", "replace=replace", "service=service", "tagged=tagged", "plain=nonSpecific",
                         "long=none", "short=none"])
        #expect(result.diagnostics.map(\.headline).map { $0.prefix(while: { $0 != ";" }) } == [
            "t.yaml:13:7: error: unknown tag '!!python/str'", "t.yaml:14:8: error: unknown tag '!servic'",
        ])
    }

    @Test func plainScalarsFollowTheCoreSchema() {
        let cases: [(String, YAMLScalarValue)] = [
            ("~", .null), ("null", .null), ("", .null), ("true", .bool(true)), ("False", .bool(false)),
            ("yes", .string("yes")), ("no", .string("no")), ("0x1F", .int(31)), ("0o17", .int(15)),
            ("-12", .int(-12)), ("1.5", .double(1.5)), ("1e3", .double(1000)), ("-.inf", .double(-.infinity)),
            ("1.2.3", .string("1.2.3")), ("nan", .string("nan")), ("9223372036854775808", .double(9223372036854775808)), ("1_000", .string("1_000")),
        ]
        for (text, expected) in cases {
            #expect(YAMLNode.resolvePlain(text) == expected, "\(text)")
        }
    }

    @Test func anchorsAndAliasesCopyTheAnchoredNode() {
        let result = read("base: &b {x: 1, y: [a, b]}\ncopy: *b\n")
        #expect(result.diagnostics.isEmpty)
        #expect(value(result.root, "copy", "x")?.resolvedScalar == .int(1))
        #expect(value(result.root, "copy")?.line == 2)
    }

    @Test func mergeKeysApplyWithExplicitKeysWinning() {
        let result = read("""
            defaults: &d { scope: singleton, factory: base, args: {a: 1} }
            other: &o { factory: other, ttl: 5 }
            one:
              <<: *d
              factory: mine
            many:
              <<: [*o, *d]
              extra: true
            """)
        #expect(result.diagnostics.isEmpty)
        // Merged keys follow the keys written in the mapping.
        #expect(pairs(value(result.root, "one")).map(\.0) == ["factory", "scope", "args"])
        #expect(value(result.root, "one", "factory")?.scalar == "mine")
        #expect(value(result.root, "one", "scope")?.scalar == "singleton")
        // In a list of merged mappings, the earlier one wins.
        #expect(value(result.root, "many", "factory")?.scalar == "other")
        #expect(pairs(value(result.root, "many")).map(\.0) == ["extra", "factory", "ttl", "scope", "args"])
    }

    @Test func quotedKeyNamedLikeMergeKeyIsAnOrdinaryKey() {
        let result = read("'<<': 1\n")
        #expect(result.diagnostics.isEmpty)
        #expect(pairs(result.root).map(\.0) == ["<<"])
    }

    @Test func byteOrderMarkAndCRLFLineEndsAreAccepted() {
        let text = "\u{FEFF}a: 1\r\nb:\r\n  c: two\r\n"
        let result = read(text)
        #expect(result.diagnostics.isEmpty)
        #expect(value(result.root, "b", "c")?.scalar == "two")
        #expect(value(result.root, "b", "c")?.line == 3)
        #expect(value(result.root, "b", "c")?.column == 6)
    }

    @Test func commentsAndFlowStylesAreAccepted() {
        let result = read("# leading\na: {b: [1, {c: d}], e: 'f'} # trailing\n# end\n")
        #expect(result.diagnostics.isEmpty)
        #expect(value(result.root, "a", "e")?.scalar == "f")
    }

    @Test func multiLineQuotedScalarsFold() {
        let result = read("a: \"one\n  two\"\nb: 'x\n\n  y'\n")
        #expect(result.diagnostics.isEmpty)
        #expect(value(result.root, "a")?.scalar == "one two")
        #expect(value(result.root, "b")?.scalar == "x\ny")
    }

    @Test func emptyInputHasNoRoot() {
        let result = read("")
        #expect(result.root == nil)
        #expect(result.diagnostics.isEmpty)
        #expect(read("# only a comment\n").root == nil)
    }

    @Test func columnsCountCharactersNotBytes() {
        let result = read("é: [x, ü, y]\n")
        guard case .sequence(let items)? = value(result.root, "é")?.content else {
            Issue.record("not a sequence")
            return
        }
        #expect(items.map(\.column) == [5, 8, 11])
    }

    // MARK: Rejected input

    @Test func syntaxErrorsGiveProblemAndContextPositions() {
        let result = read("a:\n  b: [1, 2\n  c: 3\n")
        #expect(result.root == nil)
        #expect(result.diagnostics.map(\.headline) == ["t.yaml:3:4: error: did not find expected ',' or ']'"])
        #expect(result.diagnostics.first?.notes == [Diagnostic.Note("while parsing a flow sequence", at: SourceLocation(file: "t.yaml", line: 2, column: 6))])
    }

    @Test func mappingValueInPlainScalarIsASyntaxError() {
        let result = read("a: b: c\n")
        #expect(result.diagnostics.map(\.headline) == ["t.yaml:1:5: error: mapping values are not allowed in this context"])
    }

    @Test func tabIndentationGetsAHint() {
        #expect(errors("a:\n\tb: 1\n") == [
            "t.yaml:2:1: error: found character that cannot start any token (tabs cannot indent YAML; use spaces)",
        ])
    }

    @Test func percentAtValueStartGetsAHint() {
        #expect(errors("a: %x\n") == [
            "t.yaml:1:4: error: found character that cannot start any token (quote a value that starts with '%')",
        ])
    }

    @Test func environmentReferenceInFlowMappingGetsAHint() {
        #expect(errors("a: { b: ${X} }\n") == [
            "t.yaml:1:10: error: did not find expected ',' or '}' (inside { } or [ ], quote a value that holds '${…}')",
        ])
    }

    @Test func duplicateKeysAreReportedAtTheSecondNamingTheFirst() {
        let result = read("a: 1\nb:\n  x: 1\n  x: 2\na: 3\n")
        #expect(result.diagnostics.map(\.headline) == [
            "t.yaml:4:3: error: duplicate key 'x'; first defined at line 3",
            "t.yaml:5:1: error: duplicate key 'a'; first defined at line 1",
        ])
        #expect(value(result.root, "a")?.resolvedScalar == .int(1))
    }

    @Test func duplicateKeysAreFoundInLargeMappings() {
        var text = (0..<50).map { "k\($0): \($0)" }.joined(separator: "\n")
        text += "\nk7: again\n"
        #expect(errors(text) == ["t.yaml:51:1: error: duplicate key 'k7'; first defined at line 8"])
    }

    /// The reader drops a repeated key's pair from its store: an anchor defined inside that pair
    /// must still serve the aliases after it.
    @Test func anAnchorInsideADroppedPairStillServesLaterAliases() {
        let result = read("a: 1\na: &inner { b: [x, y] }\nc: *inner\nd: [*inner, 2]\n")
        #expect(result.diagnostics.map(\.headline) == ["t.yaml:2:1: error: duplicate key 'a'; first defined at line 1"])
        #expect(pairs(result.root).map(\.0) == ["a", "c", "d"])
        #expect(value(result.root, "c", "b") == YAMLNode(.sequence([
            YAMLNode(.scalar("x", .plain), line: 2, column: 17), YAMLNode(.scalar("y", .plain), line: 2, column: 20),
        ]), line: 2, column: 16))
        #expect(value(result.root, "c")?.line == 3 && value(result.root, "c")?.column == 4)
        guard case .sequence(let elements)? = value(result.root, "d")?.content else {
            Issue.record("d is not a list")
            return
        }
        #expect(elements.count == 2 && pairs(elements[0]).map(\.0) == ["b"] && elements[1].scalar == "2")
    }

    /// Merged pairs join a mapping large enough to index its keys: the mapping's own keys win,
    /// and a repeated key after the merge is still found.
    @Test func mergesIntoALargeMappingKeepItsOwnKeys() {
        let own = (0..<20).map { "  k\($0): own\($0)" }.joined(separator: "\n")
        let text = "base: &base { k3: merged, extra: merged, k19: merged }\nbig:\n  <<: *base\n" + own + "\n  k5: again\n"
        let result = read(text)
        #expect(result.diagnostics.map(\.headline) == ["t.yaml:24:3: error: duplicate key 'k5'; first defined at line 9"])
        let keys = pairs(value(result.root, "big")).map(\.0)
        #expect(keys == (0..<20).map { "k\($0)" } + ["extra"])
        #expect(value(result.root, "big", "k3")?.scalar == "own3")
        #expect(value(result.root, "big", "extra")?.scalar == "merged")
    }

    @Test func undefinedAliasesAreReportedWithSuggestion() {
        #expect(errors("a: &base 1\nb: *bas\n") == ["t.yaml:2:4: error: undefined alias '*bas'; did you mean 'base'?"])
    }

    @Test func undefinedAliasInAMergeKeyIsReportedOnce() {
        #expect(errors("a:\n  <<: *nothing\n  b: 1\n") == ["t.yaml:2:7: error: undefined alias '*nothing'"])
    }

    @Test func aliasInsideItsOwnAnchorIsUndefined() {
        #expect(errors("a: &x [*x]\n") == ["t.yaml:1:8: error: undefined alias '*x'"])
    }

    @Test func unknownTagsAreRejected() {
        #expect(errors("a: !!python/object/apply:os.system [ls]\nb: !custom x\n") == [
            "t.yaml:1:4: error: unknown tag '!!python/object/apply:os.system'; a manifest is plain data (tags allowed: !!str, !!int, !!float, !!bool, !!null, !!map, !!seq, !secret, !replace, !service, !tagged)",
            "t.yaml:2:4: error: unknown tag '!custom'; a manifest is plain data (tags allowed: !!str, !!int, !!float, !!bool, !!null, !!map, !!seq, !secret, !replace, !service, !tagged)",
        ])
    }

    @Test func tagsThatDoNotFitTheValueAreRejected() {
        #expect(errors("a: !!int abc\nb: !!str [1]\n") == [
            "t.yaml:1:4: error: 'abc' is not a valid !!int",
            "t.yaml:2:4: error: !!str cannot tag a list",
        ])
    }

    @Test func mergeOfAScalarIsRejected() {
        #expect(errors("a:\n  <<: 5\n  b: 1\n") == [
            "t.yaml:2:7: error: a merge key '<<' takes a mapping or a list of mappings, not an integer",
        ])
    }

    @Test func invalidUTF8IsRejectedAtItsPosition() {
        let bytes = Array("a: 1\nb: x".utf8) + [0xFF] + Array("\n".utf8)
        #expect(read(bytes: bytes).diagnostics.map(\.headline) == [
            "t.yaml:2:5: error: invalid UTF-8: invalid leading UTF-8 octet (byte 0xFF)",
        ])
    }

    @Test func textBeyondASCIIKeepsItsValuesAndColumns() {
        // Characters of two, three and four bytes, at every offset from the start of the file,
        // so that some straddle each stretch of bytes the reader checks at once.
        let words = ["café", "日本語", "🎉x", "naïve — ✓", "\u{A0}nbsp", "\u{10FFFF}max", "\u{E000}private"]
        var text = ""
        var expected: [(key: String, value: String, line: Int, column: Int)] = []
        for index in 0..<150 {
            let word = words[index % words.count]
            let key = "k\(index)" + String(repeating: "é", count: index % 5)
            let padding = String(repeating: " ", count: index % 61)
            text += "\(key):\(padding) \(word)\n"
            expected.append((key, word, index + 1, key.count + 1 + padding.count + 2))
        }
        let result = read(text)
        #expect(result.diagnostics.isEmpty)
        let found = pairs(result.root)
        #expect(found.map(\.0) == expected.map(\.key))
        #expect(found.map { $0.1.scalar ?? "?" } == expected.map(\.value))
        let positions = found.map { [Int($0.1.line), Int($0.1.column)] }
        #expect(positions == expected.map { [$0.line, $0.column] })
    }

    @Test func aByteOrderMarkIsSkippedOnlyAtTheStart() {
        let result = read(bytes: [0xEF, 0xBB, 0xBF] + Array("a: 1\nb: x\u{FEFF}y\n".utf8))
        #expect(result.diagnostics.isEmpty)
        #expect(pairs(result.root).map(\.0) == ["a", "b"])
        #expect(value(result.root, "a")?.column == 4)
        #expect(value(result.root, "b")?.scalar == "x\u{FEFF}y")
    }

    @Test func everyCharacterLibyamlRefusesIsReportedAtItsPosition() {
        // Well-formed UTF-8 for characters YAML does not allow, and malformed UTF-8, each in
        // the first bytes the reader checks at once and far past them. The column is that of
        // the first byte libyaml finds wrong.
        let refused: [(bytes: [UInt8], column: Int, error: String)] = [
            ([0xC2, 0x80], 5, "control character U+0080 is not allowed in YAML"),
            ([0xC2, 0x9F], 5, "control character U+009F is not allowed in YAML"),
            ([0xEF, 0xBF, 0xBE], 5, "control character U+FFFE is not allowed in YAML"),
            ([0x7F], 5, "control character U+007F is not allowed in YAML"),
            ([0x1B], 5, "control character U+001B is not allowed in YAML"),
            ([0xED, 0xA0, 0x80], 5, "invalid UTF-8: invalid Unicode character"),
            ([0xC0, 0xAF], 5, "invalid UTF-8: invalid length of a UTF-8 sequence"),
            ([0xE0, 0x80, 0xAF], 5, "invalid UTF-8: invalid length of a UTF-8 sequence"),
            ([0xF4, 0x90, 0x80, 0x80], 5, "invalid UTF-8: invalid Unicode character"),
            ([0xF8, 0x88, 0x80, 0x80, 0x80], 5, "invalid UTF-8: invalid leading UTF-8 octet (byte 0xF8)"),
            ([0xC3, 0x28], 6, "invalid UTF-8: invalid trailing UTF-8 octet (byte 0x28)"),
        ]
        for (bytes, column, error) in refused {
            for filler in ["", String(repeating: "# filler\n", count: 30)] {
                let file = Array((filler + "a: 1\nb: x").utf8) + bytes + Array("\n".utf8)
                let line = filler.isEmpty ? 2 : 32
                #expect(read(bytes: file).diagnostics.map(\.headline) == ["t.yaml:\(line):\(column): error: \(error)"])
            }
        }
        // A sequence cut short by the end of the file.
        #expect(read(bytes: Array("a: 1\nb: x".utf8) + [0xE2, 0x82]).diagnostics.map(\.headline) == [
            "t.yaml:2:5: error: invalid UTF-8: incomplete UTF-8 octet sequence",
        ])
    }

    @Test func nulBytesAreRejectedAtTheirPosition() {
        let bytes = Array("a: 1\nbb: x".utf8) + [0] + Array("\n".utf8)
        #expect(read(bytes: bytes).diagnostics.map(\.headline) == ["t.yaml:2:6: error: NUL byte is not allowed in YAML"])
    }

    @Test func controlCharactersAreRejected() {
        #expect(errors("a: \u{07}\n") == ["t.yaml:1:4: error: control character U+0007 is not allowed in YAML"])
    }

    @Test func aSecondDocumentIsRejected() {
        #expect(errors("a: 1\n---\nb: 2\n") == [
            "t.yaml:2:1: error: a manifest is a single YAML document, but a second document starts here",
        ])
    }

    // MARK: Limits

    @Test func nestingDepthIsBounded() {
        let text = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let limits = YAMLLimits(maxDepth: 64)
        #expect(errors(text, limits: limits) == ["t.yaml:1:65: error: nesting is deeper than 64 levels"])
        #expect(errors(text) == ["t.yaml:1:129: error: nesting is deeper than 128 levels"])
    }

    @Test func billionLaughsFailsFast() {
        var lines = ["l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
        for level in 1...9 {
            lines.append("l\(level): &l\(level) [" + Array(repeating: "*l\(level - 1)", count: 10).joined(separator: ", ") + "]")
        }
        let started = ContinuousClock.now
        let result = read(lines.joined(separator: "\n"))
        #expect(result.root == nil)
        #expect(result.diagnostics.map(\.headline) == [
            "t.yaml:6:45: error: aliases expand to more than 1000000 nodes; a manifest never needs that many (is this an alias bomb?)",
        ])
        #expect(ContinuousClock.now - started < .seconds(5))
    }

    @Test func fileSizeIsBounded() {
        let limits = YAMLLimits(maxFileSize: 16)
        #expect(errors("a: 1234567890123456\n", limits: limits) == [
            "t.yaml:1:1: error: file is 20 bytes, more than the limit of 16 bytes",
        ])
    }

    @Test func fuzzedPrefixesNeverCrash() {
        let text = """
            wiring: 1
            x-a: &a { scope: singleton, args: { k: [1, 2, {z: "q"}] } }
            services:
              A: { <<: *a, factory: f }
              B: !!map
                factory: 'g'
            """
        let bytes = Array(text.utf8)
        for end in 0...bytes.count {
            _ = read(bytes: Array(bytes[..<end]))
        }
    }
}
