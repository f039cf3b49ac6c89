/// Binds a manifest's services to a registry's factories, resolving every `${…}` and `$(…)`,
/// into the table a ``Container`` resolves from. Every problem is collected, each at its
/// manifest position.
struct Binder {
    let manifest: Manifest
    let registry: FactoryRegistry
    private var bindingDiagnostics: [Diagnostic] = []
    private var values: ValueResolver
    /// The registry as binding started: each key's place in `factoryKeys`, and its factory.
    private let factoryKeys: [String]
    private let factories: [String: (index: Int, entry: FactoryRegistry.Entry)]
    /// Whether some service uses the factory at each place of `factoryKeys`.
    private var usedFactories: [Bool]

    /// Everything binding found, values' problems included.
    var diagnostics: [Diagnostic] { bindingDiagnostics }

    init(manifest: Manifest, registry: FactoryRegistry, environment: [String: String]) {
        self.manifest = manifest
        self.registry = registry
        values = ValueResolver(manifest: manifest, environment: environment)
        let (keys, entries) = registry.snapshot
        factoryKeys = keys
        var factories = [String: (index: Int, entry: FactoryRegistry.Entry)](minimumCapacity: keys.count)
        for (index, key) in keys.enumerated() {
            if let entry = entries[key] { factories[key] = (index, entry) }
        }
        self.factories = factories
        usedFactories = Array(repeating: false, count: keys.count)
    }

    mutating func bind() -> (targets: TargetMap, registrations: [Registration]) {
        bindingDiagnostics += registry.duplicateDiagnostics
        values.resolveParameters()
        let argumentValues = ArgumentValues(values)
        // Every reference is checked now; the filled-in arguments are made on first use.
        func arguments(_ map: ManifestMap?, at location: SourceLocation) -> ManifestMap {
            values.check(map)
            return map ?? ManifestMap([], at: location)
        }

        // Decorators of each service, in manifest order; a chain of decorators (C decorates B
        // decorates A) applies depth first: A, then B, then C.
        // Which services are decorated is kept by position, so that the others cost no lookup.
        var decoratorsOf: [String: [ServiceDefinition]] = [:]
        var isDecorated = [Bool](repeating: false, count: manifest.services.count)
        for service in manifest.services {
            guard let target = service.decorates?.value else { continue }
            decoratorsOf[target, default: []].append(service)
            if let index = manifest.serviceIndex(of: target) { isDecorated[index] = true }
        }
        func chain(of key: String, seen: [String]) -> [ServiceDefinition] {
            guard let decorators = decoratorsOf[key] else { return [] }
            return decorators.flatMap { decorator -> [ServiceDefinition] in
                seen.contains(decorator.key) ? [] : [decorator] + chain(of: decorator.key, seen: seen + [decorator.key])
            }
        }

        // Service keys reach their targets through the manifest's index, by position; the alias
        // table is sized once: growing a table of 100,000 entries copies it, and the copy is
        // what sets the high-water mark of memory.
        let aliasCount = manifest.services.reduce(0) { $0 + $1.implements.count }
        var byPosition = [ResolutionTarget?](repeating: nil, count: manifest.services.count)
        var registrations: [Registration] = []
        registrations.reserveCapacity(manifest.services.reduce(manifest.services.count) { $0 + $1.names.count })
        var aliases = [String: Alias](minimumCapacity: aliasCount)

        for (index, service) in manifest.services.enumerated() where service.decorates == nil {
            let decorators = isDecorated[index] ? chain(of: service.key, seen: [service.key]) : []
            // Every factory key and every value is checked, even when an earlier one failed, so
            // that one build reports every problem.
            var steps: [DecoratorStep] = []
            var complete = true
            for decorator in decorators {
                if decorator.scope != nil || !decorator.names.isEmpty {
                    bindingDiagnostics.append(.warning(
                        "decorator '\(decorator.key)' lives in the scope and names of '\(service.key)', which it decorates; its own 'scope' and 'names' are not used",
                        at: decorator.scope?.location ?? decorator.names.first?.location))
                }
                let make = factory(decorator.factoryKey, of: decorator.key, at: decorator.factory?.location ?? decorator.location)
                let args = LazyArguments(arguments(decorator.args, at: decorator.location), values: argumentValues)
                guard let make else {
                    complete = false
                    continue
                }
                steps.append(DecoratorStep(key: decorator.key, location: decorator.location,
                                           factoryKey: decorator.factoryKey, make: make, lazyArgs: args))
            }
            let make = factory(service.factoryKey, of: service.key, at: service.factory?.location ?? service.location)
            let args = arguments(service.args, at: service.location)
            let scope = manifest.effectiveScope(of: service)
            var base: Registration?
            if complete, let make {
                let registration = Registration(
                    key: service.key, name: nil, location: service.location, factoryKey: service.factoryKey,
                    make: make, args: LazyArguments(args, values: argumentValues), scope: scope,
                    keeping: keeping(scope, timeToLive: service.timeToLive?.value), decorators: steps)
                registrations.append(registration)
                base = registration
            }
            var named: [String: Registration] = [:]
            for variant in service.names {
                let factoryKey = variant.factory?.value ?? service.factoryKey
                let variantMake = variant.factory.flatMap { factory(factoryKey, of: "\(service.key)[\(variant.name)]", at: $0.location) } ?? make
                values.check(variant.args)
                guard base != nil, let variantMake else { continue }
                let variantScope = variant.scope?.value ?? scope
                let timeToLive = variant.timeToLive?.value ?? (variant.scope == nil ? service.timeToLive?.value : nil)
                let registration = Registration(
                    key: service.key, name: variant.name, location: variant.location, factoryKey: factoryKey,
                    make: variantMake, args: LazyArguments(args, overriddenBy: variant.args, values: argumentValues),
                    scope: variantScope, keeping: keeping(variantScope, timeToLive: timeToLive), decorators: steps)
                registrations.append(registration)
                named[variant.name] = registration
            }
            guard let base else { continue }
            let target = ResolutionTarget(serviceKey: service.key, unnamed: base, named: named)
            byPosition[index] = target
            for decorator in decorators {
                if let position = manifest.serviceIndex(of: decorator.key) { byPosition[position] = target }
            }
            for entry in service.implements {
                aliases[entry.type, default: .start(service.key)].add(entry, base: base, named: named, of: target)
            }
            for decorator in decorators {
                for entry in decorator.implements {
                    aliases[entry.type, default: .start(service.key)].add(entry, base: base, named: named, of: target)
                }
            }
        }
        let targets = TargetMap(positions: manifest.servicePositions, byPosition: byPosition,
                                aliases: aliases.mapValues(\.target))
        for (index, used) in usedFactories.enumerated() where !used {
            let key = factoryKeys[index]
            bindingDiagnostics.append(Diagnostic(.info, "factory '\(key)' is registered but no service uses it",
                                          at: factories[key]?.entry.location))
        }
        bindingDiagnostics += values.diagnostics
        sortDiagnostics()
        return (targets, registrations)
    }

    /// Errors first, then warnings, then information; each in manifest order (files as loaded,
    /// then line and column), with places in Swift code after the manifest's.
    private mutating func sortDiagnostics() {
        bindingDiagnostics = bindingDiagnostics.inManifestOrder(files: manifest.files, bySeverity: true, unplacedFirst: false)
    }

    // MARK: - Factories and scopes

    private mutating func factory(_ key: String, of service: String, at location: SourceLocation) -> (@Sendable (FactoryContext) throws -> Any)? {
        guard let (index, entry) = factories[key] else {
            bindingDiagnostics.append(.unregisteredFactory(key, of: service, registered: factoryKeys, at: location))
            return nil
        }
        usedFactories[index] = true
        return entry.make
    }

    private func keeping(_ scope: Scope, timeToLive: Duration?) -> Keeping {
        switch scope {
        case .unique: return .unique
        case .graph: return .graph
        case .singleton: return .kept(timeToLive: nil, weakly: false, slot: InstanceSlot())
        case .shared: return .kept(timeToLive: nil, weakly: true, slot: InstanceSlot())
        case .cached: return .kept(timeToLive: timeToLive, weakly: false, slot: InstanceSlot())
        default:
            let custom = manifest.customScopes.first { $0.name == scope.name }
            return .kept(timeToLive: timeToLive ?? custom?.timeToLive?.value, weakly: false, slot: InstanceSlot())
        }
    }
}

/// What one type that services list under `implements` resolves to, gathered entry by entry.
private enum Alias {
    /// One unnamed entry so far: the type resolves the service as it is, through its target.
    case shared(ResolutionTarget)
    /// Anything else: `service` is what an unnamed `resolve` of the type reaches (the last
    /// unnamed entry's service, or the first entry's).
    case gathered(service: String, unnamed: Registration?, named: [String: Registration])

    static func start(_ service: String) -> Alias { .gathered(service: service, unnamed: nil, named: [:]) }

    mutating func add(_ entry: ImplementsEntry, base: Registration, named variants: [String: Registration], of target: ResolutionTarget) {
        var (service, unnamed, named): (String, Registration?, [String: Registration])
        switch self {
        case .shared(let shared):
            (service, unnamed, named) = (shared.serviceKey, shared.unnamed, shared.named)
        case .gathered(let gatheredService, let gatheredUnnamed, let gatheredNamed):
            if entry.name == nil, gatheredUnnamed == nil, gatheredNamed.isEmpty {
                self = .shared(target)
                return
            }
            (service, unnamed, named) = (gatheredService, gatheredUnnamed, gatheredNamed)
        }
        if let name = entry.name {
            named[name] = base
        } else {
            service = target.serviceKey
            unnamed = base
            named.merge(variants) { first, _ in first }
        }
        self = .gathered(service: service, unnamed: unnamed, named: named)
    }

    /// The target `resolve` of the type reaches.
    var target: ResolutionTarget {
        switch self {
        case .shared(let target): target
        case .gathered(let service, let unnamed, let named): ResolutionTarget(serviceKey: service, unnamed: unnamed, named: named)
        }
    }
}
