/// What the framework integrations serve from: a ``Container``, or a ``ReloadingContainer``
/// (the container it has in force, which changes when the manifest is edited). Every
/// integration takes either through the same parameter:
///
/// ```swift
/// let container: any ContainerProvider = development
///     ? try ReloadingContainer(manifest: path, registry: registry)
///     : try Container(manifest: path, registry: registry)
/// router.add(middleware: RequestScopeMiddleware(container: container))
/// let group = ServiceGroup(services: [ContainerService(container), server], logger: logger)
/// ```
public protocol ContainerProvider: AnyObject, Sendable {
    /// The container in force: resolve from it, not from one kept since earlier, when the
    /// provider reloads.
    var container: Container { get }
    /// A new scope of the container in force, for one request or unit of work.
    func makeScope() -> ContainerScope
    /// Starts the container (builds its `eager` services and runs their start hooks; a
    /// reloading provider also starts watching its files).
    func start() async throws
    /// Shuts the container down (a reloading provider also stops watching and shuts down the
    /// containers its reloads retired).
    func shutdown() async throws
    /// What the container in force is now (a reloading provider adds its last reload): what
    /// the server products' snapshot route serves.
    func snapshot() -> ContainerSnapshot
}

extension Container: ContainerProvider {
    /// The container itself: a fixed container is always the one in force.
    public var container: Container { self }
}

extension ReloadingContainer: ContainerProvider {}
