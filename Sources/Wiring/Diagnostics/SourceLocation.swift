
/// A position in a manifest file: the file as the user named it, and a 1-based line and column.
///
/// Every node the YAML reader builds and every value of the manifest model carries one, so that
/// any problem can be reported where it was written:
///
/// ```swift
/// print(location)   // config/services.yaml:14:3
/// ```
///
/// Columns count Unicode characters, as libyaml and most editors do. A location is plain data
/// (the file is kept as an interned identifier, as compilers do), so copying the many located
/// values of a large manifest costs nothing.
public struct SourceLocation: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The interned file.
    let fileID: UInt32
    private let storedLine: UInt32
    private let storedColumn: UInt32

    /// Creates a location.
    public init(file: String, line: Int, column: Int) {
        self.init(fileID: SourceFileTable.intern(file), line: line, column: column)
    }

    package init(fileID: UInt32, line: Int, column: Int) {
        self.fileID = fileID
        storedLine = UInt32(clamping: line)
        storedColumn = UInt32(clamping: column)
    }

    /// The path of the file, as it was given to the loader (or resolved from an import).
    public var file: String { SourceFileTable.path(of: fileID) }
    /// The 1-based line.
    public var line: Int { Int(storedLine) }
    /// The 1-based column.
    public var column: Int { Int(storedColumn) }

    /// `file:line:column`, the form compilers print and editors make clickable.
    public var description: String { "\(file):\(line):\(column)" }

    /// Orders by file name, then line, then column.
    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        if lhs.fileID != rhs.fileID { return lhs.file < rhs.file }
        return (lhs.storedLine, lhs.storedColumn) < (rhs.storedLine, rhs.storedColumn)
    }
}

/// The paths of the files locations point into, each stored once for the life of the process.
package enum SourceFileTable {
    private struct State {
        var paths: [String] = []
        var ids: [String: UInt32] = [:]
    }

    private static let state = Locked(State())

    /// The identifier of `path`, assigning one on first use.
    static func intern(_ path: String) -> UInt32 {
        state.withLock { state in
            if let id = state.ids[path] { return id }
            let id = UInt32(state.paths.count)
            state.paths.append(path)
            state.ids[path] = id
            return id
        }
    }

    /// The path interned as `id`.
    package static func path(of id: UInt32) -> String {
        state.withLock { $0.paths[Int(id)] }
    }
}
