import Synchronization

/// A registration's static arguments, with their `${…}` and `$(…)` references filled in the
/// first time a factory reads them.
///
/// Building a container checks every reference (an unset environment variable is an error
/// then, not at the first resolve), but fills them in only for the services that are built:
/// most of a large manifest's services are never resolved in one process, and filled-in copies
/// of their arguments would cost time at launch and memory for the life of the container.
/// Stored inline in its registration (it cannot be copied, since it holds an atomic), so that it
/// costs no allocation of its own.
struct LazyArguments: ~Copyable, Sendable {
    private let base: ManifestMap
    /// A named variant's own arguments, and arguments that read configuration keys (boxed:
    /// most registrations have neither, and then they cost one word).
    private let extras: Extras?
    /// `nil` for arguments filled in already.
    private let values: ArgumentValues?
    /// Set once, by the first build that reads the arguments. A ``OnceReference``: the standard
    /// library's `AtomicLazyReference` runs unspecialized from another module, and
    /// ThreadSanitizer, which does not see its ordering, reported two threads filling in one
    /// registration's arguments at once as a race.
    private let filled = OnceReference<Filled>()

    private final class Extras: Sendable {
        /// A named variant's own arguments, laid over `base` key by key.
        let overrides: ManifestMap?
        /// When the arguments read configuration keys: the values in force, which a change
        /// replaces (then nothing is kept in `filled`).
        let refreshing: RefreshingArguments?

        init?(overrides: ManifestMap?, refreshing: RefreshingArguments?) {
            guard overrides != nil || refreshing != nil else { return nil }
            self.overrides = overrides
            self.refreshing = refreshing
        }
    }

    /// Internal, not private: a private class as `OnceReference`'s argument stops Swift 6.3's
    /// compiler ("Global is external, but doesn't have external or weak linkage").
    final class Filled: Sendable {
        let map: ManifestMap
        init(_ map: ManifestMap) { self.map = map }
    }

    init(_ base: ManifestMap, overriddenBy overrides: ManifestMap? = nil, values: ArgumentValues, refreshing: RefreshingArguments? = nil) {
        self.base = base
        extras = Extras(overrides: overrides.flatMap { $0.count > 0 ? $0 : nil }, refreshing: refreshing)
        self.values = values
    }

    /// Arguments whose references are filled in already: a child container's replacement of a
    /// registration reads its original's.
    init(filled map: ManifestMap) {
        base = map
        extras = nil
        values = nil
        _ = filled.storeIfNil(Filled(map))
    }

    /// The arguments, references filled in (once; racing threads agree on one result).
    var map: ManifestMap {
        if let filled = filled.loadUnmanaged() { return filled._withUnsafeGuaranteedRef { $0.map } }
        if let refreshing = extras?.refreshing { return refreshing.map }
        guard let values else { return base }
        var map = values.fill(base)
        if let overrides = extras?.overrides { map = map.overlaid(by: values.fill(overrides)) }
        return filled.storeIfNil(Filled(map)).map
    }

    /// The values in force, when the arguments read configuration keys.
    var refreshing: RefreshingArguments? { extras?.refreshing }

    /// What the argument `key`, as written, reads from outside the manifest, for a message that
    /// must not show its value: "configuration key 'http.port'", "environment variables 'HOST',
    /// 'PORT'"; `nil` when it reads nothing (or the arguments were filled in by another
    /// container, whose written form this one does not keep).
    func source(ofArgument key: String) -> String? {
        guard let values else { return nil }
        let written = extras?.refreshing?.written[key] ?? extras?.overrides?[key] ?? base[key]
        guard let written else { return nil }
        return values.source(of: written)
    }
}

/// What filling in references reads: the environment and the manifest's parameters, already
/// resolved (and checked) when the container was built.
final class ArgumentValues: Sendable {
    private let resolver: ValueResolver

    init(_ resolver: ValueResolver) { self.resolver = resolver }

    /// What `value` reads from outside the manifest, directly or through parameters, as a
    /// message names it; `nil` when it reads nothing.
    func source(of value: ManifestValue) -> String? {
        resolver.external.describe(resolver.manifest.externalNames(readBy: value))
    }

    /// `map` with its references filled in (`map` itself when it holds none). What filling in
    /// could report was reported when the container was built, by checking the same map: its
    /// resolver's diagnostics are left unread here.
    func fill(_ map: ManifestMap) -> ManifestMap {
        var resolver = resolver
        return resolver.resolve(map, at: map.location)
    }
}
