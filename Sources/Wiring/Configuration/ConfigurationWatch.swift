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
    /// The value of each key in force.
    private let inForce: Locked<[String: ExternalValues.Lookup]>

    /// A watch of `readers`; `nil` when there is none.
    init?(source: (any ConfigurationSource)?, readers: [ConfigurationReader], values: [String: ExternalValues.Lookup],
          manifest: Manifest, environment: [String: String]) {
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
        inForce = Locked(values)
    }

    /// Puts the values `current` reads in force: the arguments that read a key that changed
    /// are checked and, when they pass, replaced; those that fail keep their values and their
    /// problems are logged at error level. Returns the registrations whose kept instances are
    /// to be dropped: those refreshed that their container keeps, singletons excepted.
    func apply(_ current: any ConfigurationSource, logger: Logger?) -> [Registration] {
        let external = ExternalValues(environment: environment, configuration: current)
        let before = inForce.withLock { $0 }
        var changed: [String: ExternalValues.Lookup] = [:]
        for key in keys {
            let found = external.lookup(key)
            if found != before[key] { changed[key] = found }
        }
        guard !changed.isEmpty else { return [] }
        inForce.withLock { $0.merge(changed) { _, new in new } }

        // The readers of the keys that changed, grouped by registration, in manifest order.
        var affected = Set<Int>()
        for key in changed.keys { affected.formUnion(readersOfKey[key] ?? []) }
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

        var resolver = ValueResolver(manifest: manifest, values: external)
        var dropped: [Registration] = []
        for (registration, indices) in groups {
            let shown = registration.name.map { "'\(registration.key)[\($0)]'" } ?? "'\(registration.key)'"
            let read = keys.filter { key in changed[key] != nil && indices.contains { readers[$0].arguments.keys.contains(key) } }
            let which = read.map { "'\($0)'" }.joined(separator: ", ")
            let noun = read.count == 1 ? "configuration key" : "configuration keys"
            if registration.scope == .singleton {
                logger?.warning("refresh: singleton service \(shown) reads \(noun) \(which), which changed: it keeps the instance built with the earlier value (a singleton is never rebuilt; make it cached to rebuild it)")
                continue
            }
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
                let listed = errors.map(\.description).joined(separator: "\n")
                logger?.error("refresh: service \(shown) keeps its earlier values: the new value of \(noun) \(which) cannot be used\n\(listed)")
                continue
            }
            for (arguments, values) in updates { arguments.replace(with: values) }
            if case .kept = registration.keeping {
                dropped.append(registration)
                logger?.info("refresh: service \(shown) reads \(noun) \(which), which changed: its kept instance is dropped, the next resolve builds it anew")
            } else {
                logger?.info("refresh: service \(shown) reads \(noun) \(which), which changed: it is built with the new value from now on")
            }
        }
        return dropped
    }
}
