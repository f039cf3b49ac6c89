/// The JSON Schema of one value of the manifest format.
package indirect enum JSONSchemaValue: Sendable {
    case any
    case string
    case boolean
    case constant(Int)
    case list(JSONSchemaValue)
    /// A mapping from names to values (a null value allowed: `Clock:` with nothing after it).
    case mapOf(JSONSchemaValue)
    /// A definition under `$defs`.
    case reference(String)
}
