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
package struct ContextDefinition: Sendable {
    /// The context's name.
    package let name: String
    /// Where the context was first declared.
    package let location: SourceLocation
    /// Overrides of services, in the order they apply.
    package let services: [ServiceOverride]
    /// Overrides of parameters, in the order they apply.
    package let parameters: [Parameter]
    /// Services the context adds (`add:`), which exist only while it is active.
    package let added: [ServiceDefinition]

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
package struct ServiceOverride: Sendable {
    /// The key of the service it changes.
    package let key: String
    /// Where the key was written.
    package let location: SourceLocation
    /// The context it belongs to.
    package let context: String
    /// A factory replacing the service's.
    package let factory: Located<String>?
    /// A scope replacing the service's.
    package let scope: Located<Scope>?
    /// A time-to-live replacing the service's.
    package let timeToLive: Located<Duration>?
    /// Implemented types replacing the service's, when written.
    package let implements: [ImplementsEntry]?
    /// Named variants replacing the service's, when written.
    package let names: [NamedVariant]?
    /// Arguments merged over the service's key by key, or replacing them (``replacesArgs``).
    package let args: ManifestMap?
    /// Whether `args` was tagged `!replace`: it replaces the service's mapping whole.
    let replacesArgs: Bool
    /// Whether `names` was tagged `!replace`: it replaces every variant, instead of replacing
    /// variants of the same name and adding the others.
    let replacesNames: Bool
    /// A decorated service replacing the service's.
    package let decorates: Located<String>?
    /// `false` switches the service off in this context.
    package let enabled: Located<Bool>?
    /// `seeded:`, `eager:` and `shutdownTimeout:` replacing the service's.
    package var lifecycle = Lifecycle()
    /// `tags:` replacing the service's.
    package var tags: [Located<String>]?
}
