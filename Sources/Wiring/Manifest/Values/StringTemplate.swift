/// A string with references to fill in when a container is built.
///
/// Two syntaxes that cannot be confused:
///
/// | written | means |
/// | --- | --- |
/// | `${NAME}` | the environment variable `NAME`; unset is a warning when validating, an error when building |
/// | `${NAME:-text}` | the environment variable, or `text` when it is unset or empty |
/// | `$(name)` | the manifest parameter `name` (declared under `parameters:`) |
/// | `$$` | a literal `$` |
///
/// A `$` followed by anything else is kept as it is. When a whole value is one `$(name)`, the
/// parameter's value is used with its kind (a number stays a number).
public struct StringTemplate: Sendable, Hashable {
    /// A piece of a template.
    public enum Part: Sendable, Hashable {
        /// Text kept as written.
        case literal(String)
        /// `${name}` or `${name:-fallback}`.
        case environment(String, fallback: String?)
        /// `$(name)`.
        case parameter(String)
    }

    /// The pieces, in order.
    public let parts: [Part]
    /// The text as written.
    public let source: String

    /// The environment variables it reads.
    public var environmentVariables: [String] {
        parts.compactMap { if case .environment(let name, _) = $0 { name } else { nil } }
    }

    /// The parameters it reads.
    public var parameters: [String] {
        parts.compactMap { if case .parameter(let name) = $0 { name } else { nil } }
    }

    /// Parses `text`: `nil` when it holds no reference (a plain string), a template otherwise.
    /// - Throws: A message saying what is malformed.
    package static func parse(_ text: String) throws(TemplateSyntaxError) -> StringTemplate? {
        guard text.utf8.contains(UInt8(ascii: "$")) else { return nil }
        var parts: [Part] = []
        var literal = ""
        var hasReference = false
        let scalars = Array(text.unicodeScalars)
        var i = 0
        while i < scalars.count {
            let c = scalars[i]
            guard c == "$", i + 1 < scalars.count else {
                literal.unicodeScalars.append(c)
                i += 1
                continue
            }
            let next = scalars[i + 1]
            if next == "$" {
                literal.append("$")
                hasReference = true
                i += 2
                continue
            }
            guard next == "{" || next == "(" else {
                literal.unicodeScalars.append(c)
                i += 1
                continue
            }
            let close: Unicode.Scalar = next == "{" ? "}" : ")"
            guard let end = scalars[(i + 2)...].firstIndex(of: close) else {
                throw TemplateSyntaxError(message: "'\(c)\(next)' is not closed by '\(close)' in '\(text)'; write '$$' for a literal '$'")
            }
            var bodyScalars = scalars[(i + 2)..<end]
            var fallback: String?
            if next == "{", let colon = bodyScalars.indices.first(where: {
                scalars[$0] == ":" && $0 + 1 < end && scalars[$0 + 1] == "-"
            }) {
                fallback = String(String.UnicodeScalarView(scalars[(colon + 2)..<end]))
                bodyScalars = scalars[(i + 2)..<colon]
            }
            let body = String(String.UnicodeScalarView(bodyScalars))
            guard isName(body) else {
                let what = next == "{" ? "environment variable" : "parameter"
                throw TemplateSyntaxError(message: "'\(body)' is not a valid \(what) name (letters, digits, '_', '.' and '-', not starting with a digit)")
            }
            if !literal.isEmpty {
                parts.append(.literal(literal))
                literal = ""
            }
            parts.append(next == "{" ? .environment(body, fallback: fallback) : .parameter(body))
            hasReference = true
            i = end + 1
        }
        if !literal.isEmpty { parts.append(.literal(literal)) }
        return hasReference ? StringTemplate(parts: parts, source: text) : nil
    }

    /// Letters, digits, `_`, `.` and `-`, not starting with a digit.
    private static func isName(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
        return text.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
                || $0 == "_" || $0 == "." || $0 == "-"
        }
    }
}

/// A malformed `${…}` or `$(…)` reference.
package struct TemplateSyntaxError: Error {
    package let message: String
}
