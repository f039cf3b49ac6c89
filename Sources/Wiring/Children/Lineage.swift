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
/// Read on every `!service` argument and every tag a child resolves. A few replacements (a
/// test's child has one to five) are a buffer, scanned, which the container reads without
/// counting a reference (``Container/scannedSubstitutes``); more are a dictionary. Read
/// through the lineage instead, three `!service` arguments cost a child with three overrides
/// 1.10× what they cost its parent; read from the container's buffer, 1.00×
/// (`WiringBenchmarks children`).
final class Substitutes: @unchecked Sendable {
    typealias Pairs = UnsafeBufferPointer<(original: ObjectIdentifier, replacement: Unmanaged<Registration>)>

    private let pairs: UnsafeMutableBufferPointer<(original: ObjectIdentifier, replacement: Unmanaged<Registration>)>
    private let table: [ObjectIdentifier: Unmanaged<Registration>]
    /// Holds the replacements the unmanaged references point to.
    private let replacements: [Registration]
    let isEmpty: Bool

    private static let scanned = 8

    init(_ substitutes: [(original: Registration, replacement: Registration)]) {
        replacements = substitutes.map(\.replacement)
        isEmpty = substitutes.isEmpty
        let pairs = substitutes.map { (original: ObjectIdentifier($0.original), replacement: Unmanaged.passUnretained($0.replacement)) }
        let scanned = pairs.count <= Self.scanned ? pairs : []
        self.pairs = .allocate(capacity: scanned.count)
        _ = self.pairs.initialize(from: scanned)
        table = pairs.count <= Self.scanned ? [:] : Dictionary(pairs, uniquingKeysWith: { first, _ in first })
    }

    deinit { pairs.deallocate() }

    /// The replacements to scan: all of them, unless there are more than are scanned.
    var scanned: Pairs { Pairs(pairs) }

    /// Whether the replacements are in a dictionary, not scanned.
    var isTable: Bool { !table.isEmpty }

    /// What the child resolves instead of `registration`: its replacement, or itself.
    @inline(__always)
    func substitute(_ registration: Unmanaged<Registration>) -> Unmanaged<Registration> {
        if isEmpty { return registration }
        let id = ObjectIdentifier(registration.takeUnretainedValue())
        if pairs.isEmpty { return table[id] ?? registration }
        for pair in pairs where pair.original == id { return pair.replacement }
        return registration
    }

    func substitute(_ registration: Registration) -> Registration {
        substitute(Unmanaged.passUnretained(registration)).takeUnretainedValue()
    }
}

extension Container {
    /// The slot this container keeps the instance of a kept registration in: the one the
    /// registration holds for the container built from the manifest, the slot at `place` of
    /// its own table for a child. One test of a stored reference on the resolve path.
    ///
    /// The child's lookup is out of line: inlined into every kept resolve, it made a named
    /// singleton's resolve through a root container 945 instructions where it was 896 before
    /// children; out of line, 928 (callgrind, `WiringBenchmarks resolution --only "named
    /// singleton"`, per resolve).
    @inline(__always)
    func keptSlot(_ slot: InstanceSlot, at place: Int) -> InstanceSlot {
        guard let ownSlots else { return slot }
        return Self.childSlot(ownSlots, at: place)
    }

    /// The instance `slot` (at `place`) keeps in this container, if any: ``keptSlot(_:at:)``'s
    /// read, without copying the slot on the root's path: a copy counted a reference to its
    /// table on every kept resolve (a named singleton's resolve: 928 instructions with the copy,
    /// 895 without, 896 before children). A child reads its own table in place for the same
    /// reason (``ChildSlots/current(at:now:)``).
    @inline(__always)
    func current(in slot: InstanceSlot, at place: Int, now: @autoclosure () -> Duration?) -> Any? {
        guard let ownSlots else { return slot.current(now: now()) }
        return Self.childCurrent(ownSlots, at: place, now: now())
    }

    @inline(never)
    private static func childCurrent(_ slots: ChildSlots, at place: Int, now: Duration?) -> Any? {
        slots.current(at: place, now: now)
    }

    @inline(never)
    private static func childSlot(_ slots: ChildSlots, at place: Int) -> InstanceSlot {
        slots.slot(at: place)
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
        if scannedSubstitutes.isEmpty {
            guard hasTableOfSubstitutes, let lineage else { return registration }
            return lineage.substitutes.substitute(registration)
        }
        let id = ObjectIdentifier(registration.takeUnretainedValue())
        for pair in scannedSubstitutes where pair.original == id { return pair.replacement }
        return registration
    }

    /// Every registration this container resolves, in manifest order, then those code added.
    var resolvableRegistrations: [Registration] {
        lineage?.registrations(over: registrations) ?? registrations
    }
}
