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
///
/// A factory never sees one: the values it reads are filled in, and a ``ManifestValue`` shows
/// an unfilled one as its text (``ManifestValue/Kind/string(_:)``).
package struct StringTemplate: Sendable, Hashable {
    /// A piece of a template.
    package enum Part: Sendable, Hashable {
        /// Text kept as written.
        case literal(String)
        /// `${name}` or `${name:-fallback}`.
        case environment(String, fallback: String?)
        /// `$(name)`.
        case parameter(String)
    }

    /// The pieces, in order.
    package let parts: [Part]
    /// The text as written.
    package let source: String

    /// The environment variables it reads.
    package var environmentVariables: [String] {
        parts.compactMap { if case .environment(let name, _) = $0 { name } else { nil } }
    }

    /// The parameters it reads.
    package var parameters: [String] {
        parts.compactMap { if case .parameter(let name) = $0 { name } else { nil } }
    }

    /// A reference found by ``scan(_:_:)``, with the text around it left in place.
    package enum Reference {
        /// Text from the source, up to the next reference; `$$` arrives as a piece ending in `$`.
        case literal(Substring)
        case environment(Substring, fallback: Substring?)
        case parameter(Substring)
    }

    /// A piece of a template, as the byte offsets of its text in the template's UTF-8.
    package enum ReferenceBytes {
        case literal(Range<Int>)
        case environment(Range<Int>, fallback: Range<Int>?)
        case parameter(Range<Int>)
    }

    /// Walks `text` piece by piece without building anything: the loader checks references
    /// this way, and ``parse(_:)`` builds a template from the same walk.
    /// - Returns: Whether `text` held any reference or `$$`.
    /// - Throws: A message saying what is malformed.
    @discardableResult
    package static func scan(_ text: String, _ visit: (Reference) -> Void) throws(TemplateSyntaxError) -> Bool {
        var text = text
        text.makeContiguousUTF8()
        // The walk reads bytes by offset; only the pieces it hands over become substrings.
        let utf8 = text.utf8
        func piece(_ range: Range<Int>) -> Substring {
            text[utf8.index(utf8.startIndex, offsetBy: range.lowerBound)..<utf8.index(utf8.startIndex, offsetBy: range.upperBound)]
        }
        let outcome = utf8.withContiguousStorageIfAvailable { bytes in
            scan(bytes) { reference in
                switch reference {
                case .literal(let range): visit(.literal(piece(range)))
                case .environment(let name, let fallback): visit(.environment(piece(name), fallback: fallback.map(piece)))
                case .parameter(let name): visit(.parameter(piece(name)))
                }
            }
        }!
        switch outcome {
        case .success(let hasReference): return hasReference
        case .failure(let error): throw error
        }
    }

    /// ``scan(_:_:)`` over a template's UTF-8 bytes, handing `visit` the offsets of each piece:
    /// no string is made unless the template is malformed.
    @discardableResult
    package static func scan(
        utf8 bytes: UnsafeBufferPointer<UInt8>, _ visit: (ReferenceBytes) -> Void
    ) throws(TemplateSyntaxError) -> Bool {
        switch scan(bytes, visit) {
        case .success(let hasReference): return hasReference
        case .failure(let error): throw error
        }
    }

    private static func scan(
        _ bytes: UnsafeBufferPointer<UInt8>, _ visit: (ReferenceBytes) -> Void
    ) -> Result<Bool, TemplateSyntaxError> {
        func text(_ start: Int, _ end: Int) -> String {
            String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        }
        let count = bytes.count
        var literalStart = 0
        var hasReference = false
        var i = 0
        while i < count {
            guard bytes[i] == UInt8(ascii: "$") else {
                i += 1
                continue
            }
            let next = i + 1
            guard next < count else { break }
            let opener = bytes[next]
            if opener == UInt8(ascii: "$") {
                visit(.literal(literalStart..<next))
                hasReference = true
                i = next + 1
                literalStart = i
                continue
            }
            guard opener == UInt8(ascii: "{") || opener == UInt8(ascii: "(") else {
                i = next
                continue
            }
            let isEnvironment = opener == UInt8(ascii: "{")
            let closer = isEnvironment ? UInt8(ascii: "}") : UInt8(ascii: ")")
            let bodyStart = next + 1
            guard let end = bytes[bodyStart...].firstIndex(of: closer) else {
                let open = isEnvironment ? "${" : "$(", close = isEnvironment ? "}" : ")"
                return .failure(TemplateSyntaxError(
                    message: "'\(open)' is not closed by '\(close)' in '\(text(0, count))'; write '$$' for a literal '$'"))
            }
            var nameEnd = end
            var fallback: Range<Int>?
            if isEnvironment, let colon = bytes[bodyStart..<end].firstIndex(of: UInt8(ascii: ":")),
               colon + 1 != end, bytes[colon + 1] == UInt8(ascii: "-") {
                fallback = colon + 2..<end
                nameEnd = colon
            }
            guard isName(UnsafeBufferPointer(rebasing: bytes[bodyStart..<nameEnd])) else {
                let what = isEnvironment ? "environment variable" : "parameter"
                return .failure(TemplateSyntaxError(message: "'\(text(bodyStart, nameEnd))' is not a valid \(what) name (letters, digits, '_', '.' and '-', not starting with a digit)"))
            }
            if literalStart != i { visit(.literal(literalStart..<i)) }
            let name = bodyStart..<nameEnd
            visit(isEnvironment ? .environment(name, fallback: fallback) : .parameter(name))
            hasReference = true
            i = end + 1
            literalStart = i
        }
        if literalStart != count { visit(.literal(literalStart..<count)) }
        return .success(hasReference)
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
    private static func isName(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = bytes.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return false }
        return bytes.allSatisfy {
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
