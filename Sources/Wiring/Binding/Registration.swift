import Synchronization

/// The registrations a registration's top-level `!service` arguments refer to, by argument:
/// reading one is then a short scan and a build, as `r.resolve` in code is, instead of a
/// lookup of the service by its key on every read (which made three declared dependencies
/// cost 4.3× three resolved in code).
final class ReferenceTable: Sendable {
    /// Targets not counted: the container holds every registration. Found in the table bound
    /// from the manifest, which a child container shares: each child substitutes its own.
    private let entries: [(key: String, target: Unmanaged<Registration>)]

    init(_ args: ManifestMap, container: Container) {
        var entries: [(key: String, target: Unmanaged<Registration>)] = []
        if args.mayHoldServiceReferences {
            for entry in args.entries {
                guard case .service(let reference) = entry.value.kind, let target = container.targets[reference.service] else { continue }
                if let name = reference.name {
                    if let variant = target.named[name] { entries.append((entry.key, Unmanaged.passUnretained(variant))) }
                } else if let unnamed = target.unnamedReference {
                    entries.append((entry.key, unnamed))
                }
            }
        }
        self.entries = entries
    }

    subscript(key: String) -> Unmanaged<Registration>? {
        for entry in entries where entry.key == key { return entry.target }
        return nil
    }
}

/// How a registration keeps its instance, derived once from its scope.
enum Keeping: Sendable {
    case unique
    case graph
    /// Kept by each ``ContainerScope``, in the slot at `place` of its table.
    case scoped(place: Int)
    /// Kept in `slot` by the container that bound it; a child container keeps it in the slot at
    /// `place` of its own table (see ``Container/keptSlot(_:at:)``). Only the scopes that keep
    /// an instance have one.
    case kept(timeToLive: Duration?, weakly: Bool, slot: InstanceSlot, place: Int)
}

/// A factory of a decorator, applied around the instance of the service it decorates.
final class DecoratorStep: Sendable {
    let key: String
    let location: SourceLocation
    let factoryKey: String
    let factory: FactoryRegistry.Entry
    private let lazyArgs: LazyArguments
    /// Its typed factory's arguments, decoded when the container was built.
    private let decodedArguments: DecodedArguments?

    init(key: String, location: SourceLocation, factoryKey: String,
         factory: FactoryRegistry.Entry, lazyArgs: consuming LazyArguments, decodedArguments: DecodedArguments?) {
        self.key = key
        self.location = location
        self.factoryKey = factoryKey
        self.factory = factory
        self.lazyArgs = lazyArgs
        self.decodedArguments = decodedArguments
    }

    var make: @Sendable (FactoryContext) throws -> Any { factory.make }

    /// The decorator's static arguments, references filled in.
    var args: ManifestMap { lazyArgs.map }

    /// What the argument `key` reads from outside the manifest, as messages name it.
    func source(ofArgument key: String) -> String? { lazyArgs.source(ofArgument: key) }

    /// Its arguments when they read configuration keys: replaced when a key changes.
    var refreshing: RefreshingArguments? { lazyArgs.refreshing }

    /// Its typed factory's arguments as decoded with the values in force.
    var typedArguments: DecodedArguments? { lazyArgs.refreshing.map(\.decoded) ?? decodedArguments }
}

/// One buildable entry of a container's table: a service, or one named variant of it, bound to
/// its factory, with its arguments checked and its scope applied.
final class Registration: Sendable {
    // What a resolve reads first, so that it shares the object's first cache lines (a request
    // reads four registrations); then the word-sized fields, and the odd-sized ones
    // last, so that padding does not push the object into a bigger allocation: a container
    // holds one per service and named variant.
    let make: @Sendable (FactoryContext) throws -> Any
    let keeping: Keeping
    /// The registrations its `!service` arguments refer to, found on first use.
    private let referenceTable = OnceReference<ReferenceTable>()
    /// The factory's shutdown hook, if it has one.
    let shutdownHook: ShutdownHook?
    /// Whether a build is the factory alone: no decorators, no property hooks, and arguments
    /// that no refresh replaces (a build of those reads them once, through its context).
    let isPlain: Bool
    /// Whether it is plain and `unique`: what a resolve checks first, stored so that the check
    /// is one byte, not the scope's payload (with the dependency's one entry, the unique row
    /// went from 2,741 to 2,657 instructions: `WiringBenchmarks --profile-resolve`).
    let isPlainUnique: Bool
    /// Whether the factory or a decorator is async: the service then resolves with `await`.
    let isAsync: Bool
    /// Whether the factory or a decorator has a shutdown hook.
    let hasShutdownHooks: Bool
    /// Whether all its shutdown hooks are synchronous: a scope that ends runs them in place.
    /// Derived once, as ``hasShutdownHooks`` is: a scope that ends asks it of each instance it
    /// recorded, and reading the hooks to tell would copy them.
    let hooksRunInPlace: Bool
    /// Whether its instances are the factory's class instances (a plain build of a factory
    /// whose type is a class): a scope holds them without a box.
    let buildsObject: Bool
    /// Whether its instance is kept by the container, beyond any scope: it may not depend on
    /// a `scoped` service. Stored, since every scoped resolve checks the path for one.
    let keepsBeyondScope: Bool
    let key: String
    let name: String?
    let factoryKey: String
    private let lazyArgs: LazyArguments
    let decorators: [DecoratorStep]
    /// The async factory, when the service's is one.
    let makeAsync: (@Sendable (FactoryContext) async throws -> Any)?
    /// `tags:`, for `resolveAll(tagged:)` and `!tagged`.
    let tags: [String]
    /// The factory's `resolvingProperties` hooks.
    let propertyHooks: [@Sendable (FactoryContext, Any) throws -> Void]
    /// The services its autowired factory's parameters resolve, by type; `nil` for a closure.
    let autowired: [AutowiredDependency]?
    let location: SourceLocation
    /// How long each shutdown hook may run; the container's default when `nil`.
    let shutdownTimeout: Duration?
    let scope: Scope
    /// `eager: true`: `start()` builds it.
    let isEager: Bool
    /// Its typed factory's arguments, decoded when the container was built; `nil` for a factory
    /// that reads `r.arg`, and for arguments whose `@Reference` fields could not be placed
    /// (decoded at each build; see ``ReferenceSlot``).
    let decodedArguments: DecodedArguments?

    init(key: String, name: String?, location: SourceLocation, factoryKey: String,
         factory: FactoryRegistry.Entry, args: consuming LazyArguments, decodedArguments: DecodedArguments?,
         scope: Scope, keeping: Keeping, decorators: [DecoratorStep], lifecycle: Lifecycle, tags: [Located<String>]? = nil) {
        self.decodedArguments = decodedArguments
        self.key = key
        self.name = name
        self.location = location
        self.factoryKey = factoryKey
        make = factory.make
        makeAsync = factory.makeAsync
        shutdownHook = factory.shutdown
        let refreshes = args.refreshing != nil
        lazyArgs = args
        self.scope = scope
        self.keeping = keeping
        self.decorators = decorators
        propertyHooks = factory.properties
        autowired = factory.autowired
        isPlain = decorators.isEmpty && factory.properties.isEmpty && !refreshes
        buildsObject = isPlain && factory.buildsObject
        if case .unique = keeping { isPlainUnique = isPlain } else { isPlainUnique = false }
        if case .kept = keeping { keepsBeyondScope = true } else { keepsBeyondScope = false }
        isEager = lifecycle.eager?.value ?? false
        self.tags = tags?.map(\.value) ?? []
        shutdownTimeout = lifecycle.shutdownTimeout?.value
        isAsync = factory.isAsync || decorators.contains { $0.factory.isAsync }
        hasShutdownHooks = factory.shutdown != nil || decorators.contains { $0.factory.shutdown != nil }
        hooksRunInPlace = !(factory.shutdown?.isTimed ?? false) && !decorators.contains { $0.factory.shutdown?.isTimed ?? false }
    }

    /// The registration the top-level argument `key` refers to with `!service`, if it does and
    /// `container` declares it: the one `container` resolves, which a child container may
    /// replace.
    func referencedRegistration(_ key: String, in container: Container) -> Unmanaged<Registration>? {
        // Borrowed: the registration keeps its table.
        let table = referenceTable.loadUnmanaged()
            ?? Unmanaged.passUnretained(referenceTable.storeIfNil(ReferenceTable(args, container: container)))
        guard let found = table._withUnsafeGuaranteedRef({ $0[key] }) else { return nil }
        return container.substituted(found)
    }

    /// The key of the factory of `step` (-1: the service's own).
    func factoryKey(ofStep step: Int) -> String { step < 0 ? factoryKey : decorators[step].factoryKey }

    /// The static arguments, references filled in on first use (with the values in force, for
    /// arguments that read configuration keys).
    var args: ManifestMap { lazyArgs.map }

    /// What the argument `key` reads from outside the manifest, as messages name it.
    func source(ofArgument key: String) -> String? { lazyArgs.source(ofArgument: key) }

    /// Its arguments when they read configuration keys (a change after `start()` replaces
    /// them); `nil` for the others.
    var refreshing: RefreshingArguments? { lazyArgs.refreshing }

    /// Its typed factory's arguments as decoded with the values in force.
    var typedArguments: DecodedArguments? { lazyArgs.refreshing.map(\.decoded) ?? decodedArguments }

    /// Whether its arguments or a decorator's read configuration keys: a change may drop its
    /// kept instance (see ``ConfigurationWatch``). Not stored: asked when an instance is first
    /// cached, and a stored flag took the registration into a larger allocation.
    var readsConfiguration: Bool { lazyArgs.refreshing != nil || decorators.contains { $0.refreshing != nil } }

    var step: ResolutionError.Step { ResolutionError.Step(service: id, location: location) }
    /// `Key` or `Key[name]`, as reports show a service.
    var shown: String { shownService(key, name: name) }
    /// The service as reports and events name it.
    var id: ServiceID { ServiceID(key, name: name) }

    /// Whether its instance, once built, is kept for good: the container then caches it by the
    /// type it is resolved as.
    var isCachedByType: Bool {
        if case .kept(nil, false, _, _) = keeping { return true }
        return false
    }
}

/// What a type name or service key resolves to: the service (or the service an `implements`
/// entry points to), and the names it can be resolved under.
final class ResolutionTarget: Sendable {
    /// The service an unnamed resolve reaches; for a type that services list only under
    /// names, the type's name.
    let serviceKey: String
    /// `unnamed`, not counted: every registration is held by the `registrations` of the
    /// container (and, before, of the binder) beside its targets, so the resolve path borrows
    /// it without counting a reference.
    let unnamedReference: Unmanaged<Registration>?
    let named: [String: Registration]

    init(serviceKey: String, unnamed: Registration?, named: [String: Registration]) {
        self.serviceKey = serviceKey
        unnamedReference = unnamed.map(Unmanaged.passUnretained)
        self.named = named
    }

    /// The registration resolved without a name, if the service has one.
    var unnamed: Registration? { unnamedReference?.takeUnretainedValue() }

    /// The names it resolves under, sorted, for messages.
    var sortedNames: [String] { named.keys.sorted() }
}

/// One service being built on the resolution path: a registration, or one of its decorators.
struct PathEntry {
    /// Owned by the container, which outlives any resolution of it (a state's path is only
    /// walked while its container resolves), so pushing and popping counts no references.
    unowned(unsafe) let registration: Registration
    /// The decorator being applied, -1 for the registration's own factory, or
    /// ``factoryReturned`` once that factory returned (its property hooks or decorators run).
    let decorator: Int

    /// `decorator` of a registration's own entry once its factory returned: no factory of it
    /// runs there any more (see ``ResolutionPath/hasRunningFactory(from:to:)``).
    static let factoryReturned = -2

    var step: ResolutionError.Step {
        guard decorator >= 0 else { return registration.step }
        let step = registration.decorators[decorator]
        return ResolutionError.Step(service: ServiceID(step.key), location: step.location)
    }
}
