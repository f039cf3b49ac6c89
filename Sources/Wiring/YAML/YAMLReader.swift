/// What reading one YAML file produced: its root node (absent when the file is empty or could
/// not be read) and every problem found on the way.
package struct YAMLReadResult: Sendable {
    package var root: YAMLNode?
    package var diagnostics: [Diagnostic]
}

/// Reads YAML through libyaml's event API into Wiring's own ``YAMLNode`` tree, on the
/// caller's thread.
///
/// Syntax errors and exceeded limits stop reading; duplicate keys, undefined aliases and unknown
/// tags are reported and reading goes on, so one pass finds all of them.
package enum YAMLReader {
    /// Reads `bytes`, naming `file` in every position.
    package static func read(_ bytes: [UInt8], file: String, limits: YAMLLimits = .default) -> YAMLReadResult {
        if bytes.count > limits.maxFileSize {
            let error = Diagnostic.error(
                "file is \(bytes.count) bytes, more than the limit of \(limits.maxFileSize) bytes",
                at: SourceLocation(file: file, line: 1, column: 1))
            return YAMLReadResult(root: nil, diagnostics: [error])
        }
        if bytes.isEmpty { return YAMLReadResult(root: nil, diagnostics: []) }
        var builder = TreeBuilder(file: file, limits: limits)
        bytes.withUnsafeBufferPointer { builder.run($0) }
        return YAMLReadResult(root: builder.root, diagnostics: builder.diagnostics)
    }
}
