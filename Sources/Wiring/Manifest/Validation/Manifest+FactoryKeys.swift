extension Manifest {
    /// One place a manifest names a factory key: a service (or its named variant, shown as
    /// `Service[name]`), a decorator, or what a context overrides or adds.
    package struct FactoryKeyUse: Sendable {
        package let key: String
        package let owner: String
        package let location: SourceLocation?
        package let context: String?

        package init(key: String, owner: String, location: SourceLocation?, context: String?) {
            self.key = key
            self.owner = owner
            self.location = location
            self.context = context
        }
    }

    /// Every place the manifest names a factory key, in manifest order: services and their
    /// named variants, decorators, then what each context overrides or adds.
    package var factoryKeyUses: [FactoryKeyUse] {
        var uses: [FactoryKeyUse] = []
        func add(_ service: ServiceDefinition, context: String?) {
            if service.hasFactory {
                uses.append(FactoryKeyUse(key: service.factoryKey, owner: service.key,
                                          location: service.factory?.location ?? service.location, context: context))
            }
            add(service.names, of: service.key, context: context)
        }
        func add(_ variants: [NamedVariant], of service: String, context: String?) {
            for variant in variants {
                guard let factory = variant.factory else { continue }
                uses.append(FactoryKeyUse(key: factory.value, owner: "\(service)[\(variant.name)]", location: factory.location, context: context))
            }
        }
        for service in services { add(service, context: nil) }
        for context in contexts {
            for service in context.added { add(service, context: context.name) }
            for override in context.services {
                if let factory = override.factory {
                    uses.append(FactoryKeyUse(key: factory.value, owner: override.key, location: factory.location, context: context.name))
                }
                add(override.names ?? [], of: override.key, context: context.name)
            }
        }
        return uses
    }

    /// Every factory key the manifest names that is not in `registered`, each at its position
    /// with a did-you-mean.
    func factoryKeyDiagnostics(registered: Set<String>) -> [Diagnostic] {
        factoryKeyUses.filter { !registered.contains($0.key) }.map { use in
            var diagnostic = Diagnostic.unregisteredFactory(use.key, of: use.owner, registered: registered, at: use.location)
            diagnostic.context = use.context
            return diagnostic
        }
    }
}
