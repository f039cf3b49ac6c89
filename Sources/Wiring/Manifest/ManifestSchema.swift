/// The keys of the manifest format, one table per level, with a line of documentation each.
///
/// The decoder checks keys against these tables (unknown keys get a did-you-mean), so the
/// tables are the single definition of the format.
package enum ManifestSchema {
    /// A key of one level of the manifest, what it holds, and a line of documentation.
    package struct Field: Sendable {
        package let name: String
        package let summary: String
        /// The JSON Schema of the key's value.
        package let value: JSONSchemaValue

        package init(name: String, summary: String, value: JSONSchemaValue = .any) {
            self.name = name
            self.summary = summary
            self.value = value
        }
    }

    /// The supported values of `wiring:`.
    package static let supportedVersions = [1]

    package static let topLevel: [Field] = [
        Field(name: "wiring", summary: "Format version; 1 is the only one.", value: .constant(1)),
        Field(name: "imports", summary: "Other manifests, relative to this file.", value: .list(.string)),
        Field(name: "parameters", summary: "Named values that args read as $(name).", value: .mapOf(.any)),
        Field(name: "scopes", summary: "The default scope and custom scopes.", value: .reference("scopes")),
        Field(name: "services", summary: "Services by the type name that resolves them.", value: .mapOf(.reference("service"))),
        Field(name: "contexts", summary: "Per-environment overrides, applied at launch.", value: .mapOf(.reference("context"))),
    ]

    package static let scopes: [Field] = [
        Field(name: "default", summary: "The scope of services that name none (graph when unset).", value: .reference("scope")),
        Field(name: "custom", summary: "Custom scopes by name; code resets them by name.", value: .mapOf(.reference("customScope"))),
    ]

    package static let customScope: [Field] = [
        Field(name: "ttl", summary: "How long instances are kept: seconds, or 500ms, 30s, 5m, 2h, 1d.", value: .reference("duration")),
    ]

    package static let service: [Field] = [
        Field(name: "factory", summary: "The key Swift code registered the factory under (default: the service key).", value: .string),
        Field(name: "scope", summary: "unique, graph, cached, shared, singleton, or a custom scope.", value: .reference("scope")),
        Field(name: "ttl", summary: "Time-to-live of a cached or custom-scoped instance.", value: .reference("duration")),
        Field(name: "implements", summary: "Other types that resolve to this service.", value: .reference("implements")),
        Field(name: "names", summary: "Named variants, each overriding factory, scope, ttl or args.", value: .mapOf(.reference("namedVariant"))),
        Field(name: "args", summary: "Static arguments the factory reads.", value: .mapOf(.any)),
        Field(name: "decorates", summary: "The service this one wraps.", value: .string),
    ]

    package static let namedVariant: [Field] = service.filter {
        ["factory", "scope", "ttl", "args"].contains($0.name)
    }

    package static let implementsEntry: [Field] = [
        Field(name: "type", summary: "The type name.", value: .string),
        Field(name: "name", summary: "The name the type resolves this service under.", value: .string),
    ]

    package static let context: [Field] = [
        Field(name: "services", summary: "Overrides of existing services, by service key.", value: .mapOf(.reference("serviceOverride"))),
        Field(name: "parameters", summary: "Overrides of declared parameters.", value: .mapOf(.any)),
        Field(name: "add", summary: "Services that exist only in this context.", value: .mapOf(.reference("service"))),
    ]

    /// An overlay file (`services.staging.yaml`): a context's body as a file of its own.
    package static let overlay: [Field] = [topLevel[0]] + context

    package static let serviceOverride: [Field] = service + [
        Field(name: "enabled", summary: "false switches the service off in this context.", value: .boolean),
    ]
}
