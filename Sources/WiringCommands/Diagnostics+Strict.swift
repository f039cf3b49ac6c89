import Wiring

extension [Diagnostic] {
    /// Makes every warning an error: what `--strict` and a plugin configuration's `strict` do.
    mutating func treatWarningsAsErrors() {
        for index in indices where self[index].severity == .warning { self[index].severity = .error }
    }
}
