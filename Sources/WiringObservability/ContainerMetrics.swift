#if Observability
import Metrics
public import Wiring

/// A container's builds, open scopes, refreshes and reloads as metrics of the process's
/// metrics backend (`MetricsSystem`, bootstrapped by the app: swift-prometheus, swift-otel, …).
///
/// ```swift
/// var options = Container.Options()
/// options.observers = [ContainerMetrics(slowBuildThreshold: .milliseconds(50))]
/// ```
///
/// The metrics, their dimensions of bounded values only, with the `wiring.` prefix the
/// spans' attributes have:
/// - `wiring.builds`, a counter by `wiring.scope`: every build during start, and each build of
///   an instance to keep after it (`unique` and `graph` builds after start are the resolves
///   themselves, and are not counted);
/// - `wiring.build.duration`, a timer in seconds by `wiring.scope`, of each build's own time
///   (without the builds it asked for, which are timed on their own): builds during start, and
///   builds after it whose own time passed ``slowBuildThreshold``. With ``serviceDimension``,
///   also by `wiring.service`: a series per service and scope, and new ones when a service is
///   renamed, which a backend such as Prometheus keeps until the process ends;
/// - `wiring.scopes.open`, a meter: the scopes made and not yet ended, incremented and
///   decremented, so that several containers (and several observers) add up;
/// - `wiring.refreshes` and `wiring.reloads`, counters by `wiring.result` (`applied` or
///   `rejected`).
///
/// Each metric is made from the process's `MetricsSystem` when it is recorded, so an observer
/// made before the app bootstraps its backend records into that backend.
public struct ContainerMetrics: ContainerObserver {
    /// Builds after start whose own time passes this are timed; `nil`: none are.
    public let slowBuildThreshold: Duration?
    /// Whether `wiring.build.duration` has a `wiring.service` dimension too.
    public let serviceDimension: Bool

    /// Metrics through the process's `MetricsSystem`.
    ///
    /// - Parameters:
    ///   - slowBuildThreshold: Builds after start whose own time passes it are timed too.
    ///   - serviceDimension: Whether `wiring.build.duration` is also by service: one series
    ///     per service, worth it for a few services, not for hundreds.
    public init(slowBuildThreshold: Duration? = nil, serviceDimension: Bool = false) {
        self.slowBuildThreshold = slowBuildThreshold
        self.serviceDimension = serviceDimension
    }

    /// Counts the build in `wiring.builds`, and times it in `wiring.build.duration` when it ran
    /// during start or passed ``slowBuildThreshold``.
    public func containerBuilt(_ build: BuildEvent) {
        let scope = ("wiring.scope", build.scope.description)
        Counter(label: "wiring.builds", dimensions: [scope]).increment()
        guard build.duringStart || slowBuildThreshold.map({ build.duration > $0 }) == true else { return }
        let dimensions = serviceDimension ? [scope, ("wiring.service", build.service.description)] : [scope]
        let (seconds, attoseconds) = build.duration.components
        Metrics.Timer(label: "wiring.build.duration", dimensions: dimensions, preferredDisplayUnit: .seconds)
            .recordNanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }

    /// Increments `wiring.scopes.open`.
    public func scopeOpened() {
        Meter(label: "wiring.scopes.open").increment()
    }

    /// Decrements `wiring.scopes.open`.
    public func scopeEnded() {
        Meter(label: "wiring.scopes.open").decrement()
    }

    /// Counts the refresh in `wiring.refreshes`, by whether it was applied.
    public func containerRefreshed(_ refresh: RefreshEvent) {
        Counter(label: "wiring.refreshes", dimensions: [("wiring.result", refresh.applied ? "applied" : "rejected")]).increment()
    }

    /// Counts the reload in `wiring.reloads`, by whether it was applied.
    public func containerReloaded(_ reload: ReloadEvent) {
        Counter(label: "wiring.reloads", dimensions: [("wiring.result", reload.applied ? "applied" : "rejected")]).increment()
    }
}
#endif
