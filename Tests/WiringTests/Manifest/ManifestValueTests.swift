import Foundation
import Testing
@testable import Wiring

@Suite("Manifest values")
struct ManifestValueTests {
    private let at = SourceLocation(file: "s.yaml", line: 3, column: 9)

    private func value(_ kind: ManifestValue.Kind, secret: Bool = false) -> ManifestValue {
        ManifestValue(kind, at: at, isSecret: secret)
    }

    @Test func templatesSeparateEnvironmentParametersAndLiterals() throws {
        let template = try #require(try StringTemplate.parse("${HOST:-localhost}:$(port)/$$x/$y"))
        #expect(template.parts == [
            .environment("HOST", fallback: "localhost"), .literal(":"), .parameter("port"), .literal("/$x/$y"),
        ])
        #expect(template.environmentVariables == ["HOST"])
        #expect(template.parameters == ["port"])
        #expect(try StringTemplate.parse("no references") == nil)
        #expect(try StringTemplate.parse("price: $5") == nil)
        #expect(try StringTemplate.parse("${A:-}")?.parts == [.environment("A", fallback: "")])
    }

    @Test func malformedTemplatesAreErrors() {
        #expect(throws: TemplateSyntaxError.self) { try StringTemplate.parse("$(open") }
        #expect(throws: TemplateSyntaxError.self) { try StringTemplate.parse("${}") }
        #expect(throws: TemplateSyntaxError.self) { try StringTemplate.parse("${A B}") }
    }

    @Test func typedReadsOfEachKind() throws {
        #expect(try value(.string("x")).decode(String.self) == "x")
        #expect(try value(.int(7)).decode(Int.self) == 7)
        #expect(try value(.int(7)).decode(Double.self) == 7)
        #expect(try value(.double(2.5)).decode(Double.self) == 2.5)
        #expect(try value(.bool(true)).decode(Bool.self) == true)
        #expect(try value(.null).decode(Int?.self) == nil)
        #expect(try value(.int(3)).decode(Int?.self) == 3)
        #expect(try value(.string("250ms")).decode(Duration.self) == .milliseconds(250))
        #expect(try value(.int(2)).decode(Duration.self) == .seconds(2))
        #expect(try value(.list([value(.int(1)), value(.int(2))])).decode([Int].self) == [1, 2])
    }

    @Test func durationTextIsDigitsThenAUnit() {
        let parsed = ["500ms", "30s", "1.5m", "2h", "1d", "0.25s", "7"].map(Duration.parseSeconds)
        #expect(parsed == [0.5, 30, 90, 7200, 86400, 0.25, nil])
        // Whole numbers take a shorter way than fractions; up to 15 digits, and past them.
        let whole = ["015s", "0s", "123456789012345ms", "0000000000000000001s", "100000000000000d"].map(Duration.parseSeconds)
        #expect(whole == [15, 0, 123_456_789_012.345, 1, 1e14 * 86400])
        for text in ["ms", "s", "", "5x", "1e3s", "-5s", "5 s", "５s", "5mss", "s5", "1,5m"] {
            #expect(Duration.parseSeconds(text) == nil, "\(text)")
        }
    }

    @Test func hugeDurationsAreErrorsNotCrashes() throws {
        // Found by the fuzzer: ttl: 1e300 trapped converting to Int64.
        for value in [ManifestValue.Kind.double(1e300), .string("1e300s"), .string("99999999999999999999d"), .int(Int.max)] {
            #expect(throws: ManifestError.self) { try self.value(value).decode(Duration.self) }
        }
        #expect(try value(.string("36500d")).decode(Duration.self) == .seconds(36500 * 86400))
    }

    @Test func wrongKindNamesExpectedAndFoundAtTheValue() {
        #expect {
            try value(.string("abc")).decode(Int.self)
        } throws: { error in
            (error as? ManifestError)?.diagnostics.map(\.headline) == ["s.yaml:3:9: error: expected an integer, found a string 'abc'"]
        }
        #expect {
            try value(.list([value(.int(1)), value(.string("two"))])).decode([Int].self)
        } throws: { error in
            (error as? ManifestError)?.diagnostics.map(\.headline) == ["s.yaml:3:9: error: expected an integer, found a string 'two'"]
        }
        #expect {
            try value(.int(1)).decode([String: Int].self)
        } throws: { error in
            (error as? ManifestError)?.diagnostics.map(\.headline) == ["s.yaml:3:9: error: expected a mapping of an integer, found an integer (1)"]
        }
    }

    @Test func secretValuesAreNotShownInErrors() {
        #expect {
            try value(.string("hunter2"), secret: true).decode(Int.self)
        } throws: { error in
            (error as? ManifestError)?.diagnostics.map(\.headline) == ["s.yaml:3:9: error: expected an integer, found a string"]
        }
    }

    @Test func interpolatedStringsParseAsNumbersAndBooleans() throws {
        let port = ManifestValue(.string("8080"), at: at, isSecret: false, isInterpolated: true)
        #expect(try port.decode(Int.self) == 8080)
        #expect(try port.decode(Double.self) == 8080)
        let flag = ManifestValue(.string("true"), at: at, isSecret: false, isInterpolated: true)
        #expect(try flag.decode(Bool.self) == true)
        // A quoted literal stays a string: "8080" written in YAML is not an integer.
        #expect(throws: ManifestError.self) { try value(.string("8080")).decode(Int.self) }
    }

    @Test func mapReadsByKeyWithMissingKeyError() throws {
        let map = ManifestMap([
            ManifestMap.Entry(key: "level", keyLocation: at, value: value(.string("info"))),
        ], at: at)
        #expect(try map.decode("level", as: String.self) == "info")
        #expect(try map.decode("color", as: Bool?.self) == nil)
        #expect {
            try map.decode("levl", as: String.self)
        } throws: { error in
            (error as? ManifestError)?.diagnostics.map(\.headline) == ["s.yaml:3:9: error: missing key 'levl'; did you mean 'level'?"]
        }
    }

    /// Values the loader reads are kept in a flat store, not as YAML nodes: every kind, nested
    /// collections, long and non-ASCII scalars, tags and positions read as they were written.
    @Test func valuesReadFromAFileKeepTheirKindsTextTagsAndPositions() throws {
        let long = String(repeating: "0123456789", count: 9)
        let path = try TestSupport.temporaryFile("""
            wiring: 1
            x-long: &long "\(long)"
            parameters:
              base: https://example.com
              nested: { list: [1, two, 3.5, null, true], "clé": ünïcode }
            services:
              A:
                factory: a
                args:
                  port: 8080
                  name: "8080"
                  url: "$(base)/a"
                  home: ${WIRING_TEST_UNSET:-/tmp}
                  password: !secret hunter2
                  long: *long
                  again: *long
                  list: [a, [b, c], { d: e }]
                  empty: {}
                  none:
              B:
                factory: b
                args: { plain: text, quoted: 'no $ here' }
            """)
        let manifest = try ManifestLoader(environment: [:]).load(path)
        let args = try #require(manifest.service("A")?.args)
        #expect(args.keys == ["port", "name", "url", "home", "password", "long", "again", "list", "empty", "none"])
        #expect(args.count == 10)
        #expect(try args.decode("port", as: Int.self) == 8080)
        #expect(try args.decode("name", as: String.self) == "8080")
        guard case .template(let url)? = args["url"]?.content, case .template(let home)? = args["home"]?.content else {
            Issue.record("references are templates")
            return
        }
        #expect(url.parameters == ["base"])
        #expect(home.environmentVariables == ["WIRING_TEST_UNSET"])
        // What a user reads before a container is built: the text as written, a string.
        guard case .string(let written)? = args["url"]?.kind else {
            Issue.record("a template reads as its text")
            return
        }
        #expect(written == url.source)
        #expect(try args.decode("url", as: String.self) == url.source)
        #expect(args["url"]?.kindDescription == "a string")
        let password = try #require(args["password"])
        #expect(password.isSecret)
        #expect(password.description == "<redacted>")
        #expect(try args.decode("long", as: String.self) == long)
        #expect(try args.decode("again", as: String.self) == long)
        #expect(args["list"]?.description == "[a, [b, c], {d: e}]")
        guard case .map(let empty)? = args["empty"]?.kind else {
            Issue.record("an empty mapping is a mapping")
            return
        }
        #expect(empty.count == 0)
        guard case .null? = args["none"]?.kind else {
            Issue.record("a key with no value is null")
            return
        }
        #expect(args["missing"] == nil)
        // Positions: the mapping, each key, each value, nested ones included.
        #expect(args.location.line == 10 && args.location.column == 7)
        let port = try #require(args.entries.first)
        #expect(port.keyLocation.line == 10 && port.keyLocation.column == 7)
        #expect(port.value.location.line == 10 && port.value.location.column == 13)
        guard case .list(let list)? = args["list"]?.kind, case .list(let inner) = list[1].kind else {
            Issue.record("lists nest")
            return
        }
        #expect(inner[1].location.line == 17 && inner[1].location.column == 21)
        // What may hold a reference, asked of the whole mapping and of each value.
        #expect(args.mayHoldReferences)
        #expect(args["url"]?.mayHoldReferences == true)
        #expect(args["list"]?.mayHoldReferences == false)
        #expect(manifest.service("B")?.args?.mayHoldReferences == true)
        #expect(manifest.service("B")?.args?["plain"]?.mayHoldReferences == false)

        let nested = try #require(manifest.parameter("nested")?.value)
        guard case .map(let map) = nested.kind else {
            Issue.record("a parameter mapping is a mapping")
            return
        }
        #expect(try map.decode("clé", as: String.self) == "ünïcode")
        #expect(map["list"]?.description == "[1, two, 3.5, null, true]")
    }

    /// Values are copied from where the reader stored them with their offsets moved; an empty
    /// scalar has an offset too, even alone in a value.
    @Test func emptyScalarsReadBackEmptyWhereverTheyStand() throws {
        let path = try TestSupport.temporaryFile("""
            wiring: 1
            parameters:
              before: text
              blank: ""
              list: ["", ""]
            services:
              A: { factory: a, args: { a: "", b: [""], c: { d: "" } } }
            """)
        let manifest = try ManifestLoader(environment: [:]).load(path)
        #expect(try manifest.parameter("blank")?.value.decode(String.self) == "")
        #expect(try manifest.parameter("list")?.value.decode([String].self) == ["", ""])
        #expect(try manifest.parameter("before")?.value.decode(String.self) == "text")
        let args = try #require(manifest.service("A")?.args)
        #expect(try args.decode("a", as: String.self) == "")
        #expect(try args.decode("b", as: [String].self) == [""])
        #expect(try args.decode("c", as: [String: String].self) == ["d": ""])
    }

    /// `stringValue` tells most strings by their first byte; it must agree with resolving by
    /// the core schema for every style, tag and kind of text.
    @Test func plainScalarsResolveByTheCoreSchema() {
        // Read without the fast path's help: what each plain text resolves to.
        let expected: [(String, YAMLScalarValue)] = [
            ("", .null), ("~", .null), ("null", .null), ("Null", .null), ("NULL", .null),
            ("true", .bool(true)), ("True", .bool(true)), ("TRUE", .bool(true)),
            ("false", .bool(false)), ("False", .bool(false)), ("FALSE", .bool(false)),
            ("42", .int(42)), ("-1", .int(-1)), ("1.5", .double(1.5)),
        ]
        for (text, value) in expected {
            #expect(YAMLNode.resolve(text, style: .plain, tag: .none) == value, "\(text)")
        }
        for text in ["~~", "nul", "nulls", "nULL", "tru", "truer", "tRUE", "fals", "falsy", "fAlse", "factory-7", "n", "t", "f",
                     "nullable", "trueish", "Service12"] {
            #expect(YAMLNode.resolve(text, style: .plain, tag: .none) == .string(text), "\(text)")
        }
    }

    @Test func stringValueAgreesWithTheCoreSchema() {
        let texts = ["", "~", "null", "Null", "nil", "true", "True", "tree", "false", "FALSE", "fast", "0", "42", "-1", "+3",
                     "0x1F", "0o17", "1.5", ".5", ".inf", "-.inf", ".nan", ".name", "1e3", "12ab", "-x", "+x", "Service12",
                     "factory-7", "yes", "no", "on", "off", "Ärger", "$(baseURL)/s1", String(repeating: "n", count: 80),
                     "nul", "nulls", "NULL", "nULL", "tru", "truer", "TRUE", "tRUE", "fals", "falsy", "False", "fAlse", "f", "t",
                     "n", "~~", "~x", "trueish", "nullable"]
        let styles: [YAMLScalarStyle] = [.plain, .singleQuoted, .doubleQuoted, .literal, .folded]
        let tags: [YAMLTag] = [.none, .nonSpecific, .string, .int, .float, .bool, .null, .secret, .placeholder]
        let store = NodeStore(fileID: 0)
        for text in texts {
            for style in styles {
                for tag in tags {
                    let index = store.append(YAMLNode(.scalar(text, style), tag: tag, line: 1, column: 1))
                    var expected: String?
                    if case .string(let resolved)? = YAMLNode.resolve(text, style: style, tag: tag) { expected = resolved }
                    #expect(store.stringValue(index) == expected, "\(text) \(style) \(tag)")
                }
            }
        }
        let list = store.append(YAMLNode(.sequence([]), tag: .none, line: 1, column: 1))
        #expect(store.stringValue(list) == nil)
    }
}
