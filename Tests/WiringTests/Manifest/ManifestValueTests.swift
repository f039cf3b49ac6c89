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
}
