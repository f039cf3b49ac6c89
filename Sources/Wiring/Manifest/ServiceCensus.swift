/// What a manifest's services hold that checking and binding them are sized by, noted as each
/// service is decoded, while its storage is still in cache.
///
/// The threads that read a large file make its services, so their storage is cold to the
/// thread that validates or binds them: one more pass over every service, only to size a table
/// or to find the few decorators, cost about as much as the pass that does the work.
package struct ServiceCensus: Sendable, Equatable {
    /// The services noted.
    package private(set) var count = 0
    /// Their `implements` entries.
    package private(set) var implementsEntries = 0
    /// The (type, name) pairs those entries claim: a named entry claims its own pair, an
    /// unnamed entry a pair for each named variant of its service.
    package private(set) var namedClaims = 0
    /// The positions of the services that decorate another, in order.
    package private(set) var decorators: [Int] = []

    package init() {}

    /// The census of `services`, in order.
    package init(of services: some Sequence<ServiceDefinition>) {
        for service in services { note(service) }
    }

    /// Notes the next service.
    package mutating func note(_ service: ServiceDefinition) {
        for entry in service.implements {
            implementsEntries += 1
            namedClaims += entry.name == nil ? service.names.count : 1
        }
        if service.decorates != nil { decorators.append(count) }
        count += 1
    }

    /// Notes the services `later` noted, which follow these.
    package mutating func append(_ later: ServiceCensus) {
        implementsEntries += later.implementsEntries
        namedClaims += later.namedClaims
        let offset = count
        decorators += later.decorators.lazy.map { $0 + offset }
        count += later.count
    }
}
