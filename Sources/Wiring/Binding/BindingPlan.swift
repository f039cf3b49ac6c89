/// What binding a manifest's services reads, fixed before the first is bound: the registry's
/// factories, the resolved parameters and which services are decorated. ``Binder`` makes one
/// and gathers what ``bind(_:targets:)`` returns into the container's table.
struct BindingPlan {
    let manifest: Manifest
    /// The registry as binding started: each key's place in `factoryKeys`, and its factory.
    let factoryKeys: [String]
    let factories: [NameKey: (index: Int, entry: FactoryRegistry.Entry)]
    /// The parameters resolved, with no problem recorded yet.
    let values: ValueResolver
    let argumentValues: ArgumentValues
    /// Decorators of each service, in manifest order.
    let decoratorsOf: [String: [ServiceDefinition]]
    /// Which services are decorated, by position, so that the others cost no lookup.
    let isDecorated: [Bool]

    init(manifest: Manifest, factoryKeys: [String], factories: [NameKey: (index: Int, entry: FactoryRegistry.Entry)],
         values: ValueResolver) {
        self.manifest = manifest
        self.factoryKeys = factoryKeys
        self.factories = factories
        self.values = values
        argumentValues = ArgumentValues(values)
        var decoratorsOf: [String: [ServiceDefinition]] = [:]
        var isDecorated = [Bool](repeating: false, count: manifest.services.count)
        // The census lists the decorators: the other services' storage is not read here.
        for position in manifest.census.decorators {
            let service = manifest.services[position]
            guard let target = service.decorates?.value else { continue }
            decoratorsOf[target, default: []].append(service)
            if let index = manifest.serviceIndex(of: target) { isDecorated[index] = true }
        }
        self.decoratorsOf = decoratorsOf
        self.isDecorated = isDecorated
    }

    /// Binds the services at `positions` of the manifest (decorators are bound with the
    /// service they decorate), storing each one's target at its position in `targets`.
    func bind(_ positions: Range<Int>, targets: TargetBuffer) -> BoundServices {
        var binder = ServiceBinder(plan: self, targets: targets)
        binder.bind(positions)
        return binder.bound
    }

    /// The decorators of `key` in the order they apply: each decorator of `key` in manifest
    /// order, each followed by its own decorators, depth first (for C decorates B decorates A:
    /// B, then C). Walked with a stack of its own, each decorator once, so that a chain of
    /// thousands costs no recursion; a cycle (reported by validation) stops where it closes.
    fileprivate func chain(of key: String) -> [ServiceDefinition] {
        var chain: [ServiceDefinition] = []
        var seen: Set<String> = [key]
        var pending: [IndexingIterator<[ServiceDefinition]>] = []
        if let decorators = decoratorsOf[key] { pending.append(decorators.makeIterator()) }
        while !pending.isEmpty {
            guard let decorator = pending[pending.count - 1].next() else {
                pending.removeLast()
                continue
            }
            guard seen.insert(decorator.key).inserted else { continue }
            chain.append(decorator)
            if let decorators = decoratorsOf[decorator.key] { pending.append(decorators.makeIterator()) }
        }
        return chain
    }
}

/// Where binding stores each service's target, by position in the manifest: a decorator's is
/// the target of the service it decorates. The buffer is the container table's own array, so
/// stored targets are not copied or counted again when the table is made.
struct TargetBuffer {
    let slots: UnsafeMutableBufferPointer<ResolutionTarget?>
}

/// A manifest's services, bound.
struct BoundServices {
    /// Each service's registration, then its named variants', in manifest order.
    var registrations: [Registration] = []
    /// The `implements` entries of the services bound (and of their decorators), in manifest
    /// order, each with the position of the target it resolves to.
    var claims: [(entry: ImplementsEntry, position: Int)] = []
    var diagnostics: [Diagnostic] = []
    /// Whether a service uses the factory at each place of the plan's `factoryKeys`.
    var usedFactories: [Bool]
    /// How many registrations are `scoped`: each has its place in a scope's table.
    var scopedCount = 0
    /// How many registrations the container keeps: each has its place in a child container's
    /// table of slots.
    var keptCount = 0
    /// With a configuration source: the arguments that read its keys, each with its registration.
    var configurationReaders: [ConfigurationReader] = []
    /// The value of each key they read, as binding checked it.
    var configurationValues: [String: ExternalValues.Lookup] = [:]
}

/// Binds services, collecting what it finds into a ``BoundServices``.
private struct ServiceBinder {
    let plan: BindingPlan
    var bound: BoundServices
    private let targets: TargetBuffer
    private var values: ValueResolver
    /// What typed factories' arguments are checked and decoded with.
    private let typedArguments: ArgumentFill

    init(plan: BindingPlan, targets: TargetBuffer) {
        self.plan = plan
        self.targets = targets
        values = plan.values
        typedArguments = ArgumentFill(plan.values)
        bound = BoundServices(usedFactories: Array(repeating: false, count: plan.factoryKeys.count))
    }

    mutating func bind(_ positions: Range<Int>) {
        // The services are read in place, without retaining each one's storage.
        plan.manifest.services[positions].withUnsafeBufferPointer { services in
            // Sized once, in one pass: a large manifest holds thousands of each.
            var registrationCount = services.count, claimCount = 0
            for offset in services.indices {
                registrationCount += services[offset].names.count
                claimCount += services[offset].implements.count
            }
            bound.registrations.reserveCapacity(registrationCount)
            bound.claims.reserveCapacity(claimCount)
            for offset in services.indices {
                bind(services[offset], at: positions.lowerBound + offset)
            }
        }
        bound.diagnostics += values.diagnostics
    }

    // Every factory key and every value is checked, even when an earlier one failed, so that
    // one build reports every problem.
    private mutating func bind(_ service: ServiceDefinition, at index: Int) {
        guard service.decorates == nil else { return }
        let decorators = plan.isDecorated[index] ? plan.chain(of: service.key) : []
        var steps: [DecoratorStep] = []
        var complete = true
        for decorator in decorators {
            if decorator.scope != nil || !decorator.names.isEmpty {
                bound.diagnostics.append(.warning(
                    "decorator '\(decorator.key)' lives in the scope and names of '\(service.key)', which it decorates; its own 'scope' and 'names' are not used",
                    at: decorator.scope?.location ?? decorator.names.first?.location))
            }
            let made = factory(decorator.factoryKey, of: decorator)
            let written = arguments(decorator.args, at: decorator.location)
            guard let made else {
                complete = false
                continue
            }
            var decoratorProblems: [Diagnostic] = []
            let decoded = decodedArguments(decorator.args, of: decorator.key, at: decorator.location,
                                           factoryKey: decorator.factoryKey, factory: made, problems: &decoratorProblems)
            let args = LazyArguments(written, values: plan.argumentValues, refreshing: refreshing(written, decoded: decoded))
            steps.append(DecoratorStep(key: decorator.key, location: decorator.location,
                                       factoryKey: decorator.factoryKey, factory: made, lazyArgs: args, decodedArguments: decoded))
        }
        let make = service.hasFactory ? factory(service.factoryKey, of: service) : .seededOnly(at: service.location)
        let args = arguments(service.args, at: service.location)
        let scope = plan.manifest.effectiveScope(of: service)
        var base: Registration?
        /// What the service's own arguments reported: its variants do not report it again.
        var argumentProblems: [Diagnostic] = []
        if complete, let make {
            let decoded = decodedArguments(service.args, of: service.key, at: service.location,
                                           factoryKey: service.factoryKey, factory: make, problems: &argumentProblems)
            let registration = Registration(
                key: service.key, name: nil, location: service.location, factoryKey: service.factoryKey,
                factory: make, args: LazyArguments(args, values: plan.argumentValues, refreshing: refreshing(args, decoded: decoded)),
                decodedArguments: decoded, scope: scope,
                keeping: keeping(scope, timeToLive: service.timeToLive?.value), decorators: steps, lifecycle: service.lifecycle,
                tags: service.tags)
            checkHooks(registration)
            recordReaders(of: registration, owner: service.key, factory: make)
            bound.registrations.append(registration)
            base = registration
        }
        let variants = service.names
        // Most services have no variants: an empty table costs no allocation.
        var named = variants.isEmpty ? [:] : [String: Registration](minimumCapacity: variants.count)
        for variant in variants {
            let factoryKey = variant.factory?.value ?? service.factoryKey
            let variantMake = variant.factory.map { factory(factoryKey, of: service, variant: variant.name, at: $0.location) } ?? make
            values.check(variant.args)
            guard base != nil, let variantMake else { continue }
            let variantScope = variant.scope?.value ?? scope
            let timeToLive = variant.timeToLive?.value ?? (variant.scope == nil ? service.timeToLive?.value : nil)
            var inherited = argumentProblems
            let variantArgs = variant.args.map { args.overlaid(by: $0) }
            let decoded = decodedArguments(variantArgs ?? service.args, of: "\(service.key)[\(variant.name)]",
                                           at: variant.location, factoryKey: factoryKey, factory: variantMake, problems: &inherited,
                                           reportedBy: service.key)
            let registration = Registration(
                key: service.key, name: variant.name, location: variant.location, factoryKey: factoryKey,
                factory: variantMake,
                args: LazyArguments(args, overriddenBy: variant.args, values: plan.argumentValues,
                                    refreshing: refreshing(variantArgs ?? args, decoded: decoded)),
                decodedArguments: decoded,
                scope: variantScope, keeping: keeping(variantScope, timeToLive: timeToLive), decorators: steps,
                lifecycle: variant.lifecycle.over(service.lifecycle), tags: variant.tags)
            checkHooks(registration)
            recordReaders(of: registration, owner: "\(service.key)[\(variant.name)]", factory: variantMake)
            bound.registrations.append(registration)
            named[variant.name] = registration
        }
        guard let base else { return }
        let target = ResolutionTarget(serviceKey: service.key, unnamed: base, named: named)
        targets.slots[index] = target
        for decorator in decorators {
            if let position = plan.manifest.serviceIndex(of: decorator.key) { targets.slots[position] = target }
        }
        for entry in service.implements { bound.claims.append((entry, index)) }
        for decorator in decorators {
            for entry in decorator.implements { bound.claims.append((entry, index)) }
        }
    }

    /// Every reference is checked now; the filled-in arguments are made on first use.
    private mutating func arguments(_ map: ManifestMap?, at location: SourceLocation) -> ManifestMap {
        values.check(map)
        return map ?? ManifestMap([], at: location)
    }

    /// For a typed factory: its arguments checked against its schema, every problem reported,
    /// and decoded once (a `@Reference` field holds a placeholder each build fills in; see
    /// ``ReferenceSlot``).
    ///
    /// `problems` holds what was reported for the service when checking a named variant's
    /// arguments, which are not reported again; on return, what this check reported.
    private mutating func decodedArguments(
        _ args: @autoclosure () -> ManifestMap?, of owner: @autoclosure () -> String, at location: SourceLocation, factoryKey: String,
        factory: FactoryRegistry.Entry, problems: inout [Diagnostic], reportedBy serviceOwner: String = ""
    ) -> DecodedArguments? {
        // Nothing is made for a factory that reads `r.arg`: not a variant's arguments laid over
        // its service's, not its name.
        guard let typed = factory.arguments else { return nil }
        let (decoded, diagnostics) = typedArguments.decode(args(), of: owner(), at: location, factoryKey: factoryKey, as: typed,
                                                           reported: problems, reportedBy: serviceOwner)
        bound.diagnostics += diagnostics
        problems = diagnostics
        return decoded
    }

    // MARK: - Configuration

    /// With a configuration source, arguments `written` that read its keys (directly or through
    /// parameters), filled in now with the values binding checked, to be replaced when a key
    /// changes; `nil` otherwise.
    private mutating func refreshing(_ written: ManifestMap, decoded: DecodedArguments?) -> RefreshingArguments? {
        guard plan.values.external.configuration != nil else { return nil }
        let keys = plan.manifest.externalNames(readBy: written)
        guard !keys.isEmpty else { return nil }
        for key in keys where bound.configurationValues[key] == nil {
            bound.configurationValues[key] = values.lookup(key, hasDefault: false)
        }
        // A copy fills them in: binding reported their problems already.
        var filling = values
        return RefreshingArguments(written: written, keys: keys, filled: filling.resolve(written, at: written.location), decoded: decoded)
    }

    /// Records which of `registration`'s arguments (its own, its decorators') read
    /// configuration keys.
    private mutating func recordReaders(of registration: Registration, owner: String, factory: FactoryRegistry.Entry) {
        guard registration.readsConfiguration else { return }
        if let arguments = registration.refreshing {
            bound.configurationReaders.append(ConfigurationReader(
                registration: registration, arguments: arguments, typed: factory.arguments, owner: owner,
                factoryKey: registration.factoryKey, location: registration.location))
        }
        for step in registration.decorators {
            guard let arguments = step.refreshing else { continue }
            bound.configurationReaders.append(ConfigurationReader(
                registration: registration, arguments: arguments, typed: step.factory.arguments, owner: step.key,
                factoryKey: step.factoryKey, location: step.location))
        }
    }

    // MARK: - Factories and scopes

    /// The factory of `service` (of its variant `variant`, written at `location`).
    private mutating func factory(
        _ key: String, of service: ServiceDefinition, variant: String? = nil, at location: SourceLocation? = nil
    ) -> FactoryRegistry.Entry? {
        guard let (index, entry) = plan.factories[key] else {
            let owner = shownService(service.key, name: variant)
            bound.diagnostics.append(.unregisteredFactory(
                key, of: owner, registered: plan.factoryKeys, at: location ?? service.factory?.location ?? service.location))
            return nil
        }
        bound.usedFactories[index] = true
        return entry
    }

    /// A shutdown hook on a factory whose instances nobody keeps never runs: a warning.
    private mutating func checkHooks(_ registration: Registration) {
        guard registration.hasShutdownHooks, registration.scope.keepsNoInstance else { return }
        let shown = registration.shown
        bound.diagnostics.append(.warning(
            "service \(shown) has a shutdown hook, but its scope '\(registration.scope)' keeps no instance: the hook never runs",
            at: registration.location))
    }

    private mutating func keeping(_ scope: Scope, timeToLive: Duration?) -> Keeping {
        let custom = scope.isBuiltIn ? nil : plan.manifest.customScopes.first { $0.name == scope.name }
        return scope.keeping(timeToLive: timeToLive, customTimeToLive: custom?.timeToLive?.value,
                   scopedCount: &bound.scopedCount, keptCount: &bound.keptCount)
    }
}
