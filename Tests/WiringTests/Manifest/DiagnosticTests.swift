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

    @Test func manifestOrderFollowsTheFilesAsLoadedThenLineAndColumn() {
        // "z-root.yaml" imports "a-shared.yaml": the root comes first although it sorts last.
        func at(_ file: String, _ line: Int, _ column: Int = 1) -> Wiring.SourceLocation {
            Wiring.SourceLocation(file: file, line: line, column: column)
        }
        let diagnostics: [Diagnostic] = [
            .warning("shared 2", at: at("a-shared.yaml", 2)),
            Diagnostic(.info, "from Swift", at: at("Registrations.swift", 1)),
            .error("root 9", at: at("z-root.yaml", 9)),
            .warning("unplaced", at: nil),
            .error("root 3:5", at: at("z-root.yaml", 3, 5)),
            .warning("root 3:2", at: at("z-root.yaml", 3, 2)),
            .error("shared 1", at: at("a-shared.yaml", 1)),
            .warning("root 3:2 again", at: at("z-root.yaml", 3, 2)),
        ]
        let files = ["z-root.yaml", "a-shared.yaml"]
        #expect(diagnostics.inManifestOrder(files: files, bySeverity: false, unplacedFirst: true).map(\.message) == [
            "unplaced", "root 3:2", "root 3:2 again", "root 3:5", "root 9", "shared 1", "shared 2", "from Swift",
        ])
        #expect(diagnostics.inManifestOrder(files: files, bySeverity: true, unplacedFirst: false).map(\.message) == [
            "root 3:5", "root 9", "shared 1",
            "root 3:2", "root 3:2 again", "shared 2", "unplaced",
            "from Swift",
        ])
    }

    /// The orderings a tool sorts with: by severity, and by file name, then line, then column.
    @Test func severitiesAndLocationsSort() {
        #expect(Diagnostic.Severity.allCases.shuffled().sorted() == [.info, .warning, .error])
        let locations = [("b.yaml", 1, 1), ("a.yaml", 9, 1), ("a.yaml", 2, 7), ("a.yaml", 2, 3)]
            .map { Wiring.SourceLocation(file: $0.0, line: $0.1, column: $0.2) }
        #expect(locations.sorted().map(\.description) == ["a.yaml:2:3", "a.yaml:2:7", "a.yaml:9:1", "b.yaml:1:1"])
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
