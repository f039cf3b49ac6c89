/// A `${key}` with no default that a manifest file reads while a configuration is given (a
/// container's source, `validate --config FILE`), kept by the decoder and checked once the
/// manifest is assembled: by then the type each key is needed as is known, so the source is
/// asked for each key once, as that type (``ExternalValues``).
package struct ConfigurationRead: Sendable {
    /// The key.
    package let name: String
    /// Where the reference is written.
    package let location: SourceLocation
    /// The context whose body holds it, if any.
    package let context: String?

    /// What the reference reports when `values` cannot fill it in: an error, or in a context a
    /// warning (binding reports it as an error when that context applies); `nil` when it can.
    package func problem(in values: ExternalValues) -> Diagnostic? {
        guard let problem = values.problem(reading: name, found: values.lookup(name)) else { return nil }
        guard let context else { return .error(problem, at: location) }
        return .warning(problem + " (context '\(context)'); building a container with that context will fail unless it is set",
                        at: location)
    }
}
