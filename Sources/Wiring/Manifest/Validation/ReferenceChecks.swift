/// The checks of the object graph a manifest declares with `!service` and `!tagged`: a
/// reference to an unknown service or name, to a service a context switched off, a cycle of
/// references, a captive dependency, and a tag no service has. Each at its position.
///
/// The references are visited where the manifest keeps them, and nothing is spelled for those
/// that are fine: no ``DeclaredReference``, no argument path (``ArgumentPath``), no array of
/// edges per service, and each service's lifetime worked out once: for 10,000 services that
/// each refer to the next, these checks take half the instructions they took when they
/// gathered ``Manifest/declaredReferences`` first.
package struct ReferenceChecks {
    let manifest: Manifest

    package init(manifest: Manifest) {
        self.manifest = manifest
    }

    package func diagnostics() -> [Diagnostic] {
        var walk = Walk(checks: self)
        manifest.forEachDeclaredReference { walk.visit(owner: $0, name: $1, target: $2, argument: $3) }
        let edges = Edges(owners: walk.owners, targets: walk.targets, services: manifest.services.count)
        return walk.diagnostics + cycles(in: edges, locations: walk.locations)
    }

    /// What the checks gather, reference after reference.
    private struct Walk {
        let checks: ReferenceChecks
        var diagnostics: [Diagnostic] = []
        /// By reference, in manifest order: its owner's position (a service's references are
        /// next to each other), the service it leads to (-1 for none), and where it was written.
        var owners: [Int] = [], targets: [Int] = [], locations: [SourceLocation] = []
        /// The lifetime of each service's own scope, worked out once for all the references
        /// to it (-1 until then).
        private var ranks: [Int8]
        /// Every tag services have, gathered at the first `!tagged` reference.
        private var tags: Set<String>?

        init(checks: ReferenceChecks) {
            self.checks = checks
            ranks = Array(repeating: -1, count: checks.manifest.services.count)
        }

        mutating func visit(owner: Int, name ownerName: String?, target: DeclaredReference.Target, argument: ArgumentPath) {
            owners.append(owner)
            targets.append(-1)
            locations.append(target.location)
            // Made only for a message: most references have none.
            var what: String { "\(argument.noun) '\(argument)' of service '\(checks.manifest.services[owner].key)'" }
            switch target {
            case .tagged(let tag, let location):
                let known = tags ?? checks.allTags()
                tags = known
                // An empty tag was reported as an error where it is written.
                if !tag.isEmpty, !known.contains(tag) {
                    diagnostics.append(.warning("\(what) reads the services tagged '\(tag)', but no service has that tag\(Suggestion.hint(for: tag, in: known))", at: location))
                }
            case .service(let target):
                guard let position = checks.manifest.serviceIndex(of: target.service) else {
                    if let off = checks.manifest.switchedOff[target.service] {
                        diagnostics.append(.error(
                            "\(what) refers to service '\(target.service)', which is switched off in context '\(off.value)' (\(off.location))",
                            at: target.location))
                    } else if argument.isAutowired, let names = checks.namesOnly(of: target.service) {
                        diagnostics.append(.error(
                            "\(what) resolves the type without a name, but services list it only under names (\(names.joined(separator: ", ")))",
                            at: target.location))
                    } else if !argument.isAutowired, let implementers = checks.implementers(of: target.service) {
                        diagnostics.append(.error(
                            "\(what) refers to '\(target.service)', a type implemented by \(implementers); "
                                + "!service names a service's key, not a type it implements",
                            at: target.location))
                    } else {
                        // An autowired parameter names a type, which a service's `implements` may give.
                        let known = checks.manifest.services.lazy.map(\.key)
                        let types = argument.isAutowired ? checks.manifest.services.flatMap { $0.implements.map(\.type) } : []
                        diagnostics.append(.error(
                            "\(what) refers to unknown service '\(target.service)'\(Suggestion.hint(for: target.service, in: Array(known) + types))",
                            at: target.location))
                    }
                    return
                }
                // An empty name was reported as an error where it is written.
                if let name = target.name, !name.isEmpty, checks.manifest.services[position].variant(named: name) == nil {
                    let names = checks.manifest.services[position].names.map(\.name)
                    let list = names.isEmpty ? "it has no named variants" : "its names: " + names.joined(separator: ", ")
                    diagnostics.append(.error(
                        "\(what) refers to variant '\(name)' of service '\(target.service)', which it does not declare\(Suggestion.hint(for: name, in: names)) (\(list))",
                        at: target.location))
                    return
                }
                targets[targets.count - 1] = position
                let held = rank(of: owner, name: ownerName)
                let holds = rank(of: position, name: target.name)
                // Only an instance kept beyond one resolution can hold another captive.
                if held >= 2, holds < held {
                    diagnostics.append(checks.captive(owner: owner, name: ownerName, of: target, at: position, argument: argument))
                }
            }
        }

        /// How long the instance of the service at `position`, or of its variant `name`,
        /// lives (see ``Scope/lifetimeRank(expires:)``).
        private mutating func rank(of position: Int, name: String?) -> Int {
            if name == nil, ranks[position] >= 0 { return Int(ranks[position]) }
            let (scope, expires) = checks.scope(of: position, name: name)
            let rank = scope.lifetimeRank(expires: expires)
            if name == nil { ranks[position] = Int8(rank) }
            return rank
        }
    }

    /// The names services list `type` under in their `implements`, sorted; `nil` when no
    /// service lists it under a name. Asked of a type no service provides without a name.
    private func namesOnly(of type: String) -> [String]? {
        let names = Set(manifest.services.lazy.flatMap(\.implements).filter { $0.type == type }.compactMap(\.name))
        return names.isEmpty ? nil : names.sorted()
    }

    /// The services whose `implements` lists `type`, for a message (`'A'`, `'A' and 'B'`, or
    /// `'A', 'B' and 2 more`); `nil` when none does.
    private func implementers(of type: String) -> String? {
        let keys = manifest.services.filter { $0.implements.contains { $0.type == type } }.map { "'\($0.key)'" }
        switch keys.count {
        case 0: return nil
        case 1: return keys[0]
        case 2: return "\(keys[0]) and \(keys[1])"
        default: return "\(keys[0]), \(keys[1]) and \(keys.count - 2) more"
        }
    }

    /// Every tag that services and their named variants have.
    private func allTags() -> Set<String> {
        var tags: Set<String> = []
        for service in manifest.services {
            for tag in service.tags ?? [] { tags.insert(tag.value) }
            for variant in service.names { for tag in variant.tags ?? [] { tags.insert(tag.value) } }
        }
        return tags
    }

    // MARK: - Captive dependencies

    /// The scope of the service at `position`, or of its variant `name`, and whether its
    /// instances expire.
    private func scope(of position: Int, name: String?) -> (scope: Scope, expires: Bool) {
        let service = manifest.services[position]
        var scope = manifest.effectiveScope(of: service)
        var expires = service.timeToLive != nil
        if let name, let variant = service.variant(named: name) {
            scope = variant.scope?.value ?? scope
            expires = expires || variant.timeToLive != nil
        }
        // A time-to-live changes the lifetime of a cached or custom scope only.
        if !expires, scope.takesTimeToLive {
            expires = manifest.customScopes.first { $0.name == scope.name }?.timeToLive != nil
        }
        return (scope, expires)
    }

    /// The warning for an owner that keeps its instance longer than the instance it refers
    /// to, the service at `position`.
    private func captive(owner: Int, name: String?, of target: ServiceReference, at position: Int, argument: ArgumentPath) -> Diagnostic {
        let held = scope(of: owner, name: name).scope
        let holds = scope(of: position, name: target.name).scope
        let key = manifest.services[owner].key
        let ownerShown = shownService(key, name: name)
        return .warning(
            "captive dependency: \(ownerShown) (\(held)) → \(target) (\(holds)) through \(argument.noun) '\(argument)': the \(held) instance would keep one \(target.service) for longer than its scope",
            at: target.location)
    }

    // MARK: - Cycles

    /// The references that lead to a declared service, by their owner's position: a
    /// service's references are next to each other, so each one's are a range of them, and no
    /// service needs an array of its own.
    private struct Edges {
        /// Where each service's references start; one more, past the last.
        private let starts: [Int]
        /// The service each reference leads to, -1 for none.
        private let targets: [Int]

        init(owners: [Int], targets: [Int], services: Int) {
            var starts = [Int](repeating: 0, count: services + 1)
            for owner in owners { starts[owner + 1] += 1 }
            for position in 0..<services { starts[position + 1] += starts[position] }
            self.starts = starts
            self.targets = targets
        }

        var services: Range<Int> { 0..<starts.count - 1 }

        /// The references of the service at `position`.
        func references(of position: Int) -> Range<Int> { starts[position]..<starts[position + 1] }

        /// The service `reference` leads to, if it leads to one.
        func target(of reference: Int) -> Int? { targets[reference] < 0 ? nil : targets[reference] }
    }

    /// Each cycle of declared references, once, with every edge's position, reported at its
    /// first edge. An iterative depth-first walk: linear in services and references.
    private func cycles(in edges: Edges, locations: [SourceLocation]) -> [Diagnostic] {
        // 0: not seen; 1: on the walk's path; 2: done.
        var marks = [UInt8](repeating: 0, count: edges.services.count)
        var diagnostics: [Diagnostic] = []
        var reported: Set<[Int]> = []
        for start in edges.services where marks[start] == 0 && !edges.references(of: start).isEmpty {
            // The path: each node with the next of its references to follow, and the edge
            // taken to it.
            var path: [(node: Int, next: Int, via: Int)] = [(start, edges.references(of: start).lowerBound, -1)]
            marks[start] = 1
            while let top = path.last {
                guard top.next < edges.references(of: top.node).upperBound else {
                    marks[top.node] = 2
                    path.removeLast()
                    continue
                }
                path[path.count - 1].next += 1
                let reference = top.next
                guard let target = edges.target(of: reference) else { continue }
                let location = { (edge: Int) in locations[edge] }
                switch marks[target] {
                case 1:
                    guard let from = path.lastIndex(where: { $0.node == target }) else { continue }
                    let cycle = Array(path[from...])
                    guard reported.insert(cycle.map(\.node).sorted()).inserted else { continue }
                    let key = { (node: Int) in self.manifest.services[node].key }
                    let steps = cycle.dropFirst().map { "\(key($0.node)) (\(location($0.via)))" } + ["\(key(target)) (\(location(reference)))"]
                    let first = location(cycle.count > 1 ? cycle[1].via : reference)
                    diagnostics.append(.error(
                        "circular dependency through declared references: " + ([key(target)] + steps).joined(separator: " → "),
                        at: first))
                case 2:
                    continue
                default:
                    marks[target] = 1
                    path.append((target, edges.references(of: target).lowerBound, reference))
                }
            }
        }
        return diagnostics
    }
}
