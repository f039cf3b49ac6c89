/// What a child container resolves differently from the container built from the manifest
/// (its root): the registrations it resolves instead of the root's, the services it adds, and
/// the targets that hold either.
///
/// A child shares its root's bound table (targets, registrations, reference tables, tags) and
/// lays this over it, so that making one costs what its overrides cost, not what the manifest
/// does. Everything that reaches a registration goes through the lineage: a type's or key's
/// target (``target(_:in:)``), a `!service` argument's registration (``Substitutes``), a tag's
/// services. Substitutions are composed along the lineage: a grandchild's hold its parent's,
/// each keyed by the root's registration it replaces. Making one walks the overridden
/// services' targets and the targets of types that several services implement (which hold
/// registrations of several services), never the services themselves.
final class Lineage: Sendable {
    /// The container this one is a child of.
    let parent: Container
    /// The child's number among its parent's children.
    let number: Int
    /// What the child resolves instead of each root registration it replaces.
    let substitutes: Substitutes
    /// The same, by the replaced registration, for a child of this child to start from.
    let replaced: [ObjectIdentifier: (original: Registration, replacement: Registration)]
    /// For each replacement, the root registration it replaces.
    private let originals: [ObjectIdentifier: Registration]
    /// The replacements that hand out an ancestor's instance (shares), along the lineage.
    let sharing: Set<ObjectIdentifier>
    /// The root targets that hold a replaced registration, with the replacement in its place.
    private let targets: [ObjectIdentifier: ResolutionTarget]
    /// The services added by code, by key (the type's name, qualified and plain).
    let added: [String: ResolutionTarget]
    /// The added services' registrations, in the order they were added along the lineage.
    let addedRegistrations: [Registration]

    init(parent: Container, number: Int, substitutes: [ObjectIdentifier: (original: Registration, replacement: Registration)],
         sharing: Set<ObjectIdentifier>, added: [String: ResolutionTarget], addedRegistrations: [Registration]) {
        self.parent = parent
        self.sharing = sharing
        self.number = number
        self.substitutes = Substitutes(substitutes.values.map { ($0.original, $0.replacement) })
        replaced = substitutes
        var originals: [ObjectIdentifier: Registration] = [:]
        for (original, replacement) in substitutes.values { originals[ObjectIdentifier(replacement)] = original }
        self.originals = originals
        self.added = added
        self.addedRegistrations = addedRegistrations
        // The targets that hold a replaced registration: the service's own (which its decorators
        // and its single `implements` types share), and the gathered targets of types several
        // services implement.
        var replacedTargets: [ObjectIdentifier: ResolutionTarget] = [:]
        let map = parent.targets
        let replaced = self.substitutes
        func replace(_ target: ResolutionTarget) {
            guard replacedTargets[ObjectIdentifier(target)] == nil else { return }
            var changed = false
            func swapped(_ registration: Registration) -> Registration {
                let substitute = replaced.substitute(registration)
                if substitute !== registration { changed = true }
                return substitute
            }
            let unnamed = target.unnamed.map(swapped)
            let named = target.named.mapValues(swapped)
            guard changed else { return }
            replacedTargets[ObjectIdentifier(target)] = ResolutionTarget(serviceKey: target.serviceKey, unnamed: unnamed, named: named)
        }
        for (original, _) in substitutes.values {
            if let target = map[original.key] { replace(target) }
        }
        if !substitutes.isEmpty {
            for target in map.gatheredTargets { replace(target) }
        }
        targets = replacedTargets
    }

    /// The target `key` names in this child: the root's, with replacements in, or an added
    /// service's.
    @inline(__always)
    func target(_ key: String, in map: TargetMap) -> ResolutionTarget? {
        guard let found = map[key] else { return added[key] }
        if targets.isEmpty { return found }
        return targets[ObjectIdentifier(found)] ?? found
    }

    /// The root registration `replacement` replaces; `registration` itself when it replaces
    /// none.
    func original(of registration: Registration) -> Registration {
        originals[ObjectIdentifier(registration)] ?? registration
    }

    /// Every registration the child resolves: the root's, each replaced where the child
    /// replaces it, then the added ones.
    func registrations(over root: [Registration]) -> [Registration] {
        (substitutes.isEmpty ? root : root.map { substitutes.substitute($0) }) + addedRegistrations
    }
}
