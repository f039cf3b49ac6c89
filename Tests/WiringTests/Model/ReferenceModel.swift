/// The semantics of a manifest written to be obviously right, not fast: what a container
/// must do with a ``ModelProgram``. Each rule is a line or two here; the real ``Container``
/// is checked against it on random programs (``ModelCheckTests``).
///
/// - A registration is a service or one of its named variants (its own scope and arguments,
///   else the service's). A resolve builds what it needs depth first, in the order the factory
///   asks: `!service` references, then `!tagged` services (manifest order), then resolves in
///   code, then what the property wrappers of what it builds resolve: all in one resolution.
/// - `unique`: built at each resolve. `graph`: once per top-level resolve (everything built
///   during it shares it). `cached`, `shared`, `singleton` and the custom `session`: kept by
///   the container until a reset (of everything, of the service, or of its scope), and a
///   `cached` one with a `ttl` until the clock reaches it. `scoped`: kept by the scope
///   resolving, an error without one, or when a service the container keeps is on the path
///   (it would keep the scope's instance).
/// - A service's decorators wrap what its factory (or a child's override) built, the first
///   innermost; what is kept, shared in a graph and handed out is the outermost. Each layer
///   but an override has a shutdown hook; the hooks of one instance run outermost first.
/// - `start()` resolves each `eager` service once, as a top-level resolve; when one fails, it
///   shuts down and drops every kept instance, and may be tried again.
/// - A registration met again on its own path is a circular dependency.
/// - A service whose factory is async is built only by a resolve that awaits: an awaited
///   resolve, what an async factory asks for (but for its property wrappers), `start()`.
///   Elsewhere, unless it is kept already, resolving it is an error (`awaitRequired`).
/// - A factory that reads a runtime argument reads the first one passed to the resolve that
///   asked for it (none for a dependency): missing, or not an `Int`, it is an error.
/// - Kept instances' shutdown hooks run at the container's shutdown (also of instances a
///   reset dropped), the last built first; a scope's, when it ends. A child's shutdown runs its
///   own; the parent's shuts its live children down first, the most recent first.
/// - A child resolves what it overrides with its own factory (in the service's scope; a named
///   variant's override replaces that variant only), what it shares from its parent (a resolve
///   of the parent's, each time), what it adds (kept by the child resolving it), and everything
///   else as its parent declares it (a grandchild inherits its parent's overrides, shares and
///   additions), keeping its own instances.
/// - An active context changes services before anything is built: its block, then its overlay
///   file; a service it switches off is unknown; what it adds is declared. Two services
///   implementing one type under no name, as written or in the context, refuse the manifest.
/// - A seeded service is the instance its scope was given, or `notSeeded`.
/// - A shutdown runs every hook and reports those that threw; asked again, the same.
/// - A refresh (seen once started) and a reload (a container started from the manifest again,
///   put in force when it starts, the one before then shut down): `ReferenceModel+Lifecycle.swift`.
final class ReferenceModel {
    struct Registration: Hashable {
        let key: String
        let name: String?
        var label: String { name.map { "\(key)[\($0)]" } ?? key }
    }

    /// A container: the root or a child.
    final class World {
        let parent: World?
        /// What it overrides: service keys, and named variants as `S3[eu]`.
        let overrides: Set<String>
        let shares: Set<String>
        /// The key the factory of the ``ModelAdded`` it adds resolves, if it adds one.
        let adds: String?
        /// How many reloads came before the manifest it was built from (a child: its parent's).
        let generation: Int
        /// Kept instances, each with the time it expires at, if it does.
        var kept: [Registration: (node: ModelNode, expires: Int?)] = [:]
        /// Kept instances' layers in the order built, for the shutdown hooks.
        var hooks: [(registration: Registration, node: ModelNode)] = []
        var children: [World] = []
        var isShutDown = false
        /// What its shutdown reported failing: a shutdown asked for again reports the same.
        var shutdownFailures: [String] = []
        /// Whether a `start()` succeeded (a root's).
        var started = false

        init(parent: World?, overrides: Set<String> = [], shares: Set<String> = [], adds: String? = nil, generation: Int = 0) {
            self.parent = parent
            self.overrides = overrides
            self.shares = shares
            self.adds = adds
            self.generation = parent?.generation ?? generation
        }
    }

    final class Scope {
        /// The container it was made from.
        let world: World
        /// The instances seeded into it, by service key.
        let seeds: [String: ModelNode]
        var kept: [Registration: (node: ModelNode, expires: Int?)] = [:]
        var hooks: [(registration: Registration, node: ModelNode)] = []
        var ended = false

        init(world: World, seeds: [String: ModelNode] = [:]) {
            self.world = world
            self.seeds = seeds
        }
    }

    struct Failure: Error {
        let kind: String
        let service: String?
    }

    /// The program's services as the container declares them (its context applied).
    let program: ModelProgram
    /// The container in force: another after a reload.
    var root: World
    /// How many times each factory built, by label: outside operations that build
    /// concurrently, and in them.
    var counts: [String: Int] = [:]
    var concurrentCounts: [String: Int] = [:]
    /// The operation running, and whether it builds concurrently.
    var operation = -1
    var concurrent = false
    /// The clock, in seconds.
    var now = 0
    /// The configuration source's values of `model.S3` (`~0` before any refresh).
    var configuration: [String: Int] = [:]

    /// Whether the manifest is refused: two services implement one type under no name, as
    /// written or with its context applied (a context that switches one off does not make the
    /// manifest as written valid).
    let isAmbiguous: Bool

    init(_ program: ModelProgram) {
        self.program = program.effective
        root = World(parent: nil)
        isAmbiguous = [program, program.effective].contains { program in
            (0..<ModelProgram.aliasCount).contains { alias in program.services.filter { $0.aliases.contains(alias) }.count > 1 }
        }
    }

    // MARK: - Declarations

    func scope(of registration: Registration) -> ModelProgram.Scope {
        // What a child adds is a singleton of the child's.
        guard let service = program.service(registration.key) else { return .singleton }
        return registration.name.flatMap { name in service.variants.first { $0.name == name }?.scope } ?? service.scope
    }

    /// The `ttl` of `registration`: its service's, unless a variant has a scope of its own.
    func ttl(of registration: Registration) -> Int? {
        let service = program.service(registration.key)!
        guard let name = registration.name else { return service.ttl }
        return service.variants.first { $0.name == name }?.scope == nil ? service.ttl : nil
    }

    /// How many decorators wrap `registration`: its service's (a service with decorators has no
    /// variants).
    func decorators(of registration: Registration) -> Int {
        registration.name == nil ? program.service(registration.key)!.decorators : 0
    }

    /// The dependencies the factory asks for, in the order it asks.
    func dependencies(of registration: Registration) -> [ModelProgram.Dependency] {
        let service = program.service(registration.key)!
        let written = registration.name.flatMap { name in service.variants.first { $0.name == name }?.dependencies } ?? service.dependencies
        var ordered = written.filter { if case .autowired = $0 { true } else { false } }
        ordered += written.filter { if case .reference = $0 { true } else { false } }
        ordered += written.filter { if case .tagged = $0 { true } else { false } }
        ordered += written.filter { if case .inCode = $0 { true } else { false } }
        ordered += written.filter { if case .throughContainer = $0 { true } else { false } }
        ordered += written.filter { if case .typed = $0 { true } else { false } }
        ordered += written.filter { if case .wrapped = $0 { true } else { false } }
        return ordered
    }

    /// What a child (or one of its ancestors) changed of the service `key`, the nearest change
    /// first: a child resolves as its parent declares, its parent's changes included.
    enum Change {
        /// Built with the child's own factory, kept by the container resolving.
        case override
        /// Resolved from this container, the parent of the child that shares it.
        case share(from: World)
    }

    func change(of registration: Registration, in world: World) -> Change? {
        var next: World? = world
        while let current = next, let parent = current.parent {
            if registration.name == nil, current.shares.contains(registration.key) { return .share(from: parent) }
            if current.overrides.contains(registration.label) { return .override }
            next = parent
        }
        return nil
    }

    /// The nearest container, `world` or an ancestor, that adds a ``ModelAdded``.
    func adding(in world: World) -> World? {
        var next: World? = world
        while let current = next {
            if current.adds != nil { return current }
            next = current.parent
        }
        return nil
    }

    /// The label the factory of `registration` gives what it builds in `world` (without a
    /// runtime argument): a variant's, a context's, else its key, marked with the reload
    /// generation and the configuration value it reads.
    func label(of registration: Registration, in world: World) -> String {
        let service = program.service(registration.key)!
        if registration.name != nil || service.label != nil { return registration.name == nil ? service.label! : registration.label }
        return service.key + (world.generation > 0 ? "^\(world.generation)" : "")
            + (service.readsConfig ? "~\(configuration[service.key] ?? 0)" : "")
    }

    /// Every service and variant with `tag`, in manifest order.
    func tagged(_ tag: String) -> [Registration] {
        program.services.filter { $0.tags.contains(tag) }.map { Registration(key: $0.key, name: nil) }
    }

    /// What resolving alias `alias` (under no name) finds when no service implements it so:
    /// a type that services implement under a name only resolves only by name, and the error
    /// names the type.
    func unimplemented(_ alias: Int) -> Failure {
        let named = program.services.contains { $0.namedAliases.contains(alias) }
        return Failure(kind: named ? "onlyByName ModelAlias\(alias)" : "unknownService", service: nil)
    }

    func registration(implementing alias: Int, named: Bool = false) -> Registration? {
        program.services.first { (named ? $0.namedAliases : $0.aliases).contains(alias) }.map { Registration(key: $0.key, name: nil) }
    }

    // MARK: - Resolving

    /// What one top-level resolve holds: its `graph` instances, the property hooks that wait for
    /// the factories running below their instance to return (with where each is kept once they
    /// ran), and the instances whose hooks run, which a resolve that comes back to them gets.
    ///
    /// A resolution started while a factory (or a hook) of another runs below it, which waits
    /// for it (a child's share, resolved from its parent), has that one's path and resolution
    /// in `enclosing`, and those of its own enclosing ones: building what runs there again is a
    /// cycle.
    final class Resolution {
        var graph: [Registration: ModelNode] = [:]
        var waiting: [(registration: Registration, node: ModelNode, kept: ModelNode?, layers: [ModelNode])] = []
        var partial: [(registration: Registration, node: ModelNode)] = []
        let enclosing: [(path: [Step], resolution: Resolution, world: World)]
        init(enclosing: [(path: [Step], resolution: Resolution, world: World)] = []) { self.enclosing = enclosing }
    }

    /// The resolution below `resolution` that builds `registration`, as `world` declares it:
    /// on its path as the same declaration (not a child's override of it when `world` has
    /// none, nor another child's addition), or, with `kept`, as the instance `world` keeps
    /// (not a child's own), its path or its instances whose hooks wait.
    func builtBelow(_ registration: Registration, in world: World, resolution: Resolution, kept: Bool = false) -> Resolution? {
        resolution.enclosing.first { below in
            (kept ? below.world === world : declaring(registration, in: below.world) === declaring(registration, in: world))
                && (below.path.contains { $0.registration == registration }
                    || kept && below.resolution.waiting.contains { $0.registration == registration })
        }?.resolution
    }

    /// The container whose declaration of `registration` `world` builds: for an addition, the
    /// child that adds it; else the nearest that overrides it; `nil` for the manifest's.
    func declaring(_ registration: Registration, in world: World) -> World? {
        if registration == Self.added { return adding(in: world) }
        var next: World? = world
        while let current = next, current.parent != nil {
            if current.overrides.contains(registration.label) { return current }
            next = current.parent
        }
        return nil
    }

    /// A registration on the path, and whether its factory is running there (not once it
    /// returned and its hooks run; never for an async factory, whose dependencies build in
    /// resolutions that continue its own and do not wait for it).
    struct Step {
        let registration: Registration
        var running: Bool
    }

    /// A top-level resolve of `registration` in `world`, from `scope` when given, with `await`
    /// when `awaiting`.
    func resolve(_ registration: Registration, in world: World, scope: Scope?, awaiting: Bool = false,
                 arguments: [ModelProgram.Argument] = [], below: Resolution = Resolution()) throws(Failure) -> ModelNode {
        // A scope of a container shut down resolves nothing; the container itself looks the
        // service up first.
        if scope != nil, world.isShutDown { throw Failure(kind: "shutDown", service: nil) }
        if registration == Self.added ? adding(in: world) == nil : program.service(registration.key) == nil {
            throw Failure(kind: "unknownService", service: nil)
        }
        if world.isShutDown { throw Failure(kind: "shutDown", service: nil) }
        return try build(registration, in: world, scope: scope, resolution: below, path: [], awaiting: awaiting, arguments: arguments)
    }

    /// The key a registration's property hook resolves, if it has one (a child's override has none).
    func hook(of registration: Registration, change: Change?) -> String? {
        if case .override? = change { return nil }
        return program.service(registration.key)!.hook
    }

    /// Builds `registration` (or finds it where it is kept) for a resolve that awaits when
    /// `awaiting`: what an async factory asks for, or an awaited resolve. A synchronous one of
    /// an async factory's service, not built yet, is an error; what an async factory's service
    /// asks for is awaited, except through a property wrapper, which cannot await.
    ///
    /// Property hooks run once no factory runs below their instance's build (an async
    /// factory's instance: at once), after those that waited, in build order; what a container
    /// or scope keeps is kept once the hooks waiting in its resolution ran.
    private func build(_ registration: Registration, in world: World, scope: Scope?, resolution: Resolution,
                       path: [Step], awaiting: Bool, arguments: [ModelProgram.Argument] = []) throws(Failure) -> ModelNode {
        if registration == Self.added { return try buildAdded(in: world, scope: scope, resolution: resolution, path: path) }
        guard let service = program.service(registration.key) else { throw Failure(kind: "unknownService", service: nil) }
        let scopeKind = self.scope(of: registration)
        if path.contains(where: { $0.registration == registration }) {
            // Met again while its hooks run (or wait for the outermost factory): handed back,
            // unless `unique`, which has no one instance.
            if scopeKind != .unique, let partial = resolution.partial.last(where: { $0.registration == registration }) {
                // A scoped one below a service the container keeps stays a captive scope.
                if scopeKind == .scoped, path.contains(where: { self.scope(of: $0.registration).keeps }) {
                    throw Failure(kind: "scopeRequired", service: registration.label)
                }
                return partial.node
            }
            throw Failure(kind: "circularDependency", service: registration.label)
        }
        // A share: the instance of the parent of the child that shares it, by a resolve of
        // that parent's own.
        let change = self.change(of: registration, in: world)
        if case .share(let parent)? = change {
            return try resolve(registration, in: parent, scope: nil, awaiting: awaiting, arguments: arguments,
                               below: Resolution(enclosing: resolution.enclosing + [(path, resolution, world)]))
        }
        switch scopeKind {
        case .singleton, .cached, .shared, .session:
            if let kept = world.kept[registration], kept.expires.map({ now < $0 }) ?? true { return kept.node }
        case .scoped:
            guard let scope, !path.contains(where: { self.scope(of: $0.registration).keeps }) else {
                throw Failure(kind: "scopeRequired", service: registration.label)
            }
            if scope.ended { throw Failure(kind: "shutDown", service: registration.label) }
            if let kept = scope.kept[registration] { return kept.node }
            if service.seeded {
                guard let seed = scope.seeds[registration.key] else { throw Failure(kind: "notSeeded", service: registration.label) }
                return seed
            }
        case .graph:
            if let built = resolution.graph[registration] { return built }
        case .unique:
            break
        }
        // Built below, in a resolution that waits for this one: a cycle. A `unique` or `graph`
        // one is met as the first build of a resolution started through the container (one turn
        // later, when met first deeper down).
        if scopeKind == .unique || scopeKind == .graph, path.isEmpty, builtBelow(registration, in: world, resolution: resolution) != nil {
            throw Failure(kind: "circularDependency", service: registration.label)
        }
        // Built in this resolution and not kept yet: its hooks run or wait.
        if scopeKind.keeps || scopeKind == .scoped {
            if let partial = resolution.partial.last(where: { $0.registration == registration }) { return partial.node }
            if let waiting = resolution.waiting.last(where: { $0.registration == registration }) { return waiting.kept ?? waiting.node }
        }
        // A child's override is its own synchronous factory.
        let isAsync: Bool = if case .override? = change { false } else { service.isAsync }
        if isAsync, !awaiting { throw Failure(kind: "awaitRequired", service: registration.label) }
        // A kept one, at any level: its instance is being built below, and is handed over
        // while its hooks run.
        if scopeKind != .unique, scopeKind != .graph, let below = builtBelow(registration, in: world, resolution: resolution, kept: true) {
            if let partial = below.partial.last(where: { $0.registration == registration }) { return partial.node }
            throw Failure(kind: "circularDependency", service: registration.label)
        }
        var node: ModelNode
        if case .override? = change {
            node = ModelNode(label: "override:\(registration.label)", dependencies: [])
        } else {
            // A runtime argument, read first; a dependency is resolved with none.
            var label = self.label(of: registration, in: world)
            if service.takesArgument {
                guard let first = arguments.first else { throw Failure(kind: "argument missing", service: registration.label) }
                guard case .number(let value) = first else { throw Failure(kind: "argument type", service: registration.label) }
                label += "#\(value)"
            }
            var built: [ModelNode] = []
            let onPath = path + [Step(registration: registration, running: !isAsync)]
            func resolved(_ dependency: Registration, awaiting: Bool) throws(Failure) -> ModelNode {
                try build(dependency, in: world, scope: scope, resolution: resolution, path: onPath, awaiting: awaiting)
            }
            for dependency in dependencies(of: registration) {
                switch dependency {
                case .reference(let key, let name):
                    built.append(try resolved(Registration(key: key, name: name), awaiting: isAsync))
                case .tagged(let tag):
                    for member in tagged(tag) { built.append(try resolved(member, awaiting: isAsync)) }
                case .inCode(let key), .typed(let key), .autowired(let key):
                    built.append(try resolved(Registration(key: key, name: nil), awaiting: isAsync))
                case .throughContainer(let key):
                    // A resolution of its own, from the container in force, which this one waits
                    // for. An async factory's awaited resolve of a synchronous service runs on the
                    // synchronous engine, which does not know the task's factory waits for it:
                    // what it meets of that resolution is async, which it could not build anyway.
                    let synchronousBelowAsync = isAsync && program.service(key).map { !$0.isAsync } ?? false
                    let below = Resolution(enclosing: synchronousBelowAsync ? [] : resolution.enclosing + [(onPath, resolution, world)])
                    built.append(try resolve(Registration(key: key, name: nil), in: root, scope: nil, awaiting: isAsync, below: below))
                case .wrapped(let alias):
                    // A wrapper of the instance being built joins its resolution.
                    guard let implementing = self.registration(implementing: alias) else { throw unimplemented(alias) }
                    built.append(try resolved(implementing, awaiting: false))
                }
            }
            node = ModelNode(label: label, dependencies: built)
            node.failsShutdown = service.failsShutdown
        }
        built(node)
        let factoryNode = node
        // Its hooks: now, once no factory runs below (after those that waited), else later.
        let outermost = isAsync || !path.contains(where: \.running)
        let hook = hook(of: registration, change: change)
        let returned = path + [Step(registration: registration, running: false)]
        var waits = false
        if outermost {
            try runWaitingHooks(resolution, returned: registration, factoryNode, in: world, scope: scope, path: returned)
            if let hook { try runHook(hook, of: registration, factoryNode, in: world, scope: scope, resolution: resolution, path: returned) }
        } else if hook != nil {
            resolution.waiting.append((registration, factoryNode, nil, []))
            waits = true
        }
        // An override's factory is the child's, without the service's shutdown hook; each
        // decorator's has one.
        var layers = node.label.hasPrefix("override:") ? [] : [node]
        for index in 0..<decorators(of: registration) {
            node = ModelNode(label: "\(registration.key)+\(index)", dependencies: [node])
            built(node)
            layers.append(node)
        }
        switch scopeKind {
        case .singleton, .cached, .shared, .session, .scoped:
            // Kept once the hooks waiting in its resolution ran, when some do below a factory.
            if waits, let index = resolution.waiting.lastIndex(where: { $0.registration == registration }) {
                resolution.waiting[index].kept = node
                resolution.waiting[index].layers = layers
            } else if !resolution.waiting.isEmpty, path.contains(where: \.running) {
                resolution.waiting.append((registration, factoryNode, node, layers))
            } else {
                keep(node, of: registration, layers: layers, in: world, scope: scope)
            }
        case .graph:
            resolution.graph[registration] = node
        case .unique:
            break
        }
        return node
    }

    /// Keeps `node` where `registration`'s scope keeps it, with the hooks of its `layers`.
    private func keep(_ node: ModelNode, of registration: Registration, layers: [ModelNode], in world: World, scope: Scope?) {
        if self.scope(of: registration) == .scoped {
            scope?.kept[registration] = (node, nil)
            scope?.hooks += layers.map { (registration, $0) }
        } else {
            world.kept[registration] = (node, ttl(of: registration).map { now + $0 })
            world.hooks += layers.map { (registration, $0) }
        }
    }

    /// Counts `node`, built by the operation running.
    func built(_ node: ModelNode) {
        node.operation = operation
        if concurrent { concurrentCounts[node.label, default: 0] += 1 } else { counts[node.label, default: 0] += 1 }
    }

    /// What a child adds, as a registration.
    static let added = Registration(key: "ModelAdded", name: nil)

    /// Builds what the nearest container that adds a ``ModelAdded`` adds (or finds it where
    /// `world` keeps it): its factory resolves the key it was given, in code.
    private func buildAdded(in world: World, scope: Scope?, resolution: Resolution, path: [Step]) throws(Failure) -> ModelNode {
        guard let key = adding(in: world)?.adds else { throw Failure(kind: "unknownService", service: nil) }
        if let kept = world.kept[Self.added] { return kept.node }
        let dependency = try build(Registration(key: key, name: nil), in: world, scope: scope, resolution: resolution,
                                   path: path + [Step(registration: Self.added, running: true)], awaiting: false)
        let node = ModelAdded(label: "added", dependencies: [dependency])
        built(node)
        if !path.contains(where: \.running) {
            try runWaitingHooks(resolution, returned: Self.added, node, in: world, scope: scope, path: path + [Step(registration: Self.added, running: false)])
        }
        world.kept[Self.added] = (node, nil)
        return node
    }

    /// Runs the hook of `registration`'s `node`, which resolves `key` in this resolution, while
    /// a resolve that comes back to `node` gets it.
    private func runHook(_ key: String, of registration: Registration, _ node: ModelNode, in world: World, scope: Scope?,
                         resolution: Resolution, path: [Step]) throws(Failure) {
        resolution.partial.append((registration, node))
        defer { resolution.partial.removeLast() }
        node.hooked = try build(Registration(key: key, name: nil), in: world, scope: scope, resolution: resolution, path: path, awaiting: false)
    }

    /// Runs the hooks that waited, in build order, while `returned`'s `node` (the outermost
    /// factory's, which returned) is handed back too; keeps what waited for them. A hook that
    /// fails gives up what still waits.
    private func runWaitingHooks(_ resolution: Resolution, returned registration: Registration, _ node: ModelNode, in world: World,
                                 scope: Scope?, path: [Step]) throws(Failure) {
        guard !resolution.waiting.isEmpty else { return }
        resolution.partial.append((registration, node))
        defer { resolution.partial.removeLast() }
        while !resolution.waiting.isEmpty {
            let next = resolution.waiting.removeFirst()
            do throws(Failure) {
                if let hook = hook(of: next.registration, change: nil), !next.node.label.hasPrefix("override:") {
                    try runHook(hook, of: next.registration, next.node, in: world, scope: scope, resolution: resolution, path: path)
                }
            } catch {
                resolution.waiting = []
                throw error
            }
            if let kept = next.kept { keep(kept, of: next.registration, layers: next.layers, in: world, scope: scope) }
        }
    }
}
