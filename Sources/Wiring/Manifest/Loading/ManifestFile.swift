/// What one manifest file declares, before imports are merged.
package struct ManifestFile: Sendable {
    package let path: String
    package var version: Located<Int>?
    package var imports: [Located<String>] = []
    package var parameters: [Parameter] = []
    /// The services, in file order.
    package private(set) var services: [ServiceDefinition] = []
    /// The key of each of `services`, beside it: merging files reads these, and need not touch
    /// the storage of each service, which the thread that decoded it wrote last.
    package private(set) var serviceKeys: [String] = []
    /// What the services hold that checking and binding them are sized by.
    package private(set) var census = ServiceCensus()
    /// Each service's position by key, when the reader's index of the section gives it (see
    /// ``SectionIndex``): merging files starts from it rather than hashing every key again.
    package private(set) var serviceIndex: [NameKey: Int]?
    package var contexts: [ContextDefinition] = []
    package var defaultScope: Located<Scope>?
    package var customScopes: [CustomScope] = []
    package var parameterReferences = ParameterReferences()

    package init(path: String) { self.path = path }

    /// Sets the services, whose keys are `keys` and whose census is `census`, in the same order;
    /// `index`, if given, holds each key's position.
    package mutating func setServices(
        _ services: [ServiceDefinition], keys: [String], census: ServiceCensus, index: [NameKey: Int]? = nil
    ) {
        precondition(services.count == keys.count && services.count == census.count, "a key for each service, each counted")
        precondition(index.map { $0.count == keys.count } ?? true, "an index of every key")
        self.services = services
        serviceKeys = keys
        self.census = census
        serviceIndex = index
    }

    /// Appends a service after the others.
    package mutating func append(_ service: ServiceDefinition) {
        services.append(service)
        serviceKeys.append(service.key)
        census.note(service)
        serviceIndex = nil
    }

    /// Gives up the index of the services, if there is one.
    package mutating func takeServiceIndex() -> [NameKey: Int]? {
        defer { serviceIndex = nil }
        return serviceIndex
    }

    /// Gives up the services (and their keys, census and index), leaving none.
    package mutating func takeServices() -> [ServiceDefinition] {
        defer { (services, serviceKeys, census, serviceIndex) = ([], [], ServiceCensus(), nil) }
        return services
    }
}
