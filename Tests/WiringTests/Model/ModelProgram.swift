/// A random program for the reference model check: a manifest (services with scopes, time to
/// live, variants, aliases named and not, tags, decorators, `eager`, async factories, property
/// hooks, runtime arguments, failing shutdown hooks, seeded services, configuration keys,
/// references, and factories that resolve through the container instead of their context; a
/// context in a block and an overlay file) and the operations run against it
/// (resolves by key, name, alias, type and tag, awaited or not, with arguments, from the
/// container, a scope or a child, some from several tasks at once; `start()`; a clock moved on;
/// resets of everything, a service or a scope; scopes made, seeded and ended; children and
/// grandchildren made with overrides, shares and additions, reset and shut down; refreshes;
/// reloads; the container's shutdown; lazy wrappers first read by several threads at once;
/// resolves, awaited or not, through a context a factory kept, before and after all of these).
///
/// The same program runs on the real ``Container`` (``ModelRunner``) and on the
/// ``ReferenceModel``; both report ``Observation``s, which must agree.
struct ModelProgram: CustomStringConvertible {
    enum Scope: String, CaseIterable {
        /// `session` is a custom scope the manifest declares.
        case unique, graph, cached, singleton, scoped, shared, session
        /// Whether the container keeps its instances (`shared` ones while something holds
        /// them: the runs hold every instance they see, so never less than the program).
        var keeps: Bool { self == .cached || self == .singleton || self == .shared || self == .session }
    }

    /// A dependency of a service's factory: a `!service` reference (`static`), a `!tagged` one,
    /// a resolve by key in the factory's code, which the manifest's checks cannot see, one by
    /// type in the factory's code (`r.resolve(S3.self)`), or the resolve of an alias by a
    /// property wrapper of what the factory builds (which joins the factory's resolution); or
    /// the parameter of an autowired factory (`registry.autowire`), resolved by type and seen
    /// by the checks as a reference is; or a resolve by key through the container in force,
    /// which the factory captured, not through its context (a resolution of its own, which the
    /// one below it waits for).
    enum Dependency: Equatable {
        case reference(String, name: String?)
        case autowired(String)
        case tagged(String)
        case inCode(String)
        case throughContainer(String)
        case typed(String)
        case wrapped(alias: Int)
    }

    struct Variant {
        var name: String
        var scope: Scope?
        /// The variant's own dependencies, replacing its service's; `nil`: the service's.
        var dependencies: [Dependency]?
    }

    struct Service {
        var key: String
        var scope: Scope
        var dependencies: [Dependency]
        /// Indexes of the alias protocols (`ModelAlias0`…) the service implements.
        var aliases: [Int]
        var tags: [String]
        var variants: [Variant]
        /// `ttl:` in seconds of the model's clock, for a `cached` service.
        var ttl: Int? = nil
        /// How many decorators wrap it (`S3+0` innermost, then `S3+1`), for a service without
        /// variants.
        var decorators = 0
        /// `eager: true`: `start()` builds it.
        var eager = false
        /// Whether its factory is async (its variants' too): it awaits its dependencies, and a
        /// synchronous resolve of it, not built yet, is an error.
        var isAsync = false
        /// The service its `resolvingProperties` hook resolves by key, if it has one (its variants
        /// too): what the hook got is the node's `hooked`.
        var hook: String? = nil
        /// Whether its factory reads a runtime argument, an `Int` (`r.argument(0)`), first: its
        /// label then ends with it (`S3#7`). Only for `unique` services without variants.
        var takesArgument = false
        /// Indexes of the alias protocols it implements under the name `alt`
        /// (`{ type: ModelAlias0, name: alt }`), beside another service implementing them unnamed.
        var namedAliases: [Int] = []
        /// Whether its shutdown hook throws (after it ran: the journal still records it).
        var failsShutdown = false
        /// `scope: scoped, seeded: true`: no factory; a scope made with seeds holds its instance.
        var seeded = false
        /// Whether its label reads the configuration key `model.S3` (`"S3${model.S3}"`), which a
        /// refresh changes. Only for services without variants.
        var readsConfig = false
        /// The label its `args` give it, when a context changed it; `nil`: its key.
        var label: String? = nil
        /// Whether its autowired factory is the plain form, `registry.autowire(key, make)`, whose
        /// function takes nothing but its dependency: the program's registry has one per label
        /// (``ModelProgram/plainlyAutowired``); for an async service, the isolated form,
        /// `registry.autowire(key, isolated: make)` of a `@MainActor` function. Otherwise the
        /// form with `args:`, which reads the label from them, sync or async as the service is.
        var autowiredPlainly = false
        /// Whether its autowired factory is registered through the parameter pack's form
        /// (``TestSupport/autowireThroughThePack(_:_:_:)``), which an app reaches with seven
        /// parameters or more; otherwise through the form of fixed arity Swift picks for its one
        /// or two.
        var autowiredThroughThePack = false

        /// The service an autowired factory builds this one from, when it is one.
        var autowiredDependency: String? {
            guard case .autowired(let key) = dependencies.first else { return nil }
            return key
        }
    }

    /// A runtime argument passed to a resolve.
    enum Argument: Equatable {
        case number(Int)
        case text(String)
    }

    enum Target: Equatable {
        case key(String, name: String?)
        case alias(Int)
        /// `container.resolve((any ModelAlias0).self, name: "alt")`.
        case namedAlias(Int)
        case tagged(String)
        /// The service a child adds (`overrides.add(ModelAdded.self)`), by its type.
        case added
    }

    /// Where a resolve runs: the container, the `n`th scope made, the `n`th child made.
    enum Place: Equatable {
        case root
        case scope(Int)
        case child(Int)
    }

    enum Operation {
        case resolve(Target, Place)
        /// A resolve by the service's type: `container.resolve(S3.self)`, or the scope's.
        case resolveTyped(String, Place)
        /// A resolve with `await` (`try await container.resolve(key:)`, or by type).
        case resolveAwaited(Target, Place)
        /// A resolve by key passing runtime arguments (`container.resolve(key:arguments:)`).
        case resolveWithArguments(String, [Argument], Place)
        /// `container.start()`.
        case start
        /// The clock moves on by this many seconds.
        case advance(Int)
        /// `container.reset(scope:)`.
        case resetScope(Scope)
        /// `reset()` of the `n`th child made.
        case resetChild(Int)
        /// Resolves run from several tasks at once.
        case concurrently([(Target, Place)])
        case reset
        case resetService(String)
        case makeScope
        /// A scope given an instance (`seed:S3`) of every `seeded` service before anything resolves.
        case makeSeededScope
        case endScope(Int)
        /// A child overriding the services `overrides` (each by a factory of its own; `S3[eu]`
        /// overrides a named variant) and sharing the parent's instances of `shares`: of the
        /// container, or of the `n`th child made (`parent`). With `adds`, the child adds a
        /// singleton ``ModelAdded`` whose factory resolves that key.
        case makeChild(overrides: [String], shares: [String], parent: Int? = nil, adds: String? = nil)
        /// The configuration source's value of `model.S3` becomes `~value`; a started
        /// container refreshes (the runner waits for its refresh event).
        case refresh(String, Int)
        /// The manifest is written again with each service's label marked with the count of
        /// reloads (`S3^1`) and a ``ReloadingContainer`` reloads it; the retired container's
        /// shutdown is awaited. Only when no scope is open.
        case reload
        case shutDownChild(Int)
        case shutDown
        /// A lazy wrapper of the alias, made at `place` (the container or a child), first read
        /// by `readers` threads at once.
        case lazyRead(alias: Int, Place, readers: Int)
        /// A ``ModelKeeper`` resolved at `place`: its factory keeps its context.
        case keepContext(Place)
        /// A resolve by key through the `n`th context kept (`keeper.context.resolve(key:)`), or by
        /// the key's class when `typed` (`keeper.context.resolve(S3.self)`), with `await` when
        /// `awaited`: it continues the resolution that built the keeper (its `graph` instances,
        /// its scope), in the container that built it.
        case resolveKept(Int, String, awaited: Bool, typed: Bool = false)
    }

    var services: [Service]
    var operations: [Operation]
    /// The context `test`, in a block and an overlay file, if the manifest declares one.
    var context: ModelContext? = nil

    static let aliasCount = 4

    /// Whether the program makes a ``ModelKeeper``: its manifest declares one.
    var keepsContexts: Bool {
        operations.contains { operation in
            if case .keepContext = operation { return true }
            return false
        }
    }

    /// The service `key` declares, if any.
    func service(_ key: String) -> Service? { services.first { $0.key == key } }

    /// The operations whose builds run at once, in an order no run can tell in advance:
    /// resolves from several tasks, or a start (a reload's too) of several eager services. What
    /// they build is the same whatever the order; the order of their instances' shutdown hooks
    /// is not.
    var concurrentOperations: Set<Int> {
        let eager = effective.services.filter(\.eager).count
        return Set(operations.indices.filter { index in
            switch operations[index] {
            case .concurrently: true
            case .start, .reload: eager > 1
            default: false
            }
        })
    }

    // MARK: - The manifest

    var yaml: String { yaml(generation: 0) }

    /// The manifest, each label marked with `generation` (`S3^1`) after the first: what a
    /// reload reads.
    func yaml(generation: Int) -> String {
        var text = "wiring: 1\nscopes:\n  custom:\n    session: {}\nservices:\n"
        for service in services { text += Self.declaration(of: service, generation: generation, indent: "  ") }
        if keepsContexts { text += "  ModelKeeper: { factory: keeper, scope: unique }\n" }
        // Decorators after every service, in the order they apply: the first innermost.
        for service in services {
            for index in 0..<service.decorators {
                text += "  \(service.key)D\(index):\n    factory: decorator\n    decorates: \(service.key)\n"
                text += "    args: { label: \"\(service.key)+\(index)\" }\n"
            }
        }
        if let context { text += context.block(generation: generation) }
        return text
    }

    /// The label `service`'s arguments give it: a context's, else its key (marked with the
    /// reload `generation`, and reading its configuration key when it does).
    static func label(of service: Service, generation: Int) -> String {
        if let label = service.label { return label }
        return service.key + (generation > 0 ? "^\(generation)" : "") + (service.readsConfig ? "${model.\(service.key)}" : "")
    }

    /// The key of the plain autowired factory that builds the node labelled `label`: the
    /// manifest names it, the program's registry registers it.
    static func plainlyAutowiredFactory(_ label: String, of service: Service) -> String {
        "auto-plain-" + (service.isAsync ? "isolated-" : "") + (service.autowiredThroughThePack ? "packed-" : "") + label
    }

    /// The factories of the plainly autowired services (``Service/autowiredPlainly``), by the
    /// label each builds, in every generation the program's reloads reach: the node's label, the
    /// class of its one dependency, the service (its form, whether its shutdown hook throws).
    var plainlyAutowired: [(label: String, dependency: String, service: Service)] {
        let reloads = operations.filter { if case .reload = $0 { true } else { false } }.count
        // A shrunk program may keep the flag of a service whose dependency it dropped.
        return services.filter(\.autowiredPlainly).flatMap { service in
            service.autowiredDependency.map { dependency in
                (0...reloads).map { (Self.label(of: service, generation: $0), dependency, service) }
            } ?? []
        }
    }

    /// `service`'s declaration, under `services:` or a context's `add:`.
    static func declaration(of service: Service, generation: Int, indent: String) -> String {
        let inner = indent + "  "
        var text = "\(indent)\(service.key):\n"
        if service.seeded {
            text += "\(inner)scope: scoped\n\(inner)seeded: true\n"
        } else {
            // A service with a property hook has a factory of its own: the others stay plain. An
            // autowired one has the factory that takes its dependency's class.
            let factory = service.autowiredDependency.map { dependency in
                service.autowiredPlainly
                    ? plainlyAutowiredFactory(label(of: service, generation: generation), of: service)
                    : (service.isAsync ? "auto-async-" : "auto-") + (service.autowiredThroughThePack ? "packed-" : "") + dependency
            } ?? (service.hook == nil ? "" : "hooked-") + (service.isAsync ? "async-node" : "node")
            text += "\(inner)factory: \(factory)\n\(inner)scope: \(service.scope.rawValue)\n"
        }
        if let ttl = service.ttl { text += "\(inner)ttl: \(ttl)\n" }
        if service.eager { text += "\(inner)eager: true\n" }
        let implemented = service.aliases.map { "ModelAlias\($0)" } + service.namedAliases.map { "{ type: ModelAlias\($0), name: alt }" }
        text += "\(inner)implements: [\(implemented.joined(separator: ", "))]\n"
        if !service.tags.isEmpty { text += "\(inner)tags: [\(service.tags.joined(separator: ", "))]\n" }
        guard !service.seeded else { return text }
        text += "\(inner)args:\n" + arguments(label: label(of: service, generation: generation), service.dependencies, indent: inner + "  ")
        if service.takesArgument { text += "\(inner)  argument: true\n" }
        if let hook = service.hook { text += "\(inner)  hook: \(hook)\n" }
        if service.failsShutdown { text += "\(inner)  fails: true\n" }
        if !service.variants.isEmpty {
            text += "\(inner)names:\n"
            for variant in service.variants {
                text += "\(inner)  \(variant.name):\n"
                if let scope = variant.scope { text += "\(inner)    scope: \(scope.rawValue)\n" }
                text += "\(inner)    args:\n" + arguments(label: "\(service.key)[\(variant.name)]",
                                                         variant.dependencies ?? service.dependencies, indent: inner + "      ")
            }
        }
        return text
    }

    /// A factory's arguments: its label, its references, its tag and what it resolves in code.
    private static func arguments(label: String, _ dependencies: [Dependency], indent: String) -> String {
        var references: [String] = [], code: [String] = [], container: [String] = [], typed: [String] = [], wrapped: [Int] = []
        var tag: String?
        for dependency in dependencies {
            switch dependency {
            case .reference(let key, nil): references.append("!service \(key)")
            case .reference(let key, let name?): references.append("!service { service: \(key), name: \(name) }")
            case .tagged(let name): tag = name
            case .inCode(let key): code.append(key)
            case .throughContainer(let key): container.append(key)
            case .typed(let key): typed.append(key)
            case .wrapped(let alias): wrapped.append(alias)
            case .autowired: break   // the factory's parameter, not an argument
            }
        }
        var text = "\(indent)label: \"\(label)\"\n"
        if !references.isEmpty { text += "\(indent)references: [\(references.joined(separator: ", "))]\n" }
        if let tag { text += "\(indent)tagged: !tagged \(tag)\n" }
        if !code.isEmpty { text += "\(indent)code: [\(code.joined(separator: ", "))]\n" }
        if !container.isEmpty { text += "\(indent)container: [\(container.joined(separator: ", "))]\n" }
        if !typed.isEmpty { text += "\(indent)typed: [\(typed.joined(separator: ", "))]\n" }
        if !wrapped.isEmpty { text += "\(indent)wrapped: [\(wrapped.map(String.init).joined(separator: ", "))]\n" }
        return text
    }

    var description: String {
        var text = yaml + (context.map { "context test \($0.active ? "active" : "inactive")\n" } ?? "")
            + (context?.overlay.map { "overlay services.test.yaml:\n\($0)" } ?? "") + "operations:\n"
        for (index, operation) in operations.enumerated() { text += "  \(index): \(operation)\n" }
        return text
    }
}

/// A small, seedable random number generator (SplitMix64): a seed gives the same programs on
/// every machine.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
