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

    /// A reference found by ``scan(_:_:)``, with the text around it left in place.
    package enum Reference {
        /// Text from the source, up to the next reference; `$$` arrives as a piece ending in `$`.
        case literal(Substring)
        case environment(Substring, fallback: Substring?)
        case parameter(Substring)
    }

    /// Walks `text` piece by piece without building anything: the loader checks references
    /// this way, and ``parse(_:)`` builds a template from the same walk.
    /// - Returns: Whether `text` held any reference or `$$`.
    /// - Throws: A message saying what is malformed.
    @discardableResult
    package static func scan(_ text: String, _ visit: (Reference) -> Void) throws(TemplateSyntaxError) -> Bool {
        let utf8 = text.utf8
        var literalStart = utf8.startIndex
        var hasReference = false
        var i = utf8.startIndex
        while i != utf8.endIndex {
            guard utf8[i] == UInt8(ascii: "$") else {
                i = utf8.index(after: i)
                continue
            }
            let next = utf8.index(after: i)
            guard next != utf8.endIndex else { break }
            let opener = utf8[next]
            if opener == UInt8(ascii: "$") {
                visit(.literal(text[literalStart..<next]))
                hasReference = true
                i = utf8.index(after: next)
                literalStart = i
                continue
            }
            guard opener == UInt8(ascii: "{") || opener == UInt8(ascii: "(") else {
                i = next
                continue
            }
            let isEnvironment = opener == UInt8(ascii: "{")
            let closer = isEnvironment ? UInt8(ascii: "}") : UInt8(ascii: ")")
            let bodyStart = utf8.index(after: next)
            guard let end = utf8[bodyStart...].firstIndex(of: closer) else {
                let open = isEnvironment ? "${" : "$(", close = isEnvironment ? "}" : ")"
                throw TemplateSyntaxError(message: "'\(open)' is not closed by '\(close)' in '\(text)'; write '$$' for a literal '$'")
            }
            var nameEnd = end
            var fallback: Substring?
            if isEnvironment, let colon = utf8[bodyStart..<end].firstIndex(of: UInt8(ascii: ":")),
               utf8.index(after: colon) != end, utf8[utf8.index(after: colon)] == UInt8(ascii: "-") {
                fallback = text[utf8.index(colon, offsetBy: 2)..<end]
                nameEnd = colon
            }
            let name = text[bodyStart..<nameEnd]
            guard isName(name) else {
                let what = isEnvironment ? "environment variable" : "parameter"
                throw TemplateSyntaxError(message: "'\(name)' is not a valid \(what) name (letters, digits, '_', '.' and '-', not starting with a digit)")
            }
            if literalStart != i { visit(.literal(text[literalStart..<i])) }
            visit(isEnvironment ? .environment(name, fallback: fallback) : .parameter(name))
            hasReference = true
            i = utf8.index(after: end)
            literalStart = i
        }
        if literalStart != utf8.endIndex { visit(.literal(text[literalStart...])) }
        return hasReference
    }

    /// Parses `text`: `nil` when it holds no reference (a plain string), a template otherwise.
    /// - Throws: A message saying what is malformed.
    package static func parse(_ text: String) throws(TemplateSyntaxError) -> StringTemplate? {
        guard text.utf8.contains(UInt8(ascii: "$")) else { return nil }
        var parts: [Part] = []
        var literal = ""
        let hasReference = try scan(text) { reference in
            switch reference {
            case .literal(let piece):
                literal += piece
            case .environment(let name, let fallback):
                if !literal.isEmpty { parts.append(.literal(literal)) }
                literal = ""
                parts.append(.environment(String(name), fallback: fallback.map(String.init)))
            case .parameter(let name):
                if !literal.isEmpty { parts.append(.literal(literal)) }
                literal = ""
                parts.append(.parameter(String(name)))
            }
        }
        if !literal.isEmpty { parts.append(.literal(literal)) }
        return hasReference ? StringTemplate(parts: parts, source: text) : nil
    }

    /// Letters, digits, `_`, `.` and `-`, not starting with a digit.
    private static func isName(_ text: Substring) -> Bool {
        guard let first = text.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return false }
        return text.utf8.allSatisfy {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-")
        }
    }
}

/// A malformed `${…}` or `$(…)` reference.
package struct TemplateSyntaxError: Error {
    package let message: String
}
