#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Container {
    /// What the container is now: the contexts applied, each service with its scope, factory
    /// and whether an instance is kept, the configuration keys and environment variables the
    /// manifest reads (never their values), and the last refresh. See ``ContainerSnapshot``.
    ///
    /// Safe while other threads resolve: each service's row is read as one value, and a build
    /// that ends while the snapshot is taken shows on a later one.
    public func snapshot() -> ContainerSnapshot {
        var definitions: [String: ServiceDefinition] = [:]
        for service in manifest.services { definitions[service.key] = service }
        let root = ManifestRoot(manifest: manifest.files.first)
        let services = registrations.map { registration in
            let implements = definitions[registration.key]?.implements.map { entry in shownService(entry.type, name: entry.name) } ?? []
            var kept = false
            var builds: Int?
            if case .kept(let timeToLive, _, let own, let place) = registration.keeping {
                kept = current(in: own, at: place, now: Expiry.now(now, expiring: timeToLive)) != nil
                builds = self.kept.buildCount(at: place)
            }
            return ContainerSnapshot.Service(
                key: registration.key, name: registration.name, scope: registration.scope.description,
                factory: registration.factoryKey, location: root.relative(registration.location),
                implements: implements, kept: kept, builds: builds)
        }
        return ContainerSnapshot(
            takenAt: Date(),
            contexts: activeContexts.map { ContainerSnapshot.Context(name: $0.name, reason: $0.source.description) },
            services: services, configuration: externalReads(root: root),
            lastRefresh: configurationWatch?.latestRefresh, lastReload: nil)
    }

    /// The `${name}` references of every service's and variant's arguments, by name, in the
    /// order first read.
    private func externalReads(root: ManifestRoot) -> [ContainerSnapshot.ExternalRead] {
        var order: [String] = []
        var places: [String: [String]] = [:]
        func note(_ map: ManifestMap?) {
            guard let map, map.mayHoldReferences else { return }
            for entry in map.entries {
                for name in manifest.externalNames(readBy: entry.value) {
                    if places[name] == nil { order.append(name) }
                    places[name, default: []].append(root.relative(entry.value.location))
                }
            }
        }
        for service in manifest.services {
            note(service.args)
            for variant in service.names { note(variant.args) }
        }
        let source = readsConfigurationSource ? "configuration" : "environment"
        return order.map { ContainerSnapshot.ExternalRead(name: $0, source: source, readAt: places[$0] ?? []) }
    }
}
