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
/// - A child resolves what it overrides with its own factory (in the service's scope), what it
///   shares from its parent (a resolve of the parent's, each time), and everything else as its
///   parent declares it (a grandchild inherits its parent's overrides and shares), keeping its
///   own instances.
final class ReferenceModel {
    struct Registration: Hashable {
        let key: String
        let name: String?
        var label: String { name.map { "\(key)[\($0)]" } ?? key }
    }

    /// A container: the root or a child.
    final class World {
        let parent: World?
        let overrides: Set<String>
        let shares: Set<String>
        /// Kept instances, each with the time it expires at, if it does.
        var kept: [Registration: (node: ModelNode, expires: Int?)] = [:]
        /// Kept instances in the order built, for the shutdown hooks.
        var hooks: [ModelNode] = []
        var children: [World] = []
        var isShutDown = false

        init(parent: World?, overrides: Set<String> = [], shares: Set<String> = []) {
            self.parent = parent
            self.overrides = overrides
            self.shares = shares
        }
    }

    final class Scope {
        var kept: [Registration: (node: ModelNode, expires: Int?)] = [:]
        var hooks: [ModelNode] = []
        var ended = false
    }

    struct Failure: Error {
        let kind: String
        let service: String?
    }

    let program: ModelProgram
    let root: World
    private(set) var counts: [String: Int] = [:]
    /// The clock, in seconds.
    var now = 0
    /// Whether a `start()` succeeded.
    var started = false

    init(_ program: ModelProgram) {
        self.program = program
        root = World(parent: nil)
    }

    // MARK: - Declarations

    func scope(of registration: Registration) -> ModelProgram.Scope {
        let service = program.service(registration.key)!
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
        var ordered = written.filter { if case .reference = $0 { true } else { false } }
        ordered += written.filter { if case .tagged = $0 { true } else { false } }
        ordered += written.filter { if case .inCode = $0 { true } else { false } }
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

    func change(of key: String, in world: World) -> Change? {
        var next: World? = world
        while let current = next, let parent = current.parent {
            if current.shares.contains(key) { return .share(from: parent) }
            if current.overrides.contains(key) { return .override }
            next = parent
        }
        return nil
    }

    /// Every service and variant with `tag`, in manifest order.
    func tagged(_ tag: String) -> [Registration] {
        program.services.filter { $0.tags.contains(tag) }.map { Registration(key: $0.key, name: nil) }
    }

    func registration(implementing alias: Int) -> Registration? {
        program.services.first { $0.aliases.contains(alias) }.map { Registration(key: $0.key, name: nil) }
    }

    // MARK: - Resolving

    /// A top-level resolve of `registration` in `world`, from `scope` when given, with `await`
    /// when `awaiting`.
    func resolve(_ registration: Registration, in world: World, scope: Scope?, awaiting: Bool = false,
                 arguments: [ModelProgram.Argument] = []) throws(Failure) -> ModelNode {
        if world.isShutDown { throw Failure(kind: "shutDown", service: nil) }
        var graph: [Registration: ModelNode] = [:]
        return try build(registration, in: world, scope: scope, graph: &graph, path: [], awaiting: awaiting, arguments: arguments)
    }

    /// Builds `registration` (or finds it where it is kept) for a resolve that awaits when
    /// `awaiting`: what an async factory asks for, or an awaited resolve. A synchronous one of
    /// an async factory's service, not built yet, is an error; what an async factory's service
    /// asks for is awaited, except through a property wrapper, which cannot await.
    private func build(_ registration: Registration, in world: World, scope: Scope?, graph: inout [Registration: ModelNode],
                       path: [Registration], awaiting: Bool, arguments: [ModelProgram.Argument] = []) throws(Failure) -> ModelNode {
        if path.contains(registration) { throw Failure(kind: "circularDependency", service: registration.label) }
        // A share: the instance of the parent of the child that shares it, by a resolve of
        // that parent's own.
        let change = registration.name == nil ? self.change(of: registration.key, in: world) : nil
        if case .share(let parent)? = change {
            return try resolve(registration, in: parent, scope: nil, awaiting: awaiting, arguments: arguments)
        }
        let scopeKind = self.scope(of: registration)
        switch scopeKind {
        case .singleton, .cached, .shared, .session:
            if let kept = world.kept[registration], kept.expires.map({ now < $0 }) ?? true { return kept.node }
        case .scoped:
            guard let scope, !path.contains(where: { self.scope(of: $0).keeps }) else {
                throw Failure(kind: "scopeRequired", service: registration.label)
            }
            if scope.ended { throw Failure(kind: "shutDown", service: registration.label) }
            if let kept = scope.kept[registration] { return kept.node }
        case .graph:
            if let built = graph[registration] { return built }
        case .unique:
            break
        }
        // A child's override is its own synchronous factory.
        let isAsync: Bool = if case .override? = change { false } else { program.service(registration.key)!.isAsync }
        if isAsync, !awaiting { throw Failure(kind: "awaitRequired", service: registration.label) }
        var node: ModelNode
        if case .override? = change {
            node = ModelNode(label: "override:\(registration.key)", dependencies: [])
        } else {
            // A runtime argument, read first; a dependency is resolved with none.
            var label = registration.label
            if program.service(registration.key)!.takesArgument {
                guard let first = arguments.first else { throw Failure(kind: "argument missing", service: registration.label) }
                guard case .number(let value) = first else { throw Failure(kind: "argument type", service: registration.label) }
                label += "#\(value)"
            }
            var built: [ModelNode] = []
            let onPath = path + [registration]
            for dependency in dependencies(of: registration) {
                switch dependency {
                case .reference(let key, let name):
                    built.append(try build(Registration(key: key, name: name), in: world, scope: scope, graph: &graph, path: onPath, awaiting: isAsync))
                case .tagged(let tag):
                    for member in tagged(tag) { built.append(try build(member, in: world, scope: scope, graph: &graph, path: onPath, awaiting: isAsync)) }
                case .inCode(let key), .typed(let key):
                    built.append(try build(Registration(key: key, name: nil), in: world, scope: scope, graph: &graph, path: onPath, awaiting: isAsync))
                case .wrapped(let alias):
                    // A wrapper of the instance being built joins its resolution.
                    guard let implementing = self.registration(implementing: alias) else { throw Failure(kind: "unknownService", service: nil) }
                    built.append(try build(implementing, in: world, scope: scope, graph: &graph, path: onPath, awaiting: false))
                }
            }
            node = ModelNode(label: label, dependencies: built)
        }
        counts[node.label, default: 0] += 1
        // An override's factory is the child's, without the service's shutdown hook; each
        // decorator's has one.
        var layers = node.label.hasPrefix("override:") ? [] : [node]
        for index in 0..<decorators(of: registration) {
            node = ModelNode(label: "\(registration.key)+\(index)", dependencies: [node])
            counts[node.label, default: 0] += 1
            layers.append(node)
        }
        switch scopeKind {
        case .singleton, .cached, .shared, .session:
            world.kept[registration] = (node, ttl(of: registration).map { now + $0 })
            world.hooks += layers
        case .scoped:
            scope?.kept[registration] = (node, nil)
            scope?.hooks += layers
        case .graph:
            graph[registration] = node
        case .unique:
            break
        }
        return node
    }

    // MARK: - Lifecycle

    /// Drops kept instances (of `key` only, when given); their hooks still run at shutdown.
    func reset(_ world: World, key: String? = nil) {
        world.kept = world.kept.filter { key != nil && $0.key.key != key }
    }

    /// Drops the kept instances of the registrations in `kind`.
    func reset(_ world: World, scope kind: ModelProgram.Scope) {
        world.kept = world.kept.filter { scope(of: $0.key) != kind }
    }

    /// `start()`: each `eager` service resolved once, in manifest order; whether all were
    /// built, and the instances whose hooks ran. A start that fails shuts down every instance
    /// the container keeps (the last built first), drops them, and may be tried again; once one
    /// succeeded, a start does nothing; once shut down, it fails.
    func start() -> (succeeded: Bool, hooks: [ModelNode]) {
        if root.isShutDown { return (false, []) }
        if started { return (true, []) }
        var succeeded = true
        for service in program.services where service.eager {
            do throws(Failure) {
                _ = try resolve(Registration(key: service.key, name: nil), in: root, scope: nil, awaiting: true)
            } catch {
                succeeded = false
            }
        }
        guard !succeeded else {
            started = true
            return (true, [])
        }
        defer {
            root.hooks = []
            root.kept = [:]
        }
        return (false, root.hooks.reversed())
    }

    /// Shuts `world` down: its live children first, the most recent first, then its kept
    /// instances' hooks, the last built first. Returns the instances whose hooks ran.
    func shutDown(_ world: World) -> [ModelNode] {
        guard !world.isShutDown else { return [] }
        world.isShutDown = true
        var ran: [ModelNode] = []
        for child in world.children.reversed() { ran += shutDown(child) }
        world.children = []
        ran += world.hooks.reversed()
        world.hooks = []
        world.kept = [:]
        return ran
    }

    /// Ends `scope`: its instances' hooks, the last built first.
    func end(_ scope: Scope) -> [ModelNode] {
        guard !scope.ended else { return [] }
        scope.ended = true
        defer { scope.hooks = []; scope.kept = [:] }
        return scope.hooks.reversed()
    }

    /// Whether a child sharing `shares` and overriding `overrides` is refused: a shared service
    /// that is scoped, or whose declared references reach an overridden one (the parent's
    /// instance would hold the parent's).
    func refusesChild(overrides: Set<String>, shares: Set<String>) -> Bool {
        for key in shares {
            if scope(of: Registration(key: key, name: nil)) == .scoped { return true }
            var pending = [Registration(key: key, name: nil)]
            var seen: Set<Registration> = []
            while let next = pending.popLast() {
                guard seen.insert(next).inserted else { continue }
                for dependency in dependencies(of: next) {
                    switch dependency {
                    case .reference(let key, let name):
                        if name == nil, overrides.contains(key) { return true }
                        pending.append(Registration(key: key, name: name))
                    case .tagged(let tag):
                        for member in tagged(tag) {
                            if overrides.contains(member.key) { return true }
                            pending.append(member)
                        }
                    case .inCode, .typed, .wrapped:
                        break
                    }
                }
            }
        }
        return false
    }
}
