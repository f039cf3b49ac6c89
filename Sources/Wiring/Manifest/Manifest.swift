/// A loaded manifest: every file it imports merged into one immutable, validated model.
///
/// Load one with ``ManifestLoader``:
///
/// ```swift
/// let manifest = try ManifestLoader().load("config/services.yaml")
/// for service in manifest.services {
///     print(service.key, service.factoryKey, manifest.effectiveScope(of: service))
/// }
/// ```
public struct Manifest: Sendable {
    /// The format version (`wiring:`).
    public let version: Int
    /// The files read, the root first, then imports in the order they were reached.
    public let files: [String]
    /// Parameters, in source order.
    package let parameters: [Parameter]
    /// Services, in source order.
    package let services: [ServiceDefinition]
    /// Contexts, in source order of their first declaration.
    package let contexts: [ContextDefinition]
    /// The default scope, when the manifest sets one.
    package let defaultScope: Located<Scope>?
    /// Custom scopes declared under `scopes: custom:`.
    let customScopes: [CustomScope]
    /// The keys of the services declared, in source order (named variants not listed apart).
    public var serviceKeys: [String] { services.map(\.key) }
    /// Warnings found while loading (an unset environment variable, for example).
    public internal(set) var diagnostics: [Diagnostic]
    /// The contexts applied to this manifest, in order (empty for the manifest as loaded).
    public internal(set) var appliedContexts: [String] = []
    /// Services an applied context switched off (`enabled: false`), with the context and the
    /// place that did it.
    package internal(set) var switchedOff: [String: Located<String>] = [:]
    /// The dependency types of each autowired factory, by factory key (from the app's registry
    /// or its catalog): the services whose factory is one of them depend on a service of
    /// each type, and the reference checks see those edges as they see `!service` ones.
    package var autowired: [String: [AutowiredDependency]] = [:]

    /// Every `$(name)` reference to a parameter, found while decoding.
    let parameterReferences: ParameterReferences
    /// What the services hold that checking and binding them are sized by.
    let census: ServiceCensus

    private let serviceIndex: [NameKey: Int]
    let parameterIndex: [NameKey: Int]
    let contextIndex: [NameKey: Int]

    package init(
        version: Int, files: [String], parameters: [Parameter], services: [ServiceDefinition],
        contexts: [ContextDefinition], defaultScope: Located<Scope>?, customScopes: [CustomScope],
        parameterReferences: ParameterReferences, diagnostics: [Diagnostic],
        serviceIndex: [NameKey: Int]? = nil, parameterIndex: [NameKey: Int]? = nil, contextIndex: [NameKey: Int]? = nil
    ) {
        self.parameterReferences = parameterReferences
        self.version = version
        self.files = files
        self.parameters = parameters
        self.services = services
        self.contexts = contexts
        self.defaultScope = defaultScope
        self.customScopes = customScopes
        self.diagnostics = diagnostics
        self.serviceIndex = serviceIndex ?? Self.index(services.map(\.key))
        census = ServiceCensus(of: services)
        self.parameterIndex = parameterIndex ?? Self.index(parameters.map(\.name))
        self.contextIndex = contextIndex ?? Self.index(contexts.map(\.name))
    }

    private static func index(_ keys: [String]) -> [NameKey: Int] {
        var index = [NameKey: Int](minimumCapacity: keys.count)
        for (position, key) in keys.enumerated() where index[key] == nil { index[key] = position }
        return index
    }

    /// The service declared under `key`.
    package func service(_ key: String) -> ServiceDefinition? {
        serviceIndex[key].map { services[$0] }
    }

    /// The position in ``services`` of the service declared under `key`.
    func serviceIndex(of key: String) -> Int? {
        serviceIndex[key]
    }

    /// Every service's position in ``services``, by key: the index itself, shared, not copied.
    var servicePositions: [NameKey: Int] { serviceIndex }

    /// The parameter called `name`.
    package func parameter(_ name: String) -> Parameter? {
        parameterIndex[name].map { parameters[$0] }
    }

    /// The position of the parameter `name` among ``parameters``.
    func parameterPosition(_ name: String) -> Int? {
        parameterIndex[name]
    }

    /// The context called `name`.
    package func context(_ name: String) -> ContextDefinition? {
        contextIndex[name].map { contexts[$0] }
    }

    /// The scope a service gets: its own, else the manifest's default, else ``Scope/graph``.
    package func effectiveScope(of service: ServiceDefinition) -> Scope {
        service.scope?.value ?? defaultScope?.value ?? Scope.defaultScope
    }
}
