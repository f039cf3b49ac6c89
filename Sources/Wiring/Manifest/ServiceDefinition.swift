/// A service as a manifest declares it under `services:`.
///
/// ```yaml
/// services:
///   UserStore:
///     factory: postgres-user-store
///     scope: shared
///     implements: [UserReading, UserWriting]
///     args: { url: "$(dbURL)" }
///     names:
///       replica: { args: { url: "${REPLICA_URL}" } }
/// ```
package struct ServiceDefinition: Sendable {
    /// The fields, shared by every copy: a large manifest's definitions are copied as one
    /// reference each.
    private final class Storage: Sendable {
        let key: String
        let location: SourceLocation
        let factory: Located<String>?
        let scope: Located<Scope>?
        let timeToLive: Located<Duration>?
        let implements: [ImplementsEntry]
        let names: [NamedVariant]
        let args: ManifestMap?
        let decorates: Located<String>?
        let lifecycle: Lifecycle
        let tags: [Located<String>]?

        init(key: String, location: SourceLocation, factory: Located<String>?, scope: Located<Scope>?,
             timeToLive: Located<Duration>?, implements: [ImplementsEntry], names: [NamedVariant],
             args: ManifestMap?, decorates: Located<String>?, lifecycle: Lifecycle, tags: [Located<String>]?) {
            self.key = key
            self.location = location
            self.factory = factory
            self.scope = scope
            self.timeToLive = timeToLive
            self.implements = implements
            self.names = names
            self.args = args
            self.decorates = decorates
            self.lifecycle = lifecycle
            self.tags = tags
        }
    }

    private let storage: Storage

    package init(
        key: String, location: SourceLocation, factory: Located<String>?, scope: Located<Scope>?,
        timeToLive: Located<Duration>?, implements: [ImplementsEntry], names: [NamedVariant],
        args: ManifestMap?, decorates: Located<String>?, lifecycle: Lifecycle = Lifecycle(), tags: [Located<String>]? = nil
    ) {
        storage = Storage(
            key: key, location: location, factory: factory, scope: scope, timeToLive: timeToLive,
            implements: implements, names: names, args: args, decorates: decorates, lifecycle: lifecycle, tags: tags)
    }

    /// `tags:`, when written: what `resolveAll(tagged:)` and `!tagged` find it by.
    package var tags: [Located<String>]? { storage.tags }

    /// The service key: the type name that `resolve(T.self)` asks for.
    package var key: String { storage.key }
    /// Where the key was written.
    package var location: SourceLocation { storage.location }
    /// The factory key, when written; ``factoryKey`` gives the effective one.
    package var factory: Located<String>? { storage.factory }
    /// The scope, when written; otherwise the manifest's default scope applies.
    package var scope: Located<Scope>? { storage.scope }
    /// How long a cached or custom-scoped instance lives.
    package var timeToLive: Located<Duration>? { storage.timeToLive }
    /// Other types that resolve to this service.
    package var implements: [ImplementsEntry] { storage.implements }
    /// Named variants, in source order.
    package var names: [NamedVariant] { storage.names }
    /// Static arguments for the factory.
    package var args: ManifestMap? { storage.args }
    /// The service this one wraps.
    package var decorates: Located<String>? { storage.decorates }

    /// `eager:` and `shutdownTimeout:`, when written.
    package var lifecycle: Lifecycle { storage.lifecycle }
    /// Whether `container.start()` builds it (`eager: true`).
    package var eager: Located<Bool>? { lifecycle.eager }
    /// How long its shutdown hooks may run (`shutdownTimeout:`), when written.
    package var shutdownTimeout: Located<Duration>? { lifecycle.shutdownTimeout }
    /// Whether code gives each scope its instance (`seeded: true`).
    package var seeded: Located<Bool>? { lifecycle.seeded }

    /// The key of the factory that builds this service: `factory:`, or the service key.
    package var factoryKey: String { factory?.value ?? key }

    /// The arguments of `variant` as its factory reads them: the variant's own laid over the
    /// service's, key by key (the service's when the variant sets none).
    func arguments(of variant: NamedVariant) -> ManifestMap? {
        variant.args.map { (args ?? ManifestMap([], at: variant.location)).overlaid(by: $0) } ?? args
    }

    /// Whether a factory builds it: every service but a `seeded: true` one that names none,
    /// whose instances only ever come from `ContainerScope.seed(_:)`.
    package var hasFactory: Bool { factory != nil || seeded?.value != true }

    /// The named variant called `name`, if declared.
    package func variant(named name: String) -> NamedVariant? {
        names.first { $0.name == name }
    }
}

/// One entry of `implements:`: a type that resolves to the service, optionally under a name.
///
/// Written as `UserReading`, or as `{ type: UserReading, name: audit }` when two services
/// implement the same type and a name tells them apart.
package struct ImplementsEntry: Sendable, Hashable {
    /// The type name.
    package let type: String
    /// The name the type resolves the service under, if any.
    package let name: String?
    /// Where the entry was written.
    package let location: SourceLocation
}

/// Where an instance comes from, when a kept one is built and how long its shutdown may take:
/// `seeded:`, `eager:` and `shutdownTimeout:` of a service, a named variant or a context's
/// override.
///
/// ```yaml
/// services:
///   Pool: { factory: pool, scope: singleton, eager: true, shutdownTimeout: 5s }
///   RequestInfo: { scope: scoped, seeded: true }
/// ```
package struct Lifecycle: Sendable {
    /// `true`: ``Container/start()`` builds the instance, with its dependencies first.
    package var eager: Located<Bool>?
    /// How long each of the instance's shutdown hooks may run before it is abandoned.
    package var shutdownTimeout: Located<Duration>?
    /// `true`: code gives each scope the instance with ``ContainerScope/seed(_:as:name:)``.
    package var seeded: Located<Bool>?

    /// Creates a lifecycle; every field unset by default.
    package init(eager: Located<Bool>? = nil, shutdownTimeout: Located<Duration>? = nil, seeded: Located<Bool>? = nil) {
        self.eager = eager
        self.shutdownTimeout = shutdownTimeout
        self.seeded = seeded
    }

    /// Each field this one sets, else `base`'s.
    func over(_ base: Lifecycle) -> Lifecycle {
        Lifecycle(eager: eager ?? base.eager, shutdownTimeout: shutdownTimeout ?? base.shutdownTimeout, seeded: seeded ?? base.seeded)
    }
}

/// A named variant of a service: `resolve(T.self, name: "replica")`.
///
/// Each field it sets replaces the service's; `args` are merged key by key over the service's.
package struct NamedVariant: Sendable {
    /// The variant's name.
    package let name: String
    /// Where the name was written.
    package let location: SourceLocation
    /// A factory replacing the service's.
    package let factory: Located<String>?
    /// A scope replacing the service's.
    package let scope: Located<Scope>?
    /// A time-to-live replacing the service's.
    package let timeToLive: Located<Duration>?
    /// Arguments merged over the service's.
    package let args: ManifestMap?
    /// `eager:` and `shutdownTimeout:` replacing the service's.
    package var lifecycle = Lifecycle()
    /// `tags:` replacing the service's.
    package var tags: [Located<String>]?
}

/// A parameter: a named value under `parameters:` that values read as `$(name)`.
package struct Parameter: Sendable {
    /// The name.
    package let name: String
    /// Where the name was written.
    package let location: SourceLocation
    /// The value, possibly a template reading the environment or other parameters.
    package let value: ManifestValue
}
