/// Binds a manifest's services to a registry's factories, resolving every `${…}` and `$(…)`,
/// into the table a ``Container`` resolves from. Every problem is collected, each at its
/// manifest position.
struct Binder {
    let manifest: Manifest
    let registry: FactoryRegistry
    private var bindingDiagnostics: [Diagnostic] = []
    private var values: ValueResolver

    /// Everything binding found, values' problems included.
    var diagnostics: [Diagnostic] { bindingDiagnostics }
    /// With a configuration source: the arguments that read its keys, and the values binding
    /// checked (see ``ConfigurationWatch``).
    private(set) var configurationReaders: [ConfigurationReader] = []
    private(set) var configurationValues: [String: ExternalValues.Lookup] = [:]
    /// How many registrations are `scoped`, and how many the container keeps, as binding gave
    /// them their places: what a scope's table and a child's table of slots are sized for.
    private(set) var scopedCount = 0
    private(set) var keptCount = 0

    init(manifest: Manifest, registry: FactoryRegistry, values external: ExternalValues) {
        self.manifest = manifest
        self.registry = registry
        values = ValueResolver(manifest: manifest, values: external)
    }

    /// Binds every service.
    mutating func bind() -> (targets: TargetMap, registrations: [Registration]) {
        bindingDiagnostics += registry.duplicateDiagnostics
        values.resolveParameters()
        bindingDiagnostics += values.removeDiagnostics()
        let (factoryKeys, entries) = registry.snapshot
        var factories = [NameKey: (index: Int, entry: FactoryRegistry.Entry)](minimumCapacity: factoryKeys.count)
        for (index, key) in factoryKeys.enumerated() {
            if let entry = entries[key] { factories[key] = (index, entry) }
        }
        let plan = BindingPlan(manifest: manifest, factoryKeys: factoryKeys, factories: factories, values: values)
        // Binding stores the targets straight into the table's array, by position.
        var bound: BoundServices?
        let byPosition = [ResolutionTarget?](unsafeUninitializedCapacity: manifest.services.count) { slots, count in
            slots.initialize(repeating: nil)
            count = slots.count
            bound = plan.bind(manifest.services.indices, targets: TargetBuffer(slots: slots))
        }
        let services = bound!
        configurationReaders = services.configurationReaders
        configurationValues = services.configurationValues
        scopedCount = services.scopedCount
        keptCount = services.keptCount

        // Most types are listed by one service, without a name: such a type resolves the
        // service's own target, and the table stores its position, without reading the target.
        // A type listed again, or with a name, gathers its entries aside, and its table entry
        // is replaced once all are in. The table is sized once: growing a table of 100,000
        // entries copies it, and the copy is what sets the high-water mark of memory.
        var aliases = [NameKey: Int](minimumCapacity: services.claims.count)
        var gathering: [NameKey: Alias] = [:]
        for (entry, position) in services.claims {
            if case .none = byPosition[position] { continue }
            let type = NameKey(entry.type)
            let earlier = aliases.updateValue(position, forKey: type)
            if earlier == nil && entry.name == nil { continue }
            // An earlier entry not gathered yet was the type's first, and unnamed.
            let target = byPosition[position]!
            var alias = gathering[type] ?? earlier.map { .shared(byPosition[$0]!) } ?? .start(entry.type)
            alias.add(entry, of: target)
            gathering[type] = alias
        }
        bindingDiagnostics += services.diagnostics
        var gathered: [ResolutionTarget] = []
        gathered.reserveCapacity(gathering.count)
        for (type, alias) in gathering {
            aliases[type] = byPosition.count + gathered.count
            gathered.append(alias.target)
        }
        let targets = TargetMap(positions: manifest.servicePositions, byPosition: byPosition,
                                aliases: aliases, gathered: gathered)
        for (index, used) in services.usedFactories.enumerated() where !used {
            let key = factoryKeys[index]
            bindingDiagnostics.append(Diagnostic(.info, "factory '\(key)' is registered but no service uses it",
                                                 at: entries[key]?.location))
        }
        sortDiagnostics()
        return (targets, services.registrations)
    }

    /// Errors first, then warnings, then information; each in manifest order (files as loaded,
    /// then line and column), with places in Swift code after the manifest's.
    private mutating func sortDiagnostics() {
        bindingDiagnostics = bindingDiagnostics.inManifestOrder(files: manifest.files, bySeverity: true, unplacedFirst: false)
    }
}

/// What one type that services list under `implements` resolves to, gathered entry by entry.
private enum Alias {
    /// One unnamed entry so far: the type resolves the service as it is, through its target.
    case shared(ResolutionTarget)
    /// Anything else: `service` is what an unnamed `resolve` of the type reaches (the last
    /// unnamed entry's service), or the type's own name when every entry has a name: errors
    /// and `reset` name what was resolved, not a service that lists the type under a name.
    case gathered(service: String, unnamed: Registration?, named: [String: Registration])

    static func start(_ type: String) -> Alias { .gathered(service: type, unnamed: nil, named: [:]) }

    /// Adds an entry of a service whose target is `target`: its unnamed registration is the
    /// service's, its named ones the service's variants.
    mutating func add(_ entry: ImplementsEntry, of target: ResolutionTarget) {
        guard let base = target.unnamed else { return }
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
            named.merge(target.named) { first, _ in first }
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

extension Manifest {
    /// What binding this manifest to `registry` reports, the table it builds dropped: the fuzz
    /// harness binds manifests that fail validation, which a container never does.
    package func bindingDiagnostics(registry: FactoryRegistry, values: ExternalValues) -> [Diagnostic] {
        var binder = Binder(manifest: self, registry: registry, values: values)
        _ = binder.bind()
        return binder.diagnostics
    }
}
