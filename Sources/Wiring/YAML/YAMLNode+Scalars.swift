/// A scalar resolved to a type by the YAML 1.2 core schema (no `yes`/`no` booleans).
package enum YAMLScalarValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)

    /// A short name for a scalar of this value, for messages; `nil` (a tag the text is not)
    /// reads as a string.
    static func kindDescription(of value: YAMLScalarValue?) -> String {
        switch value {
        case .null: "null"
        case .bool: "a boolean"
        case .int: "an integer"
        case .double: "a number"
        case .string, .none: "a string"
        }
    }
}

extension YAMLNode {
    /// The scalar's typed value: quoted scalars are strings, plain ones follow the core schema,
    /// explicit tags (`!!str`, `!!int`, …) win. `nil` when the node is not a scalar or a tag
    /// asks for a type the text is not.
    var resolvedScalar: YAMLScalarValue? {
        guard case .scalar(let text, let style) = content else { return nil }
        return Self.resolve(text, style: style, tag: tag)
    }

    /// A scalar's typed value from its text, how it was written and its tag (see
    /// ``resolvedScalar``).
    package static func resolve(_ text: String, style: YAMLScalarStyle, tag: YAMLTag) -> YAMLScalarValue? {
        switch tag {
        case .string, .nonSpecific, .secret, .service, .tagged: return .string(text)
        case .int: return Self.parseInt(text).map(YAMLScalarValue.int)
        case .float: return (Self.parseDouble(text) ?? Self.parseInt(text).map(Double.init)).map(YAMLScalarValue.double)
        case .bool: return Self.parseBool(text).map(YAMLScalarValue.bool)
        case .null: return Self.isNull(text) ? .null : nil
        case .map, .seq, .merge, .replace: return nil
        case .placeholder: return .null
        case .none:
            guard style.isPlain else { return .string(text) }
            return resolvePlain(text)
        }
    }

    /// Resolves plain scalar text by the core schema.
    static func resolvePlain(_ text: String) -> YAMLScalarValue {
        guard let first = text.utf8.first else { return .null }
        // Fast path: most manifest scalars are names, which neither start like a number nor
        // have the length of the null or boolean that starts with their first letter.
        guard mayReadAsOtherThanString(startingWith: first, count: text.utf8.count) else { return .string(text) }
        switch first {
        case UInt8(ascii: "n"), UInt8(ascii: "N"), UInt8(ascii: "~"):
            if isNull(text) { return .null }
        case UInt8(ascii: "t"), UInt8(ascii: "T"), UInt8(ascii: "f"), UInt8(ascii: "F"):
            if let bool = parseBool(text) { return .bool(bool) }
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."):
            if let int = parseInt(text) { return .int(int) }
            if let double = parseDouble(text) { return .double(double) }
        default:
            break
        }
        return .string(text)
    }

    /// Whether a plain scalar of `count` bytes starting with `first` may read as something
    /// other than a string. Only null (`~`, and `null` in three spellings, all of 4 bytes),
    /// the booleans (`true` and `false` in three spellings each) and numbers and the special
    /// floats (which start with a digit, a sign or a dot) do: `name-7` is a string by its
    /// length alone.
    @inline(__always)
    static func mayReadAsOtherThanString(startingWith first: UInt8, count: Int) -> Bool {
        switch first {
        case UInt8(ascii: "~"): count == 1
        case UInt8(ascii: "n"), UInt8(ascii: "N"), UInt8(ascii: "t"), UInt8(ascii: "T"): count == 4
        case UInt8(ascii: "f"), UInt8(ascii: "F"): count == 5
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."): true
        default: false
        }
    }

    static func isNull(_ text: String) -> Bool {
        guard text.utf8.count <= 4 else { return false }
        return text == "~" || text == "null" || text == "Null" || text == "NULL" || text.isEmpty
    }

    static func parseBool(_ text: String) -> Bool? {
        let length = text.utf8.count
        guard length == 4 || length == 5 else { return nil }
        return switch text {
        case "true", "True", "TRUE": true
        case "false", "False", "FALSE": false
        default: nil
        }
    }

    static func parseInt(_ text: String) -> Int? {
        if text.hasPrefix("0x") { return Int(text.dropFirst(2), radix: 16) }
        if text.hasPrefix("0o") { return Int(text.dropFirst(2), radix: 8) }
        guard text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "+") }) else {
            return nil
        }
        return Int(text)
    }

    static func parseDouble(_ text: String) -> Double? {
        switch text {
        case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF": return .infinity
        case "-.inf", "-.Inf", "-.INF": return -.infinity
        case ".nan", ".NaN", ".NAN": return .nan
        default: break
        }
        // Core schema floats: digits with a dot and/or an exponent; Swift's parser would also
        // take "nan", "inf" or hex floats, which YAML does not mean as numbers.
        var sawDigit = false
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): sawDigit = true
            case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"), UInt8(ascii: "-"), UInt8(ascii: "+"): continue
            default: return nil
            }
        }
        return sawDigit ? Double(text) : nil
    }
}
