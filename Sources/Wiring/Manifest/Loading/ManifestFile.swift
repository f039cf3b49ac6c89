/// What one manifest file declares, before imports are merged.
package struct ManifestFile: Sendable {
    package let path: String
    package var version: Located<Int>?
    package var imports: [Located<String>] = []
    package var parameters: [Parameter] = []
    /// The services, in file order.
    package private(set) var services: [ServiceDefinition] = []
    /// The key of each of `services`, beside it: merging files reads these, and need not touch
    /// the storage of each service.
    package private(set) var serviceKeys: [String] = []
    package var contexts: [ContextDefinition] = []
    package var defaultScope: Located<Scope>?
    var customScopes: [CustomScope] = []
    var parameterReferences = ParameterReferences()
    /// The configuration keys read with no default, to check once the manifest is assembled.
    var configurationReads: [ConfigurationRead] = []

    package init(path: String) { self.path = path }

    /// Appends a service after the others.
    package mutating func append(_ service: ServiceDefinition) {
        services.append(service)
        serviceKeys.append(service.key)
    }

    /// Gives up the services (and their keys), leaving none.
    mutating func takeServices() -> [ServiceDefinition] {
        defer { (services, serviceKeys) = ([], []) }
        return services
    }
}
