/// What a child container resolves differently from its root, as one value: its lineage (the
/// parent, the registrations it resolves instead of the root's, the services it adds) and the
/// table of the instances it keeps. A container built from a manifest has none.
///
/// Everything the resolve path asks of a child goes through here: a key's target, a kept
/// registration's slot, a registration's substitute. The few replacements that are scanned are
/// held here, in the container, not only in the lineage: read through the lineage, three
/// `!service` arguments cost a child with three overrides 1.10× what they cost its parent; read
/// here, 1.00× (`WiringBenchmarks children`).
struct ChildLayer: Sendable {
    let lineage: Lineage
    /// The slots of the registrations the child keeps, by place.
    let slots: ChildSlots
    /// The lineage's replacements when they are few enough to scan; empty otherwise.
    nonisolated(unsafe) private let scannedSubstitutes: Substitutes.Pairs
    /// Whether the replacements are too many to scan: the lineage's table holds them.
    private let substitutesAreTable: Bool

    init(lineage: Lineage, slots: ChildSlots) {
        self.lineage = lineage
        self.slots = slots
        scannedSubstitutes = lineage.substitutes.scanned
        substitutesAreTable = lineage.substitutes.isTable
    }

    /// The target `key` names in the child.
    @inline(__always)
    func target(_ key: String, in map: TargetMap) -> ResolutionTarget? {
        lineage.target(key, in: map)
    }

    /// The registration the child resolves for `registration`, one of its root's.
    @inline(__always)
    func substitute(_ registration: Unmanaged<Registration>) -> Unmanaged<Registration> {
        if scannedSubstitutes.isEmpty {
            return substitutesAreTable ? lineage.substitutes.substitute(registration) : registration
        }
        let id = ObjectIdentifier(registration.takeUnretainedValue())
        for pair in scannedSubstitutes where pair.original == id { return pair.replacement }
        return registration
    }
}
