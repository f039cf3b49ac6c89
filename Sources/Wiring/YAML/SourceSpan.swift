/// Where a node was written, from its first character to just past its last: 1-based lines and
/// columns, columns counted in characters.
package struct SourceSpan: Sendable, Equatable {
    var startLine: Int
    var startColumn: Int
    var endLine: Int
    var endColumn: Int

    package init(startLine: Int, startColumn: Int, endLine: Int, endColumn: Int) {
        self.startLine = startLine
        self.startColumn = startColumn
        self.endLine = endLine
        self.endColumn = endColumn
    }
}
