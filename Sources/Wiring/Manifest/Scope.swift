/// How long a built instance is kept, named as in the manifest's `scope:` field.
///
/// The built-in scopes match Resolver's and Factory's:
///
/// | scope | instance kept |
/// | --- | --- |
/// | ``unique`` | never: every resolve builds a new one |
/// | ``graph`` | for one top-level resolution: shared within it, not across |
/// | ``scoped`` | for one ``ContainerScope`` (a request, a unit of work); resolved only from a scope |
/// | ``cached`` | until reset, or until its time-to-live (`ttl:`) runs out |
/// | ``shared`` | while something else holds it (kept weakly) |
/// | ``singleton`` | for the container's life |
///
/// A manifest may declare custom scopes under `scopes: custom:`; they keep instances like
/// ``cached`` until code resets them by name. Services that name no scope get the manifest's
/// `scopes: default:`, or ``graph`` when none is set (as in Resolver and Swinject).
public struct Scope: Hashable, Sendable, CustomStringConvertible {
    /// The scope's name as written in the manifest.
    public let name: String
    /// Which built-in scope this is, decided once when the scope is made; `nil` for a custom
    /// scope.
    let builtInKind: BuiltIn?

    /// The built-in scopes, for code that decides by scope without comparing names.
    enum BuiltIn: UInt8, Sendable {
        case unique, graph, scoped, cached, shared, singleton
    }

    /// Whether this is one of the built-in scopes.
    public var isBuiltIn: Bool { builtInKind != nil }

    /// Creates a scope with the given name; custom names must be declared in the manifest.
    public init(_ name: String) {
        self.name = name
        // A switch over the names rather than a `String`-backed enum's `init(rawValue:)`: this
        // runs for every scope a manifest names, and that initializer cost three times as much.
        builtInKind = switch name {
        case "unique": .unique
        case "graph": .graph
        case "scoped": .scoped
        case "cached": .cached
        case "shared": .shared
        case "singleton": .singleton
        default: nil
        }
    }

    /// Scopes are equal when their names are.
    public static func == (lhs: Scope, rhs: Scope) -> Bool { lhs.name == rhs.name }
    /// Hashes the name.
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }

    /// A new instance on every resolve.
    public static let unique = Scope("unique")
    /// One instance per top-level resolution.
    public static let graph = Scope("graph")
    /// One instance per ``ContainerScope``, shut down when the scope ends.
    public static let scoped = Scope("scoped")
    /// Kept until reset or until its time-to-live runs out.
    public static let cached = Scope("cached")
    /// Kept while anything else holds it.
    public static let shared = Scope("shared")
    /// Kept for the container's life.
    public static let singleton = Scope("singleton")

    /// The built-in scopes, in the order the documentation lists them.
    package static let builtIn: [Scope] = [.unique, .graph, .scoped, .cached, .shared, .singleton]

    /// The scope services get when neither they nor the manifest name one.
    public static let defaultScope = Scope.graph

    /// The name.
    public var description: String { name }
}

// MARK: - What a scope is

/// Every check that decides by scope asks these (the validator, the captive check, binding,
/// refresh, children): a new built-in scope states its rules here and in ``keeping(timeToLive:customTimeToLive:scopedCount:keptCount:)``.
extension Scope {
    /// Whether no instance outlives one resolution (`unique`, `graph`): nothing to start, to
    /// shut down or to drop on a refresh.
    var keepsNoInstance: Bool { builtInKind == .unique || builtInKind == .graph }

    /// Whether each ``ContainerScope`` keeps an instance of its own (`scoped`): resolved only
    /// from a scope, built there rather than at start.
    var isPerContainerScope: Bool { builtInKind == .scoped }

    /// Whether the container keeps the instance (`singleton`, `cached`, `shared`, custom
    /// scopes): what `eager: true` builds at start.
    var isKeptByContainer: Bool { !keepsNoInstance && !isPerContainerScope }

    /// Whether instances may expire after a time-to-live (`ttl:`): `cached` and custom scopes.
    var takesTimeToLive: Bool { builtInKind == .cached || builtInKind == nil }

    /// Whether a kept instance is dropped, to be built with the new values, when configuration
    /// it reads changes: all but `singleton`, which is built once.
    var rebuildsOnConfigurationChange: Bool { builtInKind != .singleton }

    /// Whether code may give a scope its instance (`seeded: true`): `scoped` only.
    var canBeSeeded: Bool { isPerContainerScope }

    /// Whether a child container may share its parent's instance: not a scope's, since each
    /// scope has its own.
    var isShareableWithChild: Bool { !isPerContainerScope }

    /// How long an instance lives, shortest first, for the captive-dependency check: `unique` <
    /// `graph` < `scoped` < `shared` and any scope with a time-to-live (`expires`) < `cached`
    /// and custom scopes without one < `singleton`.
    func lifetimeRank(expires: Bool) -> Int {
        switch builtInKind {
        case .unique: 0
        case .graph: 1
        case .scoped: 2
        case .shared: 3
        case .cached, nil: expires ? 3 : 4
        case .singleton: 5
        }
    }

    /// How a registration in this scope keeps its instance. Its place is the next of its kind,
    /// `scopedCount` for a scope's, `keptCount` for the container's; the count moves on.
    /// `timeToLive` is the service's (`cached`), `customTimeToLive` its custom scope's.
    func keeping(timeToLive: Duration?, customTimeToLive: Duration?, scopedCount: inout Int, keptCount: inout Int) -> Keeping {
        let (expiring, weakly): (Duration?, Bool)
        switch builtInKind {
        case .unique: return .unique
        case .graph: return .graph
        case .scoped:
            defer { scopedCount += 1 }
            return .scoped(place: scopedCount)
        case .singleton: (expiring, weakly) = (nil, false)
        case .shared: (expiring, weakly) = (nil, true)
        case .cached: (expiring, weakly) = (timeToLive, false)
        case nil: (expiring, weakly) = (timeToLive ?? customTimeToLive, false)
        }
        defer { keptCount += 1 }
        return .kept(timeToLive: expiring, weakly: weakly, slot: InstanceSlot(), place: keptCount)
    }
}

/// A scope declared by the manifest under `scopes: custom:`.
package struct CustomScope: Sendable, Hashable {
    /// The scope's name.
    package let name: String
    /// How long instances are kept, if they expire.
    package let timeToLive: Located<Duration>?
    /// Where the scope was declared.
    package let location: SourceLocation
}
