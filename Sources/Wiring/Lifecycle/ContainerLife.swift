import Synchronization
internal import Logging

/// What shutting a container down needs, held apart from the container: its instances with
/// hooks, whether it is closed, its start and shutdown, and its children's lives. A parent
/// shuts a child down through the child's life, and holds the life, not the child.
///
/// Held apart because a parent must not hold its children, and a weak reference to a container
/// would give it a side table, sending every retain and release of the child through the
/// runtime's slow path: reading three `!service` arguments through a child then cost 1.17×
/// what it costs through its parent, against 1.0× this way (`WiringBenchmarks children`).
final class ContainerLife: Sendable {
    /// The kept instances with shutdown hooks, in construction order.
    let kept = KeptInstances()
    /// Set when shutdown begins: resolving then throws.
    let closed = Atomic<Bool>(false)
    /// The start and shutdown under way or done.
    let lifecycle = Locked(LifecycleState())
    /// The lives of the children still alive, by number.
    let children = Locked(Children())
    let shutdownTimeout: Duration
    let logger: Logger?
    /// Told about the shutdown, with its report.
    let observers: [any ContainerObserver]
    /// For a child, where it keeps its instances: dropped when its parent shuts it down, as
    /// the child's own ``Container/shutdown()`` drops them.
    private let instances: (types: ReadMostly<Container.TypeCache>, slots: ChildSlots)?

    /// Where a container is in its life.
    struct LifecycleState: Sendable {
        var start: Task<Void, any Error>?
        var shutdown: Task<ShutdownReport, Never>?
        /// The watch of the configuration source, from a successful start to shutdown.
        var watch: Task<Void, Never>?
        /// What the last start recorded, once it ended: its report is made when asked for.
        var startupRecord: (recorder: BuildRecorder, total: Duration, error: (any Error)?)?
        /// The report of the shutdown, once it ended.
        var shutdownReport: ShutdownReport?
    }

    init(shutdownTimeout: Duration, logger: Logger?, observers: [any ContainerObserver],
         instances: (types: ReadMostly<Container.TypeCache>, slots: ChildSlots)? = nil) {
        self.shutdownTimeout = shutdownTimeout
        self.logger = logger
        self.observers = observers
        self.instances = instances
    }

    /// Closes the container, cancels a start under way, shuts the children still alive down
    /// (the most recent first), then runs the hooks of the kept instances, the last built
    /// first; returns what ran. Runs once: a later call waits for the first.
    func shutDown() async -> ShutdownReport {
        await shutDownOnce().report
    }

    /// ``shutDown()``, and whether this call began it: a parent reports the hooks of the
    /// children its own shutdown shut down, not again those of a child shut down before.
    private func shutDownOnce() async -> (report: ShutdownReport, began: Bool) {
        let (task, began): (Task<ShutdownReport, Never>, Bool) = lifecycle.withLock { state in
            if let shutdown = state.shutdown { return (shutdown, false) }
            let start = state.start
            let shutdown = Task { await self.runShutdown(after: start) }
            state.shutdown = shutdown
            return (shutdown, true)
        }
        return (await task.value, began)
    }

    private func runShutdown(after start: Task<Void, any Error>?) async -> ShutdownReport {
        let clock = ReportClock()
        closed.store(true, ordering: .releasing)
        if let start {
            start.cancel()
            // Only its end is awaited: how it failed is what `start()` threw to its caller.
            _ = try? await start.value
        }
        // Nothing is refreshed once shutdown began.
        if let watch = lifecycle.withLock({ $0.watch }) {
            watch.cancel()
            await watch.value
        }
        // Children first: their instances may hold this container's.
        var hooks: [ShutdownReport.Hook] = []
        for child in children.withLock({ $0.alive }) {
            let (report, began) = await child.shutDownOnce()
            if began { hooks += report.hooks }
        }
        hooks += await KeptInstances.shutDown(kept.takeAll(), defaultTimeout: shutdownTimeout, since: clock.began)
        if let instances {
            instances.slots.resetAll()
            instances.types.write { cache in
                cache.generation += 1
                cache.instances = TypeTable()
            }
        }
        let report = ShutdownReport(began: clock.wallBegan, total: clock.elapsed, hooks: hooks)
        lifecycle.withLock { $0.shutdownReport = report }
        logger?.info("\(report.summary)")
        let failures = report.failures
        if !failures.isEmpty { logger?.error("\(ShutdownError(failures: failures))") }
        for observer in observers { observer.containerShutDown(report) }
        return report
    }
}

/// The lives of a container's children still alive, so that its shutdown shuts them down first.
struct Children {
    private var nextNumber = 0
    private var live: [Int: ContainerLife] = [:]

    /// A number for a child about to be made.
    mutating func number() -> Int {
        defer { nextNumber += 1 }
        return nextNumber
    }

    mutating func add(_ life: ContainerLife, number: Int) { live[number] = life }

    /// Called when the child goes.
    mutating func remove(_ number: Int) { live[number] = nil }

    /// The children's lives, the most recent first.
    var alive: [ContainerLife] {
        live.sorted { $0.key > $1.key }.map(\.value)
    }
}
