import Testing
@testable import Wiring

/// The `$(name)` references a decoder gathers: each name kept once, each reference in order.
@Suite("Parameter references")
struct ParameterReferencesTests {
    private func at(_ line: Int) -> Wiring.SourceLocation { SourceLocation(file: "refs.yaml", line: line, column: 3) }

    private func shown(_ references: ParameterReferences) -> [String] {
        references.all.map { "\($0.value)@\($0.location.line)" }
    }

    @Test func keepsEachReferenceInOrderAndEachNameOnce() {
        var references = ParameterReferences()
        for (line, name) in ["baseURL", "region", "baseURL", "", "baseURL", "région"].enumerated() {
            references.append(name: name, at: at(line + 1))
        }
        #expect(references.count == 6)
        #expect(references.names == ["baseURL", "region", "", "région"])
        #expect(shown(references) == ["baseURL@1", "region@2", "baseURL@3", "@4", "baseURL@5", "région@6"])
        var visited: [String] = []
        references.forEach { name, number, location in
            #expect(references.names[number] == name)
            visited.append("\(name)@\(location.line)")
        }
        #expect(visited == shown(references))
    }

    @Test func manyNamesAreFoundAgainPastTheOnesComparedInTurn() {
        var references = ParameterReferences()
        let names = (0..<40).map { "p\($0)" }
        for round in 0..<3 {
            for (index, name) in names.enumerated() { references.append(name: name, at: at(round * 100 + index)) }
        }
        #expect(references.names == names)
        #expect(references.count == 120)
        #expect(shown(references).suffix(2) == ["p38@238", "p39@239"])
    }

    @Test func namesAreToldApartByTheirBytes() {
        // Canonically equivalent, but written differently: each reference keeps its spelling.
        var references = ParameterReferences()
        for name in ["caf\u{E9}", "cafe\u{301}"] + (0..<10).map({ "n\($0)" }) + ["caf\u{E9}", "cafe\u{301}"] {
            references.append(name: name, at: at(1))
        }
        #expect(references.names.count == 12)
        #expect(references.all.map(\.value).suffix(2).map { Array($0.utf8) } == [Array("caf\u{E9}".utf8), Array("cafe\u{301}".utf8)])
    }

    @Test func appendingRenumbersTheLaterNames() {
        var first = ParameterReferences()
        first.append(name: "a", at: at(1))
        first.append(name: "b", at: at(2))
        var later = ParameterReferences()
        later.append(name: "c", at: at(3))
        later.append(name: "a", at: at(4))
        later.append(name: "c", at: at(5))
        first.append(contentsOf: later)
        first.append(contentsOf: ParameterReferences())
        #expect(shown(first) == ["a@1", "b@2", "c@3", "a@4", "c@5"])
        #expect(first.names == ["a", "b", "c"])

        var empty = ParameterReferences()
        empty.append(contentsOf: later)
        #expect(shown(empty) == ["c@3", "a@4", "c@5"])
    }
}
