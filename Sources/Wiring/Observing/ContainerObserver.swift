/// Something told what a container does: the builds it runs, its start and shutdown, the
/// refreshes of its configuration and the reloads of its manifest.
///
/// Set observers when the container is made, in ``Container/Options/observers``:
///
/// ```swift
/// var options = Container.Options()
/// options.observers = [ContainerTracing(), ContainerMetrics()]   // WiringObservability
/// let container = try Container(manifest: "services.yaml", registry: registry, options: options)
/// ```
///
/// Each method has a default that does nothing: implement those you need. They are called on
/// the thread that did the work, as it ends, so keep them short; they must not resolve from the
/// container that calls them.
///
/// What an observer costs: a resolve of an instance the container or a scope already keeps
/// never reaches one. A build of an instance to keep (`singleton`, `cached`, `shared`,
/// `scoped`, custom scopes) calls ``containerBuilt(_:)``; so does every build during
/// ``Container/start()``. Builds of `unique` and `graph` services after start are not reported:
/// they are the resolve itself.
public protocol ContainerObserver: Sendable {
    /// A build ended, or its factory threw.
    func containerBuilt(_ build: BuildEvent)
    /// ``Container/start()`` ended, built everything or failed (see ``StartupReport/error``).
    func containerStarted(_ report: StartupReport)
    /// ``Container/shutdown()`` ran every hook.
    func containerShutDown(_ report: ShutdownReport)
    /// The configuration source reported a change and the container applied what it could.
    func containerRefreshed(_ refresh: RefreshEvent)
    /// A ``ReloadingContainer`` read its edited manifest: put in force, or rejected.
    func containerReloaded(_ reload: ReloadEvent)
    /// A scope was made (``Container/makeScope()``, ``Container/withScope(_:)``, a request).
    func scopeOpened()
    /// A scope ended (``ContainerScope/end()``), once, before its hooks ran.
    func scopeEnded()
}

extension ContainerObserver {
    public func containerBuilt(_ build: BuildEvent) {}
    public func containerStarted(_ report: StartupReport) {}
    public func containerShutDown(_ report: ShutdownReport) {}
    public func containerRefreshed(_ refresh: RefreshEvent) {}
    public func containerReloaded(_ reload: ReloadEvent) {}
    public func scopeOpened() {}
    public func scopeEnded() {}
}

/// One build a container ran: its service, how long it took and whether it failed.
public struct BuildEvent: Sendable {
    /// The service key.
    public let service: String
    /// The named variant, if any.
    public let name: String?
    /// The service's scope.
    public let scope: Scope
    /// How long the build took, its dependencies' builds included. It ended when the observer
    /// is called.
    public let duration: Duration
    /// What the factory (or a dependency's) threw, if it failed.
    public let error: (any Error)?
    /// Whether the build ran during ``Container/start()``; such a build is also in the
    /// ``StartupReport``.
    public let duringStart: Bool

    /// `Key[name]`, as paths and messages show a service.
    public var shown: String { shownService(service, name: name) }
}
