/// One problem found in a manifest: its severity, a message, and where it was written.
///
/// Diagnostics print in the form compilers use, followed by the offending source line and a
/// caret under the column:
///
/// ```text
/// config/services.yaml:14:12: error: unknown scope 'singelton'; did you mean 'singleton'?
///     scope: singelton
///            ^
/// ```
///
/// Loading and validation collect every diagnostic of a run in one pass; see
/// ``ManifestLoader/validate(_:)`` and ``ManifestError``.
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
    /// How serious a diagnostic is.
    public enum Severity: String, Sendable, Hashable, Comparable, CaseIterable {
        /// Information only, e.g. a factory that no service uses.
        case info
        /// Something likely wrong that does not stop a container from being built.
        case warning
        /// Something that stops a container from being built.
        case error

        var rank: Int {
            switch self {
            case .info: 0
            case .warning: 1
            case .error: 2
            }
        }

        /// Orders info before warning before error.
        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
    }

    /// A secondary remark attached to a diagnostic, such as where a duplicate was first declared.
    public struct Note: Sendable, Hashable {
        /// The text of the note.
        public var message: String
        /// Where the note points, if anywhere.
        public var location: SourceLocation?

        /// Creates a note.
        public init(_ message: String, at location: SourceLocation? = nil) {
            self.message = message
            self.location = location
        }
    }

    /// The severity.
    public var severity: Severity
    /// The message, without location or severity.
    public var message: String
    /// Where the problem was written, when it has a place in a file.
    public var location: SourceLocation?
    /// Further remarks, each possibly with its own location.
    public var notes: [Note]
    /// The text of the source line at ``location``, filled in by the loader, for the caret display.
    public var sourceLine: String?
    /// Where the caret goes under ``sourceLine`` (1-based, in characters), when that is not
    /// ``location``'s column: a secret redacted before it changes the line's length.
    var sourceColumn: Int?
    /// The context (or contexts, comma-separated) the problem belongs to, when it only appears
    /// with them applied.
    public var context: String?

    /// Creates a diagnostic.
    public init(
        _ severity: Severity,
        _ message: String,
        at location: SourceLocation?,
        notes: [Note] = [],
        sourceLine: String? = nil
    ) {
        self.severity = severity
        self.message = message
        self.location = location
        self.notes = notes
        self.sourceLine = sourceLine
    }

    /// Creates an error diagnostic.
    public static func error(_ message: String, at location: SourceLocation?, notes: [Note] = []) -> Diagnostic {
        Diagnostic(.error, message, at: location, notes: notes)
    }

    /// The error for a service whose factory key is not among `registered`.
    static func unregisteredFactory(
        _ key: String, of service: String, registered: some Sequence<String>, at location: SourceLocation?
    ) -> Diagnostic {
        .error("service '\(service)' uses factory '\(key)', which is not registered\(Suggestion.hint(for: key, in: registered))",
               at: location)
    }

    /// Creates a warning diagnostic.
    public static func warning(_ message: String, at location: SourceLocation?, notes: [Note] = []) -> Diagnostic {
        Diagnostic(.warning, message, at: location, notes: notes)
    }

    /// The first line of the printed form: `path:line:col: error: message`.
    public var headline: String {
        if let location {
            return "\(location): \(severity.rawValue): \(message)"
        }
        return "\(severity.rawValue): \(message)"
    }

    /// The full printed form: the headline, the source line with a caret, then each note.
    public var description: String { formatted(showingSource: true) }

    /// The printed form, with or without the source line and caret.
    ///
    /// - Parameter showingSource: Whether to print the source line and a caret under the column.
    /// - Returns: One or more lines, without a trailing newline.
    public func formatted(showingSource: Bool = true) -> String {
        var lines = [headline]
        if showingSource, let sourceLine, let location {
            lines.append(contentsOf: Self.caretLines(sourceLine, column: sourceColumn ?? location.column))
        }
        for note in notes {
            if let at = note.location {
                lines.append("\(at): note: \(note.message)")
            } else {
                lines.append("note: \(note.message)")
            }
        }
        return lines.joined(separator: "\n")
    }

    /// The source line and a caret under `column`, with tabs kept so the caret lines up.
    private static func caretLines(_ line: String, column: Int) -> [String] {
        var caret = ""
        for (index, character) in line.enumerated() where index < column - 1 {
            caret.append(character == "\t" ? "\t" : " ")
        }
        return [line, caret + "^"]
    }
}

extension Sequence<Diagnostic> {
    /// Whether any diagnostic is an error.
    public var containsErrors: Bool { contains { $0.severity == .error } }
}
