#if Observability
import Metrics
import Synchronization
public import Wiring

/// A container's builds, open scopes, refreshes and reloads as metrics of the process's
/// metrics backend (`MetricsSystem`, bootstrapped by the app: swift-prometheus, swift-otel, …).
///
/// ```swift
/// var options = Container.Options()
/// options.observers = [ContainerMetrics(slowBuildThreshold: .milliseconds(50))]
/// ```
///
/// The metrics:
/// - `wiring.builds`, a counter with the dimension `scope`: every build during start, and each
///   build of an instance to keep after it (`unique` and `graph` builds after start are the
///   resolves themselves, and are not counted);
/// - `wiring.build.duration`, a timer with the dimension `service`: builds during start, and
///   builds after it that took longer than ``slowBuildThreshold``;
/// - `wiring.scopes.open`, a gauge: the scopes made and not yet ended, over every container
///   this observer watches;
/// - `wiring.refreshes` and `wiring.reloads`, counters with the dimension `result`
///   (`applied` or `rejected`).
public final class ContainerMetrics: ContainerObserver {
    /// Builds after start that take longer than this are timed; `nil`: none are.
    public let slowBuildThreshold: Duration?
    private let openScopes = Atomic<Int>(0)
    private let scopes: Gauge

    /// Metrics through the process's `MetricsSystem`; with `slowBuildThreshold`, slow builds
    /// after start are timed too.
    public init(slowBuildThreshold: Duration? = nil) {
        self.slowBuildThreshold = slowBuildThreshold
        scopes = Gauge(label: "wiring.scopes.open")
    }

    public func containerBuilt(_ build: BuildEvent) {
        Counter(label: "wiring.builds", dimensions: [("scope", build.scope.description)]).increment()
        guard build.duringStart || slowBuildThreshold.map({ build.duration > $0 }) == true else { return }
        let (seconds, attoseconds) = build.duration.components
        Metrics.Timer(label: "wiring.build.duration", dimensions: [("service", build.shown)])
            .recordNanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }

    public func scopeOpened() {
        scopes.record(openScopes.add(1, ordering: .relaxed).newValue)
    }

    public func scopeEnded() {
        scopes.record(openScopes.subtract(1, ordering: .relaxed).newValue)
    }

    public func containerRefreshed(_ refresh: RefreshEvent) {
        Counter(label: "wiring.refreshes", dimensions: [("result", refresh.applied ? "applied" : "rejected")]).increment()
    }

    public func containerReloaded(_ reload: ReloadEvent) {
        Counter(label: "wiring.reloads", dimensions: [("result", reload.applied ? "applied" : "rejected")]).increment()
    }
}
#endif
