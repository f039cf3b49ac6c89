/// What reading one YAML file produced: its document (absent when the file is empty or could
/// not be read) and every problem found on the way.
package struct YAMLReadResult: Sendable {
    /// The root node, stored with the rest of the document.
    package var document: StoredNode?
    package var diagnostics: [Diagnostic]
    /// Where each scalar tagged `!secret` was written.
    var secrets: [SourceSpan] = []

    /// The document as a tree of nodes, for what prefers one to a store.
    package var root: YAMLNode? { document?.node }
}

/// Reads YAML through libyaml's event API into a ``NodeStore``, on the caller's thread.
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
            return YAMLReadResult(document: nil, diagnostics: [error])
        }
        if bytes.isEmpty { return YAMLReadResult(document: nil, diagnostics: []) }
        var builder = DocumentBuilder(file: file, limits: limits)
        bytes.withUnsafeBufferPointer { builder.run($0) }
        let document = builder.root.map { StoredNode(store: builder.store, index: $0) }
        return YAMLReadResult(document: document, diagnostics: builder.diagnostics, secrets: builder.secrets)
    }
}
