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
public struct ServiceDefinition: Sendable {
    /// The service key: the type name that `resolve(T.self)` asks for.
    public let key: String
    /// Where the key was written.
    public let location: SourceLocation
    /// The factory key, when written; ``factoryKey`` gives the effective one.
    public let factory: Located<String>?
    /// The scope, when written; otherwise the manifest's default scope applies.
    public let scope: Located<Scope>?
    /// How long a cached or custom-scoped instance lives.
    public let timeToLive: Located<Duration>?
    /// Other types that resolve to this service.
    public let implements: [ImplementsEntry]
    /// Named variants, in source order.
    public let names: [NamedVariant]
    /// Static arguments for the factory.
    public let args: ManifestMap?
    /// The service this one wraps.
    public let decorates: Located<String>?

    /// The key of the factory that builds this service: `factory:`, or the service key.
    public var factoryKey: String { factory?.value ?? key }

    /// The named variant called `name`, if declared.
    public func variant(named name: String) -> NamedVariant? {
        names.first { $0.name == name }
    }
}

/// One entry of `implements:`: a type that resolves to the service, optionally under a name.
///
/// Written as `UserReading`, or as `{ type: UserReading, name: audit }` when two services
/// implement the same type and a name tells them apart.
public struct ImplementsEntry: Sendable, Hashable {
    /// The type name.
    public let type: String
    /// The name the type resolves the service under, if any.
    public let name: String?
    /// Where the entry was written.
    public let location: SourceLocation
}

/// A named variant of a service: `resolve(T.self, name: "replica")`.
///
/// Each field it sets replaces the service's; `args` are merged key by key over the service's.
public struct NamedVariant: Sendable {
    /// The variant's name.
    public let name: String
    /// Where the name was written.
    public let location: SourceLocation
    /// A factory replacing the service's.
    public let factory: Located<String>?
    /// A scope replacing the service's.
    public let scope: Located<Scope>?
    /// A time-to-live replacing the service's.
    public let timeToLive: Located<Duration>?
    /// Arguments merged over the service's.
    public let args: ManifestMap?
}

/// A parameter: a named value under `parameters:` that values read as `$(name)`.
public struct Parameter: Sendable {
    /// The name.
    public let name: String
    /// Where the name was written.
    public let location: SourceLocation
    /// The value, possibly a template reading the environment or other parameters.
    public let value: ManifestValue
}
