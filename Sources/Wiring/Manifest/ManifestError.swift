/// The error thrown when manifests cannot be loaded or a value cannot be read: every problem
/// found, each pointing at its source.
///
/// ```swift
/// do {
///     let manifest = try ManifestLoader().load("config/services.yaml")
/// } catch {
///     for diagnostic in error.diagnostics { print(diagnostic) }
/// }
/// ```
public struct ManifestError: Error, Sendable, CustomStringConvertible {
    /// Every diagnostic of the failed operation, errors first in source order, then warnings.
    public let diagnostics: [Diagnostic]

    /// Creates an error from diagnostics.
    public init(_ diagnostics: [Diagnostic]) {
        self.diagnostics = diagnostics
    }

    /// Creates an error with one error diagnostic.
    public init(_ message: String, at location: SourceLocation?) {
        self.diagnostics = [.error(message, at: location)]
    }

    /// The errors only.
    public var errors: [Diagnostic] { diagnostics.filter { $0.severity == .error } }

    /// Every diagnostic, printed with its source line, one after another.
    public var description: String {
        diagnostics.map(\.description).joined(separator: "\n")
    }
}
