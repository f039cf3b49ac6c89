/// A value written in a manifest (a service's `args`, a parameter), with its position.
///
/// Scalars are typed by the YAML 1.2 core schema: `8080` is an integer, `"8080"` a string,
/// `true` a boolean (`yes` is a string). Strings that hold `${VAR}` or `$(param)` are kept as
/// a ``StringTemplate`` until a container is built. Read values typed with ``decode(_:)``:
///
/// ```swift
/// let port = try service.args?.decode("port", as: Int.self)
/// ```
public struct ManifestValue: Sendable, CustomStringConvertible {
    /// The kinds of value.
    public enum Kind: Sendable {
        case null
        case bool(Bool)
        case int(Int)
        case double(Double)
        case string(String)
        /// A string with environment or parameter references, resolved when a container is built.
        case template(StringTemplate)
        case list([ManifestValue])
        case map(ManifestMap)
    }

    /// The value.
    public let kind: Kind
    /// Where it was written.
    public let location: SourceLocation
    /// Whether the value must not be shown: tagged `!secret`, or read from the environment.
    public let isSecret: Bool
    /// Whether a string was produced by interpolation, so that typed reads may parse it
    /// (`${PORT:-8080}` read as an `Int`).
    package let isInterpolated: Bool

    /// Creates a value.
    public init(_ kind: Kind, at location: SourceLocation, isSecret: Bool = false) {
        self.init(kind, at: location, isSecret: isSecret, isInterpolated: false)
    }

    package init(_ kind: Kind, at location: SourceLocation, isSecret: Bool, isInterpolated: Bool) {
        self.kind = kind
        self.location = location
        self.isSecret = isSecret
        self.isInterpolated = isInterpolated
    }

    /// A short name of the value's kind for messages: "a string", "an integer", "a list".
    public var kindDescription: String {
        switch kind {
        case .null: "null"
        case .bool: "a boolean"
        case .int: "an integer"
        case .double: "a number"
        case .string, .template: "a string"
        case .list: "a list"
        case .map: "a mapping"
        }
    }

    /// The value as YAML-like text; secret values print as `<redacted>`.
    public var description: String {
        if isSecret { return "<redacted>" }
        switch kind {
        case .null: return "null"
        case .bool(let value): return String(value)
        case .int(let value): return String(value)
        case .double(let value): return String(value)
        case .string(let value): return value
        case .template(let template): return template.source
        case .list(let values): return "[" + values.map(\.description).joined(separator: ", ") + "]"
        case .map(let map): return "{" + map.entries.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "}"
        }
    }

    /// Every template inside this value, nested ones included.
    package func forEachTemplate(_ body: (StringTemplate, SourceLocation) -> Void) {
        switch kind {
        case .template(let template): body(template, location)
        case .list(let values): values.forEach { $0.forEachTemplate(body) }
        case .map(let map): map.entries.forEach { $0.value.forEachTemplate(body) }
        default: break
        }
    }
}

/// A mapping of a manifest, its keys in source order, each with its position.
public struct ManifestMap: Sendable {
    /// One key and its value.
    public struct Entry: Sendable {
        /// The key.
        public let key: String
        /// Where the key was written.
        public let keyLocation: SourceLocation
        /// The value.
        public let value: ManifestValue
    }

    /// The entries, in source order.
    public let entries: [Entry]
    /// Where the mapping starts.
    public let location: SourceLocation

    /// Creates a mapping.
    public init(_ entries: [Entry], at location: SourceLocation) {
        self.entries = entries
        self.location = location
    }

    /// The keys, in source order.
    public var keys: [String] { entries.map(\.key) }

    /// The value for `key`, if present.
    public subscript(key: String) -> ManifestValue? {
        entries.first { $0.key == key }?.value
    }
}
