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

    /// Runs the work of ``Container/start()``: a tracer makes its start span the current one
    /// while `body` runs, so that the spans of the builds below it are its children. The
    /// default runs `body`.
    ///
    /// Like the async `observingBuild`, it runs on its caller's executor
    /// (`nonisolated(nonsending)`): an implementation must say so too, or be compiled with the
    /// `NonisolatedNonsendingByDefault` feature, to be the one the container calls.
    nonisolated(nonsending) func observingStart<E: Error>(_ body: nonisolated(nonsending) () async throws(E) -> Void) async throws(E)
    /// Runs a synchronous build during ``Container/start()``, its factory and the builds it
    /// asks for: a tracer makes the build's span the current one while `body` runs, so that a
    /// span the factory makes is its child. The default runs `body`. Builds after start are
    /// not run through it: a resolve pays nothing for an observer that traces.
    func observingBuild<R, E: Error>(_ build: BuildStart, _ body: () throws(E) -> R) throws(E) -> R
    /// Runs an async build during ``Container/start()``, as the synchronous form does.
    nonisolated(nonsending) func observingBuild<R, E: Error>(
        _ build: BuildStart, _ body: nonisolated(nonsending) () async throws(E) -> R
    ) async throws(E) -> R
}

/// What an observer that leaves a requirement out does: nothing, and it runs the work it is
/// handed as it is.
extension ContainerObserver {
    /// Does nothing.
    public func containerBuilt(_ build: BuildEvent) {}
    /// Does nothing.
    public func containerStarted(_ report: StartupReport) {}
    /// Does nothing.
    public func containerShutDown(_ report: ShutdownReport) {}
    /// Does nothing.
    public func containerRefreshed(_ refresh: RefreshEvent) {}
    /// Does nothing.
    public func containerReloaded(_ reload: ReloadEvent) {}
    /// Does nothing.
    public func scopeOpened() {}
    /// Does nothing.
    public func scopeEnded() {}
    /// Runs the start.
    public nonisolated(nonsending) func observingStart<E: Error>(
        _ body: nonisolated(nonsending) () async throws(E) -> Void
    ) async throws(E) {
        try await body()
    }
    /// Runs the build.
    public func observingBuild<R, E: Error>(_ build: BuildStart, _ body: () throws(E) -> R) throws(E) -> R { try body() }
    /// Runs the build.
    public nonisolated(nonsending) func observingBuild<R, E: Error>(
        _ build: BuildStart, _ body: nonisolated(nonsending) () async throws(E) -> R
    ) async throws(E) -> R {
        try await body()
    }
}

/// A build that begins during ``Container/start()``: what an observer's `observingBuild` is
/// told of it.
public struct BuildStart: Sendable {
    /// The service, `Key` or `Key[name]`.
    public let service: ServiceID
    /// The service's scope.
    public let scope: Scope
}

/// One build a container ran: its service, how long it took and whether it failed.
public struct BuildEvent: Sendable {
    /// The service, `Key` or `Key[name]`.
    public let service: ServiceID
    /// The service's scope.
    public let scope: Scope
    /// How long the build's own work took: its ``elapsed`` time without the builds of
    /// instances to keep it asked for (each reported on its own) nor its waits for another
    /// task's build of a dependency, as a ``StartupReport/Build/duration`` is.
    public let duration: Duration
    /// How long the build took from its start to its end, its dependencies' builds included.
    /// It ended when the observer is called.
    public let elapsed: Duration
    /// What the factory (or a dependency's) threw, if it failed.
    public let error: (any Error)?
    /// Whether the build ran during ``Container/start()``; such a build is also in the
    /// ``StartupReport``.
    public let duringStart: Bool
}
