package import Wiring


extension ArgumentSchema {
    /// A string that holds a `${VAR}` or `$(param)` reference: filled in when a container is
    /// built, so it may stand where a number, a boolean or a case is asked for.
    private static var templateString: [String: Any] { ["type": "string", "pattern": "\\$[{(]"] }

    /// The JSON Schema of values of this schema, for editors: a manifest's YAML as JSON.
    ///
    /// - Parameter allRequired: Whether an object's required fields are required here: not in
    ///   a named variant's or a context's `args`, which are laid over the service's.
    package func jsonSchema(allRequired: Bool = true) -> [String: Any] {
        func scalar(_ schema: [String: Any]) -> [String: Any] {
            ["anyOf": [schema, Self.templateString], "description": summary]
        }
        switch self {
        case .string: return ["type": "string"]
        case .integer(_, let minimum, let maximum): return scalar(["type": "integer", "minimum": minimum, "maximum": maximum])
        case .number: return scalar(["type": "number"])
        case .boolean: return scalar(["type": "boolean"])
        case .duration: return ["$ref": "#/$defs/duration", "description": summary]
        case .url: return ["type": "string", "description": summary]
        case .enumeration: return scalar(["enum": enumerationCases])
        case .list(let element): return ["type": "array", "items": element.jsonSchema()]
        case .dictionary(let value): return ["type": "object", "additionalProperties": value.jsonSchema()]
        case .object(let type, let fields):
            var properties: [String: Any] = [:]
            for field in fields {
                var property = field.schema.jsonSchema()
                property["description"] = "\(type).\(field.name): \(field.schema.summary)\(field.isRequired ? "" : ", optional")"
                properties[field.name] = property
            }
            var object: [String: Any] = ["type": "object", "properties": properties, "additionalProperties": false]
            let required = fields.filter(\.isRequired).map(\.name)
            if allRequired && !required.isEmpty { object["required"] = required }
            return ["anyOf": [object, Self.templateString], "description": summary]
        case .reference, .value, .unknown: return ["description": summary]
        }
    }

    /// An enum's cases as JSON values: numbers for an `Int` enum.
    private var enumerationCases: [Any] {
        guard case .enumeration(_, let cases) = self else { return [] }
        let numbers = cases.compactMap(Int.init)
        return numbers.count == cases.count ? numbers : cases
    }
}

extension ManifestSchema {
    /// Types the `args` of each definition that holds a service by the factories in `arguments`:
    /// a service (or `add:`ed one, or a named variant, or a context's override) whose `factory`
    /// is a typed factory's key, and a service named like one that names no factory.
    static func typeArguments(_ root: inout [String: Any], by arguments: [String: ArgumentSchema], overlay: Bool) {
        guard !arguments.isEmpty, var definitions = root["$defs"] as? [String: Any] else { return }
        func typed(_ definition: String, allRequired: Bool) {
            guard var schema = definitions[definition] as? [String: Any] else { return }
            schema["allOf"] = arguments.keys.sorted().map { key -> [String: Any] in
                ["if": ["properties": ["factory": ["const": key]], "required": ["factory"]],
                 "then": ["properties": ["args": arguments[key]!.jsonSchema(allRequired: allRequired)]]]
            }
            definitions[definition] = schema
        }
        typed("service", allRequired: true)
        typed("namedVariant", allRequired: false)
        typed("serviceOverride", allRequired: false)
        // A service that names no factory is built by the factory of its own key.
        var byKey: [String: Any] = [:]
        for key in arguments.keys.sorted() {
            byKey[key] = ["allOf": [
                ["$ref": "#/$defs/service"],
                ["if": ["not": ["required": ["factory"]]], "then": ["properties": ["args": arguments[key]!.jsonSchema()]]],
            ]]
        }
        definitions["services"] = ["type": ["object", "null"], "properties": byKey, "additionalProperties": ["$ref": "#/$defs/service"]]
        root["$defs"] = definitions
        if !overlay, var properties = root["properties"] as? [String: Any], var services = properties["services"] as? [String: Any] {
            services.removeValue(forKey: "additionalProperties")
            services.removeValue(forKey: "type")
            services["$ref"] = "#/$defs/services"
            properties["services"] = services
            root["properties"] = properties
        }
    }
}
