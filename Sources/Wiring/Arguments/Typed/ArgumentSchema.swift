/// What a typed factory expects of its service's `args`: derived from the factory's
/// `Decodable` arguments type without running anything, and carried by the
/// `FactoryCatalog` (in `WiringCommands`) so that `wiring validate --catalog` and editors check arguments too.
///
/// ```swift
/// struct PoolArgs: Decodable, Sendable {
///     enum Mode: String, Decodable, CaseIterable, Sendable { case fast, safe }
///     var url: String
///     var size: Int?
///     var mode: Mode
/// }
/// let schema = ArgumentSchema(PoolArgs.self)
/// // .object(type: "PoolArgs", fields: [url: string, size: integer (optional), mode: enum fast|safe])
/// ```
///
/// A type whose shape cannot be derived (a custom `init(from:)` that reads its keys
/// dynamically, or rejects the placeholder values the derivation feeds it) is
/// ``unknown(type:reason:)``: its arguments are then checked by decoding them when a container
/// is built, and not at all by a catalog.
package indirect enum ArgumentSchema: Sendable, Hashable {
    /// Text.
    case string
    /// A whole number between `minimum` and `maximum` (the Swift type's range).
    case integer(type: String, minimum: Int, maximum: Int)
    /// A floating-point number; a whole number is one too.
    case number
    /// `true` or `false`.
    case boolean
    /// Seconds, or text like `500ms`, `30s`, `5m`, `2h`, `1d`.
    case duration
    /// A URL, written as text.
    case url
    /// One of `cases`: the raw values of an enum of type `type`.
    case enumeration(type: String, cases: [String])
    /// A list of `element`s.
    case list(ArgumentSchema)
    /// A mapping from text keys to `value`s.
    case dictionary(ArgumentSchema)
    /// A mapping with the fields of a struct of type `type`; no other key is allowed.
    case object(type: String, fields: [ArgumentField])
    /// A service written as `!service Key` (or a list of them, or `!tagged tag`), resolved
    /// when the factory runs: a ``Reference`` field of type `type`.
    case reference(type: String)
    /// Any value a ``ManifestDecodable`` type `type` reads: checked by decoding it.
    case value(type: String)
    /// A type whose shape could not be derived, and why.
    case unknown(type: String, reason: String)

    /// What the schema is called in messages: "an integer", "one of fast, safe".
    package var summary: String {
        switch self {
        case .string: "a string"
        case .integer(let type, _, _): type == "Int" ? "an integer" : "an integer (\(type))"
        case .number: "a number"
        case .boolean: "a boolean"
        case .duration: "a duration"
        case .url: "a URL"
        case .enumeration(let type, let cases): "a \(type) (\(cases.joined(separator: ", ")))"
        case .list(let element): "a list of \(element.summary)"
        case .dictionary(let value): "a mapping of \(value.summary)"
        case .object(let type, _): "a mapping (\(type))"
        case .reference(let type): "a service reference (\(type))"
        case .value(let type): "a \(type)"
        case .unknown(let type, _): "a \(type)"
        }
    }
}

/// One field of an ``ArgumentSchema/object(type:fields:)``: its key, what it holds, and whether
/// the manifest must set it.
package struct ArgumentField: Sendable, Hashable {
    /// The key in `args`.
    package var name: String
    /// What its value must be.
    package var schema: ArgumentSchema
    /// Whether the manifest must set it: `false` for an optional field.
    package var isRequired: Bool

    /// Creates a field.
    package init(name: String, schema: ArgumentSchema, isRequired: Bool) {
        self.name = name
        self.schema = schema
        self.isRequired = isRequired
    }
}

extension ArgumentSchema {
    /// The schema of `type`, derived without running any factory.
    package init<T: Decodable>(_ type: T.Type) {
        self = SchemaProbe.schema(of: type)
    }

    /// The fields, for an object.
    package var fields: [ArgumentField]? {
        if case .object(_, let fields) = self { return fields }
        return nil
    }
}
