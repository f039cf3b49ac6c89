/// A context: overrides applied when it is active (`WIRING_CONTEXT=staging`).
///
/// ```yaml
/// contexts:
///   test:
///     services:
///       UserStore: { factory: in-memory-user-store, scope: unique }
///   staging:
///     parameters: { apiBaseURL: https://staging.example.com }
/// ```
///
/// Blocks of the same name in several imported files add up to one context, and an overlay
/// file beside the root manifest (`services.staging.yaml` for `services.yaml`) adds to it last,
/// so its overrides win over the blocks'.
public struct ContextDefinition: Sendable {
    /// The context's name.
    public let name: String
    /// Where the context was first declared.
    public let location: SourceLocation
    /// Overrides of services, in the order they apply.
    public let services: [ServiceOverride]
    /// Overrides of parameters, in the order they apply.
    public let parameters: [Parameter]
    /// Services the context adds (`add:`), which exist only while it is active.
    public let added: [ServiceDefinition]

    package init(name: String, location: SourceLocation, services: [ServiceOverride],
                 parameters: [Parameter], added: [ServiceDefinition]) {
        self.name = name
        self.location = location
        self.services = services
        self.parameters = parameters
        self.added = added
    }
}

/// What a context changes in one service. Every field it leaves out keeps the service's value.
public struct ServiceOverride: Sendable {
    /// The key of the service it changes.
    public let key: String
    /// Where the key was written.
    public let location: SourceLocation
    /// The context it belongs to.
    public let context: String
    /// A factory replacing the service's.
    public let factory: Located<String>?
    /// A scope replacing the service's.
    public let scope: Located<Scope>?
    /// A time-to-live replacing the service's.
    public let timeToLive: Located<Duration>?
    /// Implemented types replacing the service's, when written.
    public let implements: [ImplementsEntry]?
    /// Named variants replacing the service's, when written.
    public let names: [NamedVariant]?
    /// Arguments merged over the service's key by key, or replacing them (``replacesArgs``).
    public let args: ManifestMap?
    /// Whether `args` was tagged `!replace`: it replaces the service's mapping whole.
    public let replacesArgs: Bool
    /// Whether `names` was tagged `!replace`: it replaces every variant, instead of replacing
    /// variants of the same name and adding the others.
    public let replacesNames: Bool
    /// A decorated service replacing the service's.
    public let decorates: Located<String>?
    /// `false` switches the service off in this context.
    public let enabled: Located<Bool>?
    /// `seeded:`, `eager:` and `shutdownTimeout:` replacing the service's.
    public var lifecycle = Lifecycle()
    /// `tags:` replacing the service's.
    public var tags: [Located<String>]?
}
