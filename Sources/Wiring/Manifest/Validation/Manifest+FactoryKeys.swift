extension Manifest {
    /// Every factory key the manifest names that is not in `registered`, each at its position
    /// with a did-you-mean: services and their named variants, decorators, and what contexts
    /// override or add.
    package func factoryKeyDiagnostics(registered: Set<String>) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        func check(_ service: ServiceDefinition, context: String?) {
            if !registered.contains(service.factoryKey) {
                var diagnostic = Diagnostic.unregisteredFactory(
                    service.factoryKey, of: service.key, registered: registered, at: service.factory?.location ?? service.location)
                diagnostic.context = context
                diagnostics.append(diagnostic)
            }
            check(service.names, of: service.key, context: context)
        }
        func check(_ variants: [NamedVariant], of service: String, context: String?) {
            for variant in variants {
                guard let factory = variant.factory, !registered.contains(factory.value) else { continue }
                var diagnostic = Diagnostic.unregisteredFactory(
                    factory.value, of: "\(service)[\(variant.name)]", registered: registered, at: factory.location)
                diagnostic.context = context
                diagnostics.append(diagnostic)
            }
        }
        for service in services { check(service, context: nil) }
        for context in contexts {
            for service in context.added { check(service, context: context.name) }
            for override in context.services {
                if let factory = override.factory, !registered.contains(factory.value) {
                    var diagnostic = Diagnostic.unregisteredFactory(factory.value, of: override.key, registered: registered, at: factory.location)
                    diagnostic.context = context.name
                    diagnostics.append(diagnostic)
                }
                check(override.names ?? [], of: override.key, context: context.name)
            }
        }
        return diagnostics
    }
}
