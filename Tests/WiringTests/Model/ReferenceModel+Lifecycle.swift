/// The reference model's lifecycle: resets, `start()`, shutdowns (with the hooks that fail),
/// scopes ending, children refused, refreshes and reloads.
extension ReferenceModel {
    /// Drops kept instances (of `key` only, when given); their hooks still run at shutdown.
    func reset(_ world: World, key: String? = nil) {
        world.kept = world.kept.filter { key != nil && $0.key.key != key }
    }

    /// Drops the kept instances of the registrations in `kind`.
    func reset(_ world: World, scope kind: ModelProgram.Scope) {
        world.kept = world.kept.filter { scope(of: $0.key) != kind }
    }

    /// `start()` of `world` (the root unless given): each `eager` service resolved once, in
    /// manifest order; whether all were built, and the instances whose hooks ran. A start that
    /// fails shuts down every instance the container keeps (the last built first), drops them,
    /// and may be tried again; once one succeeded, a start does nothing; once shut down, it fails.
    func start(_ world: World? = nil) -> (succeeded: Bool, hooks: [ModelNode]) {
        let world = world ?? root
        if world.isShutDown { return (false, []) }
        if world.started { return (true, []) }
        var succeeded = true
        for service in program.services where service.eager {
            do throws(Failure) {
                _ = try resolve(Registration(key: service.key, name: nil), in: world, scope: nil, awaiting: true)
            } catch {
                succeeded = false
            }
        }
        guard !succeeded else {
            world.started = true
            return (true, [])
        }
        defer {
            world.hooks = []
            world.kept = [:]
        }
        return (false, world.hooks.reversed().map(\.node))
    }

    /// The registrations, as a shutdown failure names them (`S3`, `S3[eu]`), of the `hooks` that
    /// throw, in the order they ran.
    static func failures(_ hooks: [ModelNode]) -> [String] {
        hooks.filter(\.failsShutdown).map { ModelNode.registration(ofLabel: $0.label) }
    }

    /// Shuts `world` down: its live children first, the most recent first, then its kept
    /// instances' hooks, the last built first. Returns the instances whose hooks ran and the
    /// registrations whose hooks failed (of an earlier shutdown, when it was shut down already).
    func shutDown(_ world: World) -> (hooks: [ModelNode], failures: [String]) {
        guard !world.isShutDown else { return ([], world.shutdownFailures) }
        world.isShutDown = true
        var ran: [ModelNode] = []
        for child in world.children.reversed() { ran += shutDown(child).hooks }
        world.children = []
        ran += world.hooks.reversed().map(\.node)
        world.hooks = []
        world.kept = [:]
        world.shutdownFailures = Self.failures(ran)
        return (ran, world.shutdownFailures)
    }

    /// Ends `scope`: its instances' hooks, the last built first.
    func end(_ scope: Scope) -> [ModelNode] {
        guard !scope.ended else { return [] }
        scope.ended = true
        defer { scope.hooks = []; scope.kept = [:] }
        return scope.hooks.reversed().map(\.node)
    }

    /// Whether a child of `parent` sharing `shares` and overriding `overrides` is refused: a
    /// service it names that the manifest does not declare; a shared service that is scoped, or
    /// whose declared references reach an overridden one (the parent's instance would hold the
    /// parent's). An autowired factory's parameter is a declared reference while the parent
    /// builds that service with it: not once the parent (or an ancestor) overrides the service.
    func refusesChild(of parent: World, overrides: Set<String>, shares: Set<String>) -> Bool {
        for label in overrides {
            let key = ModelNode.key(ofLabel: label)
            guard let service = program.service(key), service.variants.contains(where: { label == "\(key)[\($0.name)]" }) || label == key
            else { return true }
        }
        if !shares.allSatisfy({ program.service($0) != nil }) { return true }
        for key in shares {
            if scope(of: Registration(key: key, name: nil)) == .scoped { return true }
            var pending = [Registration(key: key, name: nil)]
            var seen: Set<Registration> = []
            while let next = pending.popLast() {
                guard seen.insert(next).inserted else { continue }
                for dependency in dependencies(of: next) {
                    switch dependency {
                    case .reference(let key, let name):
                        let referenced = Registration(key: key, name: name)
                        if overrides.contains(referenced.label) { return true }
                        pending.append(referenced)
                    case .autowired(let key):
                        if case .override? = change(of: next, in: parent) { break }
                        if overrides.contains(key) { return true }
                        pending.append(Registration(key: key, name: nil))
                    case .tagged(let tag):
                        for member in tagged(tag) {
                            if overrides.contains(member.key) { return true }
                            pending.append(member)
                        }
                    case .inCode, .throughContainer, .typed, .wrapped:
                        break
                    }
                }
            }
        }
        return false
    }

    /// A refresh of the configuration key of `key` to `value`, seen by the container in force
    /// only once started (it watches the source from then on): the next builds read it; the
    /// instance it keeps (but a singleton's, which stays) is dropped and the hooks of every
    /// instance of the service it recorded run, the last built first; an eager one is built
    /// again. Returns the instances whose hooks ran, or `nil` when nothing watches.
    func refresh(_ key: String, to value: Int) -> [ModelNode]? {
        guard root.started, !root.isShutDown else { return nil }
        configuration[key] = value
        let registration = Registration(key: key, name: nil)
        let service = program.service(key)!
        guard [.cached, .shared, .session].contains(service.scope) else { return [] }
        root.kept[registration] = nil
        let dropped = root.hooks.filter { $0.registration == registration }.map(\.node)
        root.hooks.removeAll { $0.registration == registration }
        if service.eager { _ = try? resolve(registration, in: root, scope: nil, awaiting: true) }
        return dropped.reversed()
    }

    /// A reload: a container built from the manifest again and started; when it starts, it is
    /// put in force and the one before is shut down (its children first); when it does not,
    /// it is shut down and the one in force stays. Returns whether it was put in force, the
    /// instances whose hooks ran and the hooks of the retired container that failed; `nil` once
    /// shut down.
    func reload() -> (applied: Bool, hooks: [ModelNode], failures: [String])? {
        guard !root.isShutDown else { return nil }
        let fresh = World(parent: nil, generation: root.generation + 1)
        let (started, hooks) = start(fresh)
        guard started else {
            fresh.isShutDown = true
            return (false, hooks, [])
        }
        let retired = shutDown(root)
        root = fresh
        return (true, retired.hooks, retired.failures)
    }
}
