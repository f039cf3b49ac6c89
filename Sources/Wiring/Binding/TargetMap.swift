/// What each service key and `implements` type resolves to, by name.
///
/// A service key is found through the manifest's own index of its services, and its target by
/// the service's position: the container keeps no second table of every key, which cost a hash
/// of each key when binding and about 40 bytes a service of peak memory (measured at 10,000
/// services). `implements` types have a table of their own, of places rather than targets: most
/// types resolve a service's own target, and storing its place neither reads nor counts it. A
/// type that is also a service key stays the service's (validation reports the clash).
struct TargetMap: Sendable {
    /// The manifest's index: each service's position by key.
    private let positions: [NameKey: Int]
    /// By position in the manifest's services: the service's target (for a decorator, the
    /// target of the service it decorates), or `nil` when nothing was bound there.
    private let byPosition: [ResolutionTarget?]
    /// Where the target of each `implements` type is: a position in `byPosition`, or past
    /// them, a place in `gathered`.
    private let aliases: [NameKey: Int]
    /// The targets of types that gather the registrations of several entries.
    private let gathered: [ResolutionTarget]

    init(positions: [NameKey: Int], byPosition: [ResolutionTarget?], aliases: [NameKey: Int], gathered: [ResolutionTarget]) {
        self.positions = positions
        self.byPosition = byPosition
        self.aliases = aliases
        self.gathered = gathered
    }

    /// The target of a service key or an `implements` type.
    subscript(key: String) -> ResolutionTarget? {
        if let position = positions[key], let target = byPosition[position] { return target }
        guard let place = aliases[key] else { return nil }
        return place < byPosition.count ? byPosition[place] : gathered[place - byPosition.count]
    }

    /// The targets of types that several entries gather: a child container replaces a
    /// registration in each that holds it.
    var gatheredTargets: [ResolutionTarget] { gathered }

    /// Every name that resolves to something, for suggestions.
    var keys: [String] {
        positions.compactMap { byPosition[$0.value] == nil ? nil : $0.key.text } + aliases.keys.map(\.text)
    }
}
