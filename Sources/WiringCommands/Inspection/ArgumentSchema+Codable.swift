package import Wiring

/// How a schema is written in a catalog file: one JSON object per value, its kind under
/// `type`, the Swift type under `swiftType` where there is one.
///
/// ```json
/// {"type": "object", "swiftType": "PoolArgs", "fields": [
///     {"name": "url", "required": true, "schema": {"type": "string"}},
///     {"name": "mode", "required": true, "schema": {"type": "enum", "swiftType": "Mode", "cases": ["fast", "safe"]}}]}
/// ```
///
/// A kind this version does not know reads as ``ArgumentSchema/unknown(type:reason:)``: a
/// newer catalog is checked as far as this version can, never refused for it.
extension ArgumentSchema: Codable {
    private enum CodingKeys: String, CodingKey {
        case type, swiftType, minimum, maximum, cases, element, value, fields, reason
    }

    /// Reads a schema as a catalog writes it.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let kind = try container.decode(String.self, forKey: .type)
        let swiftType = try container.decodeIfPresent(String.self, forKey: .swiftType) ?? kind
        switch kind {
        case "string": self = .string
        case "integer":
            self = .integer(type: swiftType, minimum: try container.decodeIfPresent(Int.self, forKey: .minimum) ?? .min,
                            maximum: try container.decodeIfPresent(Int.self, forKey: .maximum) ?? .max)
        case "number": self = .number
        case "boolean": self = .boolean
        case "duration": self = .duration
        case "url": self = .url
        case "enum": self = .enumeration(type: swiftType, cases: try container.decode([String].self, forKey: .cases))
        case "list": self = .list(try container.decode(ArgumentSchema.self, forKey: .element))
        case "map": self = .dictionary(try container.decode(ArgumentSchema.self, forKey: .value))
        case "object": self = .object(type: swiftType, fields: try container.decode([ArgumentField].self, forKey: .fields))
        case "reference": self = .reference(type: swiftType)
        case "value": self = .value(type: swiftType)
        case "unknown":
            self = .unknown(type: swiftType, reason: try container.decodeIfPresent(String.self, forKey: .reason) ?? "not derived")
        default: self = .unknown(type: swiftType, reason: "kind '\(kind)' is not known to this version of Wiring")
        }
    }

    /// Writes the schema as a catalog holds it.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .string: try container.encode("string", forKey: .type)
        case .integer(let type, let minimum, let maximum):
            try container.encode("integer", forKey: .type)
            try container.encode(type, forKey: .swiftType)
            try container.encode(minimum, forKey: .minimum)
            try container.encode(maximum, forKey: .maximum)
        case .number: try container.encode("number", forKey: .type)
        case .boolean: try container.encode("boolean", forKey: .type)
        case .duration: try container.encode("duration", forKey: .type)
        case .url: try container.encode("url", forKey: .type)
        case .enumeration(let type, let cases):
            try container.encode("enum", forKey: .type)
            try container.encode(type, forKey: .swiftType)
            try container.encode(cases, forKey: .cases)
        case .list(let element):
            try container.encode("list", forKey: .type)
            try container.encode(element, forKey: .element)
        case .dictionary(let value):
            try container.encode("map", forKey: .type)
            try container.encode(value, forKey: .value)
        case .object(let type, let fields):
            try container.encode("object", forKey: .type)
            try container.encode(type, forKey: .swiftType)
            try container.encode(fields, forKey: .fields)
        case .reference(let type):
            try container.encode("reference", forKey: .type)
            try container.encode(type, forKey: .swiftType)
        case .value(let type):
            try container.encode("value", forKey: .type)
            try container.encode(type, forKey: .swiftType)
        case .unknown(let type, let reason):
            try container.encode("unknown", forKey: .type)
            try container.encode(type, forKey: .swiftType)
            try container.encode(reason, forKey: .reason)
        }
    }
}

extension ArgumentField: Codable {
    private enum CodingKeys: String, CodingKey {
        case name, required, schema
    }

    /// Reads a field as a catalog writes it: `{"name", "required", "schema"}`.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(name: try container.decode(String.self, forKey: .name),
                  schema: try container.decode(ArgumentSchema.self, forKey: .schema),
                  isRequired: try container.decode(Bool.self, forKey: .required))
    }

    /// Writes the field as a catalog holds it.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(isRequired, forKey: .required)
        try container.encode(schema, forKey: .schema)
    }
}
