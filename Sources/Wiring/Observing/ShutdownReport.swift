#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// What ``Container/shutdown()`` ran: each shutdown hook, how long it took, and whether it
/// failed or ran past its timeout. ``Container/shutdownReport`` once a shutdown ended, and what
/// observers get in ``ContainerObserver/containerShutDown(_:)``.
///
/// ```text
/// shutdown: 3 hooks in 12 ms; slowest Pool 10 ms
/// ```
public struct ShutdownReport: Sendable, CustomStringConvertible {
    /// One shutdown hook that ran.
    public struct Hook: Sendable {
        /// The service, `Key` or `Key[name]`.
        public let service: ServiceID
        /// Where the service was declared.
        public let location: SourceLocation
        /// When the hook began, after the shutdown began.
        public let offset: Duration
        /// How long it ran (up to its timeout, for one that ran past it).
        public let duration: Duration
        /// What it threw, or ``ShutdownError/TimedOut``.
        public let error: (any Error)?

        /// Whether it ran past its timeout and was cancelled.
        public var timedOut: Bool { error is ShutdownError.TimedOut }
        /// The hook as a failure of ``ShutdownError``, if it failed.
        var failure: ShutdownError.Failure? {
            error.map { ShutdownError.Failure(service: service, location: location, error: $0) }
        }
    }

    /// When the shutdown began, on the wall clock.
    public let began: Date
    /// How long the whole shutdown took, children's included.
    public let total: Duration
    /// Every hook, in the order they ran: the last built first.
    public let hooks: [Hook]

    /// The hooks that failed or timed out, as ``ShutdownError`` lists them.
    public var failures: [ShutdownError.Failure] { hooks.compactMap(\.failure) }

    /// One line: `shutdown: 3 hooks in 12 ms; slowest Pool 10 ms`, what `shutdown()` logs.
    public var summary: String {
        let count = hooks.count == 1 ? "1 hook" : "\(hooks.count) hooks"
        var line = "shutdown: \(count) in \(total.shortDescription)"
        if let slowest = hooks.max(by: { $0.duration < $1.duration }) {
            line += "; slowest \(slowest.service) \(slowest.duration.shortDescription)"
        }
        let failed = hooks.filter { $0.error != nil }
        if !failed.isEmpty {
            let timedOut = failed.filter(\.timedOut).count
            line += "; \(failed.count) failed" + (timedOut > 0 ? " (\(timedOut) timed out)" : "")
        }
        return line
    }

    /// The summary, then one row per hook, in the order they ran.
    public var description: String {
        let rows = hooks.map { hook in
            [hook.service.description, hook.duration.shortDescription, hook.timedOut ? "timed out" : hook.error.map { "\($0)" } ?? "ok"]
        }
        return ([summary] + ReportTable.lines(["service", "time", "outcome"], rows)).joined(separator: "\n")
    }
}
