/// Which registration a child resolves instead of each root registration it replaces.
///
/// Read on every `!service` argument and every tag a child resolves. A few replacements (a
/// test's child has one to five) are a buffer, scanned, which the container reads without
/// counting a reference (``ChildLayer``); more are a dictionary. Read
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
