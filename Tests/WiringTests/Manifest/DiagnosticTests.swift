import Testing
@testable import Wiring

@Suite("Diagnostics")
struct DiagnosticTests {
    @Test func printsLikeACompilerWithSourceLineCaretAndNotes() {
        let diagnostic = Diagnostic(
            .error, "service 'Logger' is declared twice",
            at: SourceLocation(file: "b.yaml", line: 4, column: 3),
            notes: [Diagnostic.Note("first declared here", at: SourceLocation(file: "a.yaml", line: 9, column: 3))],
            sourceLine: "  Logger: {}")
        #expect(diagnostic.description == """
            b.yaml:4:3: error: service 'Logger' is declared twice
              Logger: {}
              ^
            a.yaml:9:3: note: first declared here
            """)
        #expect(diagnostic.formatted(showingSource: false) == """
            b.yaml:4:3: error: service 'Logger' is declared twice
            a.yaml:9:3: note: first declared here
            """)
    }

    @Test func caretFollowsTabs() {
        let diagnostic = Diagnostic(.warning, "w", at: SourceLocation(file: "f", line: 1, column: 3), sourceLine: "\tab")
        #expect(diagnostic.description == "f:1:3: warning: w\n\tab\n\t ^")
    }

    @Test func diagnosticWithoutLocation() {
        #expect(Diagnostic.error("cannot read", at: nil).description == "error: cannot read")
    }

    @Test func suggestionsFindNearNames() {
        #expect(Suggestion.nearest(to: "singelton", in: ["singleton", "shared"]) == "singleton")
        #expect(Suggestion.nearest(to: "LOGGER", in: ["Logger"]) == "Logger")
        #expect(Suggestion.nearest(to: "xyz", in: ["singleton"]) == nil)
        #expect(Suggestion.editDistance("ab", "ba") == 1)
        #expect(Suggestion.hint(for: "scop", in: ["scope"]) == "; did you mean 'scope'?")
    }
}
