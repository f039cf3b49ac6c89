internal import Logging

/// Arguments of a registration (its own, or one of its decorators') that read configuration
/// keys, with what checking new values for them needs.
struct ConfigurationReader: Sendable {
    let registration: Registration
    let arguments: RefreshingArguments
    /// The factory's typed arguments, when it reads them typed.
    let typed: TypedArguments?
    /// The service (`cache`, `cache[eu]`) or decorator, as messages name it.
    let owner: String
    let factoryKey: String
    let location: SourceLocation
}

/// What a started container does when its configuration source's values change: finds the
/// arguments that read a key that changed, checks them with the new values (as building the
/// container checked them), puts them in force, and says which kept instances to drop.
///
/// The work of one change is proportional to the keys the manifest reads (each is read once
/// from the new values, to see whether it changed) and to the arguments that read the keys
/// that changed, not to the container's size.
final class ConfigurationWatch: Sendable {
    let source: any WatchableConfigurationSource
    private let readers: [ConfigurationReader]
    /// The readers of each key, by index in `readers`, in manifest order.
    private let readersOfKey: [String: [Int]]
    /// Every key read, in the order first read.
    private let keys: [String]
    private let manifest: Manifest
    private let environment: [String: String]
    /// The type each key is read as (see ``ExternalValues/types``).
    private let types: [String: ConfigurationType]
    private let state: Locked<State>
    /// For each registration whose arguments read keys, the types its kept instance is cached as
    /// in the container's type cache, so that a change drops those entries without a scan of
    /// the cache. Written and taken only inside the type cache's write lock: a build that raced
    /// a refresh lists its type before the refresh takes the list, or sees the cache's
    /// generation moved on and caches nothing.
    private let cachedTypes = Locked<[ObjectIdentifier: [ObjectIdentifier]]>([:])

    private struct State {
        /// The value of each key in the last snapshot applied: a key whose value differs in
        /// the next one changed.
        var seen: [String: ExternalValues.Lookup]
        /// The readers whose registration's newest values did not fit: checked again at each
        /// snapshot, so that the values in force are always the newest that fit.
        var failing: Set<Int> = []
    }

    /// A watch of `readers`; `nil` when there is none.
    init?(source: (any ConfigurationSource)?, readers: [ConfigurationReader], values: [String: ExternalValues.Lookup],
          types: [String: ConfigurationType], manifest: Manifest, environment: [String: String]) {
        guard let source = source as? any WatchableConfigurationSource, !readers.isEmpty else { return nil }
        self.source = source
        self.readers = readers
        var readersOfKey: [String: [Int]] = [:]
        var keys: [String] = []
        for (index, reader) in readers.enumerated() {
            for key in reader.arguments.keys {
                if readersOfKey[key] == nil { keys.append(key) }
                readersOfKey[key, default: []].append(index)
            }
        }
        self.readersOfKey = readersOfKey
        self.keys = keys
        self.manifest = manifest
        self.environment = environment
        self.types = types
        state = Locked(State(seen: values))
    }

    /// Records that the kept instance of `registration` is cached by the type `id`.
    func noteCached(_ id: ObjectIdentifier, of registration: Registration) {
        cachedTypes.withLock { types in
            // Listed once per type: a reset leaves the list, and the type is cached again after it.
            if types[ObjectIdentifier(registration)]?.contains(id) != true {
                types[ObjectIdentifier(registration), default: []].append(id)
            }
        }
    }

    /// The types the kept instance of `registration` is cached by, no longer listed.
    func takeCachedTypes(of registration: Registration) -> [ObjectIdentifier] {
        cachedTypes.withLock { $0.removeValue(forKey: ObjectIdentifier(registration)) } ?? []
    }

    /// The last refresh that changed something, for ``Container/snapshot()``.
    private let lastRefresh = Locked<RefreshEvent?>(nil)

    /// Keeps `event` as the last refresh.
    func noteRefresh(_ event: RefreshEvent) { lastRefresh.withLock { $0 = event } }

    /// The last refresh that changed something, if any.
    var latestRefresh: RefreshEvent? { lastRefresh.withLock { $0 } }

    /// How many types are listed, over every registration.
    var cachedTypeCount: Int { cachedTypes.withLock { $0.values.reduce(0) { $0 + $1.count } } }

    /// Puts the values `current` reads in force: the arguments that read a key that changed
    /// (or whose newest values did not fit before) are checked and, when they pass, replaced,
    /// a singleton's too (its instance stays, and a build after ``Container/reset()`` reads
    /// them); those that fail keep their values, their problems are logged at error level, and
    /// they are checked again at the next snapshot. Returns the keys that changed, the
    /// registrations whose kept instances are to be dropped (those refreshed that their
    /// container keeps, singletons excepted) and why values were rejected.
    func apply(_ current: any ConfigurationSource, logger: Logger?) -> Applied {
        var external = ExternalValues(environment: environment, configuration: current)
        external.types = types
        let before = state.withLock { $0 }
        var seen = before.seen
        var changed = Set<String>()
        for key in keys {
            let found = external.lookup(key)
            if found != seen[key] {
                changed.insert(key)
                seen[key] = found
            }
        }
        var affected = before.failing
        for key in changed { affected.formUnion(readersOfKey[key] ?? []) }
        guard !affected.isEmpty else { return Applied(changed: changed.sorted(), dropped: [], rejected: []) }

        // The readers to check, grouped by registration, in manifest order.
        var groups: [(registration: Registration, readers: [Int])] = []
        var groupOf: [ObjectIdentifier: Int] = [:]
        for index in affected.sorted() {
            let id = ObjectIdentifier(readers[index].registration)
            if let group = groupOf[id] {
                groups[group].readers.append(index)
            } else {
                groupOf[id] = groups.count
                groups.append((readers[index].registration, [index]))
            }
        }

        // Each key is read once a snapshot: the checks below share what `external` read above.
        var resolver = ValueResolver(manifest: manifest, values: external)
        var dropped: [Registration] = []
        var rejected: [ReportedFailure] = []
        var failing = Set<Int>()
        for (registration, indices) in groups {
            let shown = registration.name.map { "'\(registration.key)[\($0)]'" } ?? "'\(registration.key)'"
            let readHere = keys.filter { key in indices.contains { readers[$0].arguments.keys.contains(key) } }
            // A check again of values that did not fit names every key the arguments read.
            let changedHere = readHere.filter(changed.contains)
            let read = changedHere.isEmpty ? readHere : changedHere
            let which = read.map { "'\($0)'" }.joined(separator: ", ")
            let noun = read.count == 1 ? "configuration key" : "configuration keys"
            var updates: [(RefreshingArguments, RefreshingArguments.Current)] = []
            var problems: [Diagnostic] = []
            for index in indices {
                let reader = readers[index]
                let map = resolver.resolve(reader.arguments.written, at: reader.location)
                problems += resolver.removeDiagnostics()
                var decoded: DecodedArguments?
                if let typed = reader.typed {
                    let (checked, found) = ArgumentFill(resolver).decode(reader.arguments.written, of: reader.owner, at: reader.location,
                                                                        factoryKey: reader.factoryKey, as: typed)
                    decoded = checked
                    problems += found
                }
                updates.append((reader.arguments, RefreshingArguments.Current(map: map, decoded: decoded)))
            }
            let errors = problems.filter { $0.severity == .error }
            guard errors.isEmpty else {
                failing.formUnion(indices)
                let listed = errors.map(\.description).joined(separator: "\n")
                let message = "service \(shown) keeps its earlier values: the new value of \(noun) \(which) cannot be used\n\(listed)"
                // The event says which keys, not why: a type's `init(from:)` may quote the value.
                rejected.append(ReportedFailure(.valueRejected, service: shownService(registration.key, name: registration.name),
                                                message: "the new value of \(noun) \(which) cannot be used",
                                                location: errors.first?.location.map(ManifestRoot(manifest: manifest.files.first).relative)))
                logger?.error("refresh: \(message)")
                continue
            }
            for (arguments, values) in updates { arguments.replace(with: values) }
            if !registration.scope.rebuildsOnConfigurationChange {
                logger?.warning("refresh: singleton service \(shown) reads \(noun) \(which), which changed: it keeps the instance built with the earlier value (a singleton is never rebuilt; make it cached to rebuild it)")
            } else if case .kept = registration.keeping {
                dropped.append(registration)
                logger?.info("refresh: service \(shown) reads \(noun) \(which), which changed: its kept instance is dropped, the next resolve builds it anew")
            } else {
                logger?.info("refresh: service \(shown) reads \(noun) \(which), which changed: it is built with the new value from now on")
            }
        }
        state.withLock { $0 = State(seen: seen, failing: failing) }
        return Applied(changed: changed.sorted(), dropped: dropped, rejected: rejected)
    }

    /// What ``apply(_:logger:)`` did.
    struct Applied {
        /// The keys whose values changed, sorted.
        let changed: [String]
        /// The registrations whose kept instances are to be dropped.
        let dropped: [Registration]
        /// Why new values were not used, one message per registration.
        let rejected: [ReportedFailure]
    }
}
