/// What a child container resolves differently from the container built from the manifest
/// (its root): the registrations it resolves instead of the root's, the services it adds, and
/// the targets that hold either.
///
/// A child shares its root's bound table (targets, registrations, reference tables, tags) and
/// lays this over it, so that making one costs what its overrides cost, not what the manifest
/// does. Everything that reaches a registration goes through the lineage: a type's or key's
/// target (``target(_:in:)``), a `!service` argument's registration (``substitute(_:)``), a
/// tag's services. Substitutions are composed along the lineage: a grandchild's hold its
/// parent's, each keyed by the root's registration it replaces.
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
    /// The root targets that hold a replaced registration, with the replacement in its place.
    private let targets: [ObjectIdentifier: ResolutionTarget]
    /// The services added by code, by key (the type's name, qualified and plain).
    let added: [String: ResolutionTarget]
    /// The added services' registrations, in the order they were added along the lineage.
    let addedRegistrations: [Registration]

    init(parent: Container, number: Int, substitutes: [ObjectIdentifier: (original: Registration, replacement: Registration)],
         added: [String: ResolutionTarget], addedRegistrations: [Registration]) {
        self.parent = parent
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

/// Which registration a child resolves instead of each root registration it replaces.
///
/// Read on every `!service` argument and every tag a child resolves. A few overrides are a
/// short list, scanned: a test's child has one to five, and a scan of them is cheaper than
/// hashing. More are a dictionary.
struct Substitutes: Sendable {
    private let pairs: [(original: ObjectIdentifier, replacement: Unmanaged<Registration>)]
    private let table: [ObjectIdentifier: Unmanaged<Registration>]
    /// Holds the replacements the unmanaged references point to.
    private let replacements: [Registration]

    private static let scanned = 8

    init(_ substitutes: [(original: Registration, replacement: Registration)]) {
        replacements = substitutes.map(\.replacement)
        let pairs = substitutes.map { (ObjectIdentifier($0.original), Unmanaged.passUnretained($0.replacement)) }
        if pairs.count <= Self.scanned {
            self.pairs = pairs
            table = [:]
        } else {
            self.pairs = []
            table = Dictionary(pairs, uniquingKeysWith: { first, _ in first })
        }
    }

    var isEmpty: Bool { replacements.isEmpty }

    /// What the child resolves instead of `registration`: its replacement, or itself.
    @inline(__always)
    func substitute(_ registration: Unmanaged<Registration>) -> Unmanaged<Registration> {
        if replacements.isEmpty { return registration }
        let id = ObjectIdentifier(registration.takeUnretainedValue())
        if pairs.isEmpty { return table[id] ?? registration }
        for pair in pairs where pair.original == id { return pair.replacement }
        return registration
    }

    func substitute(_ registration: Registration) -> Registration {
        substitute(Unmanaged.passUnretained(registration)).takeUnretainedValue()
    }
}

/// The children of a container still alive, so that its shutdown shuts them down first.
struct Children {
    private var nextNumber = 0
    private var live: [Int: WeakChild] = [:]

    /// A number for a child about to be made.
    mutating func number() -> Int {
        defer { nextNumber += 1 }
        return nextNumber
    }

    mutating func add(_ child: Container, number: Int) { live[number] = WeakChild(container: child) }

    mutating func remove(_ number: Int) { live[number] = nil }

    /// The children alive, the most recent first.
    var alive: [Container] {
        live.sorted { $0.key > $1.key }.compactMap(\.value.container)
    }

    private struct WeakChild {
        weak var container: Container?
    }
}

extension Container {
    /// The slot this container keeps the instance of a kept registration in: the one the
    /// registration holds for the container built from the manifest, the slot at `place` of
    /// its own table for a child. One test of a stored reference on the resolve path.
    @inline(__always)
    func keptSlot(_ slot: InstanceSlot, at place: Int) -> InstanceSlot {
        guard let ownSlots else { return slot }
        return InstanceSlot(ownSlots, at: place)
    }

    /// The target of a service key or `implements` type, as this container resolves it.
    @inline(__always)
    func target(key: String) -> ResolutionTarget? {
        guard let lineage else { return targets[key] }
        return lineage.target(key, in: targets)
    }

    /// The registration this container resolves for `registration`, one of its root's.
    @inline(__always)
    func substituted(_ registration: Unmanaged<Registration>) -> Unmanaged<Registration> {
        guard let lineage else { return registration }
        return lineage.substitutes.substitute(registration)
    }

    /// Every registration this container resolves, in manifest order, then those code added.
    var resolvableRegistrations: [Registration] {
        lineage?.registrations(over: registrations) ?? registrations
    }
}
