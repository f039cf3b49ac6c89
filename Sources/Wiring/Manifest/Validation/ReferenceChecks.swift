/// The checks of the object graph a manifest declares with `!service` and `!tagged`: a
/// reference to an unknown service or name, to a service a context switched off, a cycle of
/// references, a captive dependency, and a tag no service has. Each at its position.
package struct ReferenceChecks {
    let manifest: Manifest

    package init(manifest: Manifest) {
        self.manifest = manifest
    }

    package func diagnostics() -> [Diagnostic] {
        let references = manifest.declaredReferences
        guard !references.isEmpty else { return [] }
        var diagnostics: [Diagnostic] = []
        // By service position: the references each makes that lead to a declared service.
        var edges = [[(target: Int, reference: Int)]](repeating: [], count: manifest.services.count)
        var tags: Set<String> = []
        for service in manifest.services {
            for tag in service.tags ?? [] { tags.insert(tag.value) }
            for variant in service.names { for tag in variant.tags ?? [] { tags.insert(tag.value) } }
        }
        for (offset, reference) in references.enumerated() {
            // Made only for a message: most references have none.
            var what: String { "argument '\(reference.argument)' of service '\(reference.owner)'" }
            switch reference.target {
            case .tagged(let tag, let location):
                if !tags.contains(tag) {
                    diagnostics.append(.warning("\(what) reads the services tagged '\(tag)', but no service has that tag\(Suggestion.hint(for: tag, in: tags))", at: location))
                }
            case .service(let target):
                guard let position = manifest.serviceIndex(of: target.service) else {
                    if let off = manifest.switchedOff[target.service] {
                        diagnostics.append(.error(
                            "\(what) refers to service '\(target.service)', which is switched off in context '\(off.value)' (\(off.location))",
                            at: target.location))
                    } else {
                        diagnostics.append(.error(
                            "\(what) refers to unknown service '\(target.service)'\(Suggestion.hint(for: target.service, in: manifest.services.lazy.map(\.key)))",
                            at: target.location))
                    }
                    continue
                }
                let service = manifest.services[position]
                if let name = target.name, service.variant(named: name) == nil {
                    let names = service.names.map(\.name)
                    let list = names.isEmpty ? "it has no named variants" : "its names: " + names.joined(separator: ", ")
                    diagnostics.append(.error(
                        "\(what) refers to variant '\(name)' of service '\(target.service)', which it does not declare\(Suggestion.hint(for: name, in: names)) (\(list))",
                        at: target.location))
                    continue
                }
                edges[reference.ownerIndex].append((position, offset))
                if let captive = captive(reference, of: target, owner: manifest.services[reference.ownerIndex], referenced: service) {
                    diagnostics.append(captive)
                }
            }
        }
        diagnostics += cycles(in: edges, references: references)
        return diagnostics
    }

    // MARK: - Captive dependencies

    /// How long an instance of a scope lives, shortest first: `unique` < `graph` < `scoped` <
    /// `shared` and any scope with a time-to-live < `cached` and custom scopes without one <
    /// `singleton`.
    static func lifetime(of scope: Scope, expires: Bool) -> Int {
        switch scope.builtInKind {
        case .unique: 0
        case .graph: 1
        case .scoped: 2
        case .shared: 3
        case .cached, nil: expires ? 3 : 4
        case .singleton: 5
        }
    }

    private func lifetime(of service: ServiceDefinition, name: String?) -> (scope: Scope, rank: Int) {
        let variant = name.flatMap { service.variant(named: $0) }
        let scope = variant?.scope?.value ?? manifest.effectiveScope(of: service)
        let custom = manifest.customScopes.first { $0.name == scope.name }
        let expires = (variant?.timeToLive ?? service.timeToLive ?? custom?.timeToLive) != nil
        return (scope, Self.lifetime(of: scope, expires: expires))
    }

    /// A warning when the owner keeps its instance longer than the instance it refers to.
    private func captive(
        _ reference: DeclaredReference, of target: ServiceReference, owner: ServiceDefinition, referenced: ServiceDefinition
    ) -> Diagnostic? {
        let held = lifetime(of: owner, name: reference.ownerName)
        let holds = lifetime(of: referenced, name: target.name)
        // Only an instance kept beyond one resolution can hold another captive.
        guard held.rank >= 2, holds.rank < held.rank else { return nil }
        let ownerShown = reference.ownerName.map { "\(reference.owner)[\($0)]" } ?? reference.owner
        return .warning(
            "captive dependency: \(ownerShown) (\(held.scope)) → \(target) (\(holds.scope)) through argument '\(reference.argument)': the \(held.scope) instance would keep one \(target.service) for longer than its scope",
            at: target.location)
    }

    // MARK: - Cycles

    /// Each cycle of declared references, once, with every edge's position, reported at its
    /// first edge. An iterative depth-first walk: linear in services and references.
    private func cycles(in edges: [[(target: Int, reference: Int)]], references: [DeclaredReference]) -> [Diagnostic] {
        // 0: not seen; 1: on the walk's path; 2: done.
        var marks = [UInt8](repeating: 0, count: edges.count)
        var diagnostics: [Diagnostic] = []
        var reported: Set<[Int]> = []
        for start in edges.indices where marks[start] == 0 && !edges[start].isEmpty {
            // The path: each node with the index of the next edge to follow, and the edge taken to it.
            var path: [(node: Int, next: Int, via: Int)] = [(start, 0, -1)]
            marks[start] = 1
            while let top = path.last {
                let outgoing = edges[top.node]
                guard top.next < outgoing.count else {
                    marks[top.node] = 2
                    path.removeLast()
                    continue
                }
                path[path.count - 1].next += 1
                let (target, reference) = outgoing[top.next]
                let location = { (edge: Int) in references[edge].location }
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
                    path.append((target, 0, reference))
                }
            }
        }
        return diagnostics
    }
}
