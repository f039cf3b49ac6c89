/// A position in a manifest file: the file as the user named it, and a 1-based line and column.
///
/// Every node the YAML reader builds and every value of the manifest model carries one, so that
/// any problem can be reported where it was written:
///
/// ```swift
/// print(location)   // config/services.yaml:14:3
/// ```
///
/// Columns count Unicode characters, as libyaml and most editors do.
public struct SourceLocation: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The path of the file, as it was given to the loader (or resolved from an import).
    public var file: String
    /// The 1-based line.
    public var line: Int
    /// The 1-based column.
    public var column: Int

    /// Creates a location.
    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `file:line:column`, the form compilers print and editors make clickable.
    public var description: String { "\(file):\(line):\(column)" }

    /// Orders by file name, then line, then column.
    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.file, lhs.line, lhs.column) < (rhs.file, rhs.line, rhs.column)
    }
}
