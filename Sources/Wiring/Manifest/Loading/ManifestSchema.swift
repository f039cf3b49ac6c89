/// The keys of the manifest format, one table per level, with a line of documentation each.
///
/// The decoder checks keys against these tables (unknown keys get a did-you-mean), so the
/// tables are the single definition of the format.
package enum ManifestSchema {
    /// A key of the manifest format, at any level. Decoding names the keys it reads by these
    /// cases, so a key it looks for is one the format defines, spelt as the format spells it.
    package enum Key: UInt8, CaseIterable, Sendable {
        case wiring, imports, parameters, scopes, services, contexts
        case `default`, custom, ttl
        case factory, scope, implements, names, args, decorates
        case type, name, add, enabled
        case eager, shutdownTimeout, tags, seeded

        /// The key as a manifest writes it.
        package var name: String {
            switch self {
            case .wiring: "wiring"
            case .imports: "imports"
            case .parameters: "parameters"
            case .scopes: "scopes"
            case .services: "services"
            case .contexts: "contexts"
            case .default: "default"
            case .custom: "custom"
            case .ttl: "ttl"
            case .factory: "factory"
            case .scope: "scope"
            case .implements: "implements"
            case .names: "names"
            case .args: "args"
            case .decorates: "decorates"
            case .type: "type"
            case .name: "name"
            case .add: "add"
            case .enabled: "enabled"
            case .eager: "eager"
            case .shutdownTimeout: "shutdownTimeout"
            case .tags: "tags"
            case .seeded: "seeded"
            }
        }
    }

    /// A key of one level of the manifest, what it holds, and a line of documentation.
    package struct Field: Sendable {
        package let key: Key
        package let summary: String
        /// The JSON Schema of the key's value.
        package let value: JSONSchemaValue

        /// The key as a manifest writes it.
        package var name: String { key.name }

        package init(_ key: Key, summary: String, value: JSONSchemaValue = .any) {
            self.key = key
            self.summary = summary
            self.value = value
        }
    }

    /// The supported values of `wiring:`.
    static let supportedVersions = [1]

    package static let topLevel: [Field] = [
        Field(.wiring, summary: "Format version; 1 is the only one.", value: .constant(1)),
        Field(.imports, summary: "Other manifests, relative to this file.", value: .list(.string)),
        Field(.parameters, summary: "Named values that args read as $(name).", value: .mapOf(.any)),
        Field(.scopes, summary: "The default scope and custom scopes.", value: .reference("scopes")),
        Field(.services, summary: "Services by the type name that resolves them.", value: .mapOf(.reference("service"))),
        Field(.contexts, summary: "Per-environment overrides, applied at launch.", value: .mapOf(.reference("context"))),
    ]

    package static let scopes: [Field] = [
        Field(.default, summary: "The scope of services that name none (graph when unset).", value: .reference("scope")),
        Field(.custom, summary: "Custom scopes by name; code resets them by name.", value: .mapOf(.reference("customScope"))),
    ]

    package static let customScope: [Field] = [
        Field(.ttl, summary: "How long instances are kept: seconds, or 500ms, 30s, 5m, 2h, 1d.", value: .reference("duration")),
    ]

    package static let service: [Field] = [
        Field(.factory, summary: "The key Swift code registered the factory under (default: the service key).", value: .string),
        Field(.scope, summary: "unique, graph, scoped, cached, shared, singleton, or a custom scope.", value: .reference("scope")),
        Field(.ttl, summary: "Time-to-live of a cached or custom-scoped instance.", value: .reference("duration")),
        Field(.implements, summary: "Other types that resolve to this service.", value: .reference("implements")),
        Field(.names, summary: "Named variants, each overriding factory, scope, ttl or args.", value: .mapOf(.reference("namedVariant"))),
        Field(.args, summary: "Static arguments the factory reads.", value: .mapOf(.any)),
        Field(.decorates, summary: "The service this one wraps.", value: .string),
        Field(.eager, summary: "true: container.start() builds it (a kept scope other than scoped).", value: .boolean),
        Field(.shutdownTimeout, summary: "How long its shutdown hooks may run (default 30s).", value: .reference("duration")),
        Field(.tags, summary: "Tags that resolveAll(tagged:) and !tagged find it by.", value: .list(.string)),
        Field(.seeded, summary: "true: code gives each scope its instance (scope.seed); scoped only, factory optional.", value: .boolean),
    ]

    package static let namedVariant: [Field] = service.filter {
        [.factory, .scope, .ttl, .args, .eager, .shutdownTimeout, .tags].contains($0.key)
    }

    package static let implementsEntry: [Field] = [
        Field(.type, summary: "The type name.", value: .string),
        Field(.name, summary: "The name the type resolves this service under.", value: .string),
    ]

    package static let context: [Field] = [
        Field(.services, summary: "Overrides of existing services, by service key.", value: .mapOf(.reference("serviceOverride"))),
        Field(.parameters, summary: "Overrides of declared parameters.", value: .mapOf(.any)),
        Field(.add, summary: "Services that exist only in this context.", value: .mapOf(.reference("service"))),
    ]

    /// An overlay file (`services.staging.yaml`): a context's body as a file of its own.
    package static let overlay: [Field] = [topLevel[0]] + context

    package static let serviceOverride: [Field] = service + [
        Field(.enabled, summary: "false switches the service off in this context.", value: .boolean),
    ]
}
