/// A type that can be read from a ``ManifestValue``, with an error that points at the value
/// when its kind is wrong.
///
/// `String`, `Int`, `Double`, `Bool`, `Duration`, `URL`, arrays, string-keyed dictionaries, optionals
/// and ``ManifestValue`` itself conform. Conform your own types to read them from `args`:
///
/// ```swift
/// enum LogLevel: String, ManifestDecodable {
///     case debug, info, error
///     static let manifestTypeDescription = "a log level (debug, info, error)"
///     init(manifestValue value: ManifestValue) throws(ManifestError) {
///         let text = try String(manifestValue: value)
///         guard let level = LogLevel(rawValue: text) else { throw value.mismatch(Self.self) }
///         self = level
///     }
/// }
/// ```
public protocol ManifestDecodable: Sendable {
    /// What the type is called in messages: "an integer", "a URL".
    static var manifestTypeDescription: String { get }
    /// Reads the type from a value.
    /// - Throws: ``ManifestError`` pointing at the value when it is of the wrong kind.
    init(manifestValue value: ManifestValue) throws(ManifestError)
}

extension ManifestValue {
    /// Reads the value as `type`.
    /// - Throws: ``ManifestError`` naming the expected and the found kind, at the value.
    public func decode<T: ManifestDecodable>(_ type: T.Type = T.self) throws(ManifestError) -> T {
        try T(manifestValue: self)
    }

    /// The error for a value that is not of the expected type.
    public func mismatch<T: ManifestDecodable>(_ type: T.Type) -> ManifestError {
        ManifestError("expected \(T.manifestTypeDescription), found \(foundDescription())", at: location)
    }

    /// What a message says was found: the kind, and the value unless it is secret. For a secret
    /// value, `source` (the environment variable it came from), when known, instead.
    func foundDescription(source: String? = nil) -> String {
        let found = kindDescription
        if isSecret { return source.map { "\(found) from \($0)" } ?? found }
        switch kind {
        case .string(let text): return "\(found) '\(text)'"
        case .int, .double, .bool: return "\(found) (\(description))"
        default: return found
        }
    }

    fileprivate var interpolatedText: String? {
        if isInterpolated, case .string(let text) = kind { return text }
        return nil
    }
}

extension ManifestMap {
    /// Reads the value for `key` as `type`.
    /// - Throws: ``ManifestError`` when the key is missing (at the mapping) or of the wrong kind.
    public func decode<T: ManifestDecodable>(_ key: String, as type: T.Type = T.self) throws(ManifestError) -> T {
        guard let value = self[key] else {
            if let optional = T.self as? any OptionalManifestDecodable.Type {
                return optional.absent as! T
            }
            throw ManifestError(
                "missing key '\(key)'\(Suggestion.hint(for: key, in: keys))", at: location)
        }
        return try value.decode(T.self)
    }
}

extension String: ManifestDecodable {
    /// How errors name what this type reads.
    public static var manifestTypeDescription: String { "a string" }
    /// Reads a string; anything else is a ``ManifestError`` at the value's position.
    public init(manifestValue value: ManifestValue) throws(ManifestError) {
        guard case .string(let text) = value.kind else { throw value.mismatch(Self.self) }
        self = text
    }
}

extension Int: ManifestDecodable {
    /// How errors name what this type reads.
    public static var manifestTypeDescription: String { "an integer" }
    /// Reads an integer, or an interpolated string that parses as one; anything else is a
    /// ``ManifestError`` at the value's position.
    public init(manifestValue value: ManifestValue) throws(ManifestError) {
        if case .int(let number) = value.kind {
            self = number
        } else if let text = value.interpolatedText, let number = YAMLNode.parseInt(text) {
            self = number
        } else {
            throw value.mismatch(Self.self)
        }
    }
}

extension Double: ManifestDecodable {
    /// How errors name what this type reads.
    public static var manifestTypeDescription: String { "a number" }
    /// Reads a number, or an interpolated string that parses as one; anything else is a ``ManifestError``
    /// at the value's position.
    public init(manifestValue value: ManifestValue) throws(ManifestError) {
        switch value.kind {
        case .double(let number): self = number
        case .int(let number): self = Double(number)
        default:
            guard let text = value.interpolatedText,
                  let number = YAMLNode.parseDouble(text) ?? YAMLNode.parseInt(text).map(Double.init)
            else { throw value.mismatch(Self.self) }
            self = number
        }
    }
}

extension Bool: ManifestDecodable {
    /// How errors name what this type reads.
    public static var manifestTypeDescription: String { "a boolean" }
    /// Reads `true` or `false`, or an interpolated string that is one; anything else is a
    /// ``ManifestError`` at the value's position.
    public init(manifestValue value: ManifestValue) throws(ManifestError) {
        if case .bool(let flag) = value.kind {
            self = flag
        } else if let text = value.interpolatedText, let flag = YAMLNode.parseBool(text) {
            self = flag
        } else {
            throw value.mismatch(Self.self)
        }
    }
}

extension Duration: ManifestDecodable {
    /// The longest duration a manifest may write: 100 years, far past any time-to-live, and
    /// far below what would overflow.
    package static let manifestMaximumSeconds: Double = 100 * 365.25 * 86400

    /// How errors name what this type reads.
    public static var manifestTypeDescription: String { "a duration (seconds, or text like 500ms, 30s, 5m, 2h, 1d; at most 100 years)" }
    /// Reads seconds as a number, or text such as `500ms`, `30s`, `5m`, `2h`, `1d`; anything else is a
    /// ``ManifestError`` at the value's position.
    public init(manifestValue value: ManifestValue) throws(ManifestError) {
        let seconds: Double
        switch value.kind {
        case .int(let number): seconds = Double(number)
        case .double(let number): seconds = number
        case .string(let text):
            guard let parsed = Self.parseSeconds(text) else { throw value.mismatch(Self.self) }
            seconds = parsed
        default: throw value.mismatch(Self.self)
        }
        guard let duration = Self(manifestSeconds: seconds) else { throw value.mismatch(Self.self) }
        self = duration
    }

    /// A duration of `seconds`, to the millisecond; `nil` past what a manifest may write
    /// (negative, not finite, or past ``manifestMaximumSeconds``).
    package init?(manifestSeconds seconds: Double) {
        guard seconds.isFinite, seconds >= 0, seconds <= Self.manifestMaximumSeconds else { return nil }
        self = .milliseconds(Int64((seconds * 1000).rounded()))
    }

    /// Parses `500ms`, `30s`, `1.5m`, `2h`, `1d` into seconds: digits and dots, then a unit.
    static func parseSeconds(_ text: String) -> Double? {
        let bytes = text.utf8
        guard let last = bytes.last else { return nil }
        var unitLength = 1
        let factor: Double
        switch last {
        case UInt8(ascii: "s"):
            if bytes.count >= 2, bytes[bytes.index(bytes.endIndex, offsetBy: -2)] == UInt8(ascii: "m") {
                (factor, unitLength) = (0.001, 2)
            } else {
                factor = 1
            }
        case UInt8(ascii: "m"): factor = 60
        case UInt8(ascii: "h"): factor = 3600
        case UInt8(ascii: "d"): factor = 86400
        default: return nil
        }
        let digits = bytes.dropLast(unitLength)
        // Whole numbers, which most durations are, without going through `Double`'s parser.
        if (1...15).contains(digits.count) {
            var whole = 0
            for byte in digits {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else {
                    whole = -1
                    break
                }
                whole = whole * 10 + Int(byte - UInt8(ascii: "0"))
            }
            if whole >= 0 { return Double(whole) * factor }
        }
        let number = Substring(digits)
        guard !number.isEmpty,
              number.utf8.allSatisfy({ ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: ".") }),
              let amount = Double(number) else { return nil }
        return amount * factor
    }
}

extension ManifestValue: ManifestDecodable {
    /// How errors name what this type reads.
    public static var manifestTypeDescription: String { "any value" }
    /// The value itself, as written.
    public init(manifestValue value: ManifestValue) throws(ManifestError) { self = value }
}

extension Array: ManifestDecodable where Element: ManifestDecodable {
    /// How errors name what this type reads.
    public static var manifestTypeDescription: String { "a list of \(Element.manifestTypeDescription)" }
    /// Reads a list, each element read as an `Element`; anything else is a ``ManifestError`` at the
    /// value's position.
    public init(manifestValue value: ManifestValue) throws(ManifestError) {
        guard case .list(let values) = value.kind else { throw value.mismatch(Self.self) }
        self = []
        reserveCapacity(values.count)
        for element in values { append(try Element(manifestValue: element)) }
    }
}

extension Dictionary: ManifestDecodable where Key == String, Value: ManifestDecodable {
    /// How errors name what this type reads.
    public static var manifestTypeDescription: String { "a mapping of \(Value.manifestTypeDescription)" }
    /// Reads a mapping, each value read as a `Value`; anything else is a ``ManifestError`` at the value's
    /// position.
    public init(manifestValue value: ManifestValue) throws(ManifestError) {
        guard case .map(let map) = value.kind else { throw value.mismatch(Self.self) }
        self = [:]
        for entry in map.entries { self[entry.key] = try Value(manifestValue: entry.value) }
    }
}

/// Optionals read `null` (and a missing key) as `nil`.
package protocol OptionalManifestDecodable {
    static var absent: Self { get }
}

extension Optional: OptionalManifestDecodable {
    package static var absent: Optional<Wrapped> { nil }
}

extension Optional: ManifestDecodable where Wrapped: ManifestDecodable {
    /// How errors name what this type reads.
    public static var manifestTypeDescription: String { Wrapped.manifestTypeDescription + " or null" }
    /// Reads `null` as `nil`, anything else as a `Wrapped`.
    public init(manifestValue value: ManifestValue) throws(ManifestError) {
        if case .null = value.kind {
            self = nil
        } else {
            self = try Wrapped(manifestValue: value)
        }
    }
}
