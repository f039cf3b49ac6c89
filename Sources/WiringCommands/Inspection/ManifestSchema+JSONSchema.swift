package import Foundation
package import Wiring

extension JSONSchemaValue {
    var json: [String: Any] {
        switch self {
        case .any: return [:]
        case .string: return ["type": "string"]
        case .boolean: return ["type": "boolean"]
        case .constant(let value): return ["const": value]
        case .list(let element): return ["type": "array", "items": element.json]
        case .mapOf(let value):
            return ["type": ["object", "null"], "additionalProperties": value.json]
        case .reference(let name): return ["$ref": "#/$defs/\(name)"]
        }
    }
}

extension ManifestSchema {
    /// The JSON Schema (draft 2020-12) of manifests, or of overlay files, generated from the same
    /// tables the loader checks keys against, as pretty-printed JSON with sorted keys; with
    /// `arguments` (a catalog's), each service's `args` typed by its factory.
    package static func jsonSchema(overlay: Bool = false, arguments: [String: ArgumentSchema] = [:]) -> Data {
        func object(_ fields: [Field], required: [String] = [], extensions: Bool = false, nullable: Bool = true) -> [String: Any] {
            var properties: [String: Any] = [:]
            for field in fields {
                var schema = field.value.json
                schema["description"] = field.summary
                properties[field.name] = schema
            }
            var result: [String: Any] = [
                "type": nullable ? ["object", "null"] : "object",
                "properties": properties,
                "additionalProperties": false,
            ]
            if !required.isEmpty { result["required"] = required }
            // Merge keys and anchors-only keys are YAML's business; tools see them merged.
            result["patternProperties"] = extensions ? ["^x-": [String: Any](), "^<<$": [String: Any]()] : ["^<<$": [String: Any]()]
            return result
        }
        let builtIn = Scope.builtIn.map(\.name)
        let definitions: [String: Any] = [
            "scope": [
                "description": "A built-in scope (\(builtIn.joined(separator: ", "))) or a custom scope declared under scopes.custom.",
                "anyOf": [["enum": builtIn], ["type": "string", "pattern": "^[A-Za-z_][A-Za-z0-9_.-]*$"]],
            ],
            "duration": [
                "description": "Seconds, or text: 500ms, 30s, 5m, 2h, 1d; at most 100 years.",
                "anyOf": [["type": "number", "minimum": 0, "maximum": Duration.manifestMaximumSeconds], ["type": "string", "pattern": "^[0-9]+(\\.[0-9]+)?(ms|s|m|h|d)$"]],
            ],
            "implements": [
                "description": "Type names, each a string or { type, name }.",
                "anyOf": [
                    ["type": "string"],
                    ["type": "array", "items": ["anyOf": [["type": "string"], ["$ref": "#/$defs/implementsEntry"]]]],
                ],
            ],
            "implementsEntry": object(implementsEntry, required: ["type"], nullable: false),
            "scopes": object(scopes),
            "customScope": object(customScope),
            "service": object(service),
            "namedVariant": object(namedVariant),
            "context": object(context),
            "serviceOverride": object(serviceOverride),
        ]
        var root = object(overlay ? self.overlay : topLevel, required: ["wiring"], extensions: true, nullable: false)
        root["$schema"] = "https://json-schema.org/draft/2020-12/schema"
        root["$id"] = overlay ? "https://wiring.dev/schema/wiring-overlay.schema.json" : "https://wiring.dev/schema/wiring.schema.json"
        root["title"] = overlay ? "Wiring overlay file (one context, beside its manifest)" : "Wiring manifest"
        root["$defs"] = definitions
        typeArguments(&root, by: arguments, overlay: overlay)
        // Strings, numbers, flags, arrays and dictionaries only: the serialization cannot fail.
        let data = (try? JSONSerialization.data(withJSONObject: root, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return data + Data("\n".utf8)
    }
}
