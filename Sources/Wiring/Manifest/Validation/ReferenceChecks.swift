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
        var edges: [String: [(target: String, reference: DeclaredReference)]] = [:]
        var tags: Set<String> = []
        for service in manifest.services {
            for tag in service.tags ?? [] { tags.insert(tag.value) }
            for variant in service.names { for tag in variant.tags ?? [] { tags.insert(tag.value) } }
        }
        for reference in references {
            let what = "argument '\(reference.argument)' of service '\(reference.owner)'"
            switch reference.target {
            case .tagged(let tag, let location):
                if !tags.contains(tag) {
                    diagnostics.append(.warning("\(what) reads the services tagged '\(tag)', but no service has that tag\(Suggestion.hint(for: tag, in: tags))", at: location))
                }
            case .service(let target):
                guard let service = manifest.service(target.service) else {
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
                if let name = target.name, service.variant(named: name) == nil {
                    let names = service.names.map(\.name)
                    let list = names.isEmpty ? "it has no named variants" : "its names: " + names.joined(separator: ", ")
                    diagnostics.append(.error(
                        "\(what) refers to variant '\(name)' of service '\(target.service)', which it does not declare\(Suggestion.hint(for: name, in: names)) (\(list))",
                        at: target.location))
                    continue
                }
                edges[reference.owner, default: []].append((target.service, reference))
                if let captive = captive(reference, of: target) { diagnostics.append(captive) }
            }
        }
        diagnostics += cycles(in: edges)
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
    private func captive(_ reference: DeclaredReference, of target: ServiceReference) -> Diagnostic? {
        guard let owner = manifest.service(reference.owner), let referenced = manifest.service(target.service) else { return nil }
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
    private func cycles(in edges: [String: [(target: String, reference: DeclaredReference)]]) -> [Diagnostic] {
        enum Mark { case onPath, done }
        var marks: [String: Mark] = [:]
        var diagnostics: [Diagnostic] = []
        var reported: Set<[String]> = []
        for start in manifest.services.map(\.key) where marks[start] == nil && edges[start] != nil {
            // The path: each node with the index of the next edge to follow, and the edge taken to it.
            var path: [(node: String, next: Int, via: DeclaredReference?)] = [(start, 0, nil)]
            marks[start] = .onPath
            while let top = path.last {
                let outgoing = edges[top.node] ?? []
                guard top.next < outgoing.count else {
                    marks[top.node] = .done
                    path.removeLast()
                    continue
                }
                path[path.count - 1].next += 1
                let (target, reference) = outgoing[top.next]
                switch marks[target] {
                case .onPath?:
                    guard let from = path.firstIndex(where: { $0.node == target }) else { continue }
                    let cycle = Array(path[from...])
                    let nodes = cycle.map(\.node)
                    let key = nodes.sorted()
                    guard reported.insert(key).inserted else { continue }
                    let steps = cycle.dropFirst().map { "\($0.node) (\($0.via!.location))" } + ["\(target) (\(reference.location))"]
                    let first = cycle.count > 1 ? cycle[1].via!.location : reference.location
                    diagnostics.append(.error(
                        "circular dependency through declared references: " + ([target] + steps).joined(separator: " → "),
                        at: first))
                case .done?:
                    continue
                case nil:
                    marks[target] = .onPath
                    path.append((target, 0, reference))
                }
            }
        }
        return diagnostics
    }
}
