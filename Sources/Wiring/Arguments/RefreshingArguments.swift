/// The arguments of a service (or of a decorator) that read configuration keys, directly or
/// through parameters: filled in when the container is built, from the values it checked, and
/// replaced when a key they read changes after ``Container/start()`` (see
/// ``ConfigurationWatch``).
///
/// Read under a lock, by builds only: a warm resolve reads no arguments, so a container with
/// a configuration source resolves its kept services as fast as one without.
final class RefreshingArguments: Sendable {
    /// The arguments as written (a named variant's laid over its service's), references not
    /// filled in: what a change fills in again.
    let written: ManifestMap
    /// The configuration keys they read, each once.
    let keys: [String]
    private let current: Locked<Current>

    struct Current: @unchecked Sendable {
        var map: ManifestMap
        /// A typed factory's arguments decoded from `map`; `nil` for a factory that reads `r.arg`.
        var decoded: DecodedArguments?
    }

    init(written: ManifestMap, keys: [String], filled: ManifestMap, decoded: DecodedArguments?) {
        self.written = written
        self.keys = keys
        current = Locked(Current(map: filled, decoded: decoded))
    }

    /// The arguments, references filled in with the values in force.
    var map: ManifestMap { current.withLock { $0.map } }

    /// The values in force, read once: what one build reads all its arguments from, so that a
    /// refresh during the build does not give it some values from before and some from after.
    var snapshot: Current { current.withLock { $0 } }

    /// The typed arguments decoded from ``map``.
    var decoded: DecodedArguments? { current.withLock { $0.decoded } }

    /// Puts new values in force: builds from now on read them.
    func replace(with new: Current) {
        current.withLock { $0 = new }
    }
}
