/// What a manifest's services hold that checking and binding them are sized by: counted once,
/// when the manifest is made, so that tables are sized once and the few decorators found
/// without reading every service again.
package struct ServiceCensus: Sendable, Equatable {
    /// The services noted.
    package private(set) var count = 0
    /// Their `implements` entries.
    private(set) var implementsEntries = 0
    /// The (type, name) pairs those entries claim: a named entry claims its own pair, an
    /// unnamed entry a pair for each named variant of its service.
    private(set) var namedClaims = 0
    /// The positions of the services that decorate another, in order.
    package private(set) var decorators: [Int] = []

    /// The census of `services`, in order.
    package init(of services: some Sequence<ServiceDefinition>) {
        for service in services { note(service) }
    }

    /// Notes the next service.
    private mutating func note(_ service: ServiceDefinition) {
        for entry in service.implements {
            implementsEntries += 1
            namedClaims += entry.name == nil ? service.names.count : 1
        }
        if service.decorates != nil { decorators.append(count) }
        count += 1
    }
}
