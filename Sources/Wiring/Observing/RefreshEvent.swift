#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// What a refresh did when the configuration source reported a change (see
/// <doc:Configuration>): the keys whose values changed, the services whose kept instances it
/// dropped, and the services that kept their earlier values because a new one could not be
/// used.
///
/// Encoded with its duration as `durationMilliseconds`, a number.
public struct RefreshEvent: Sendable, Codable, Hashable {
    /// When the refresh began, on the wall clock.
    public let began: Date
    /// How long applying the change took, in milliseconds: how ``duration`` is encoded.
    let durationMilliseconds: Double
    /// The configuration keys the manifest reads whose values changed, sorted.
    public let changedKeys: [String]
    /// The services (`Key` or `Key[name]`) whose kept instances were dropped.
    public let dropped: [String]
    /// The services that kept their earlier values because a new one could not be used, and
    /// where (``ReportedFailure/Kind/valueRejected``).
    public let rejected: [ReportedFailure]
    /// Shutdown hooks of dropped instances, and eager rebuilds, that failed.
    public let failures: [ReportedFailure]

    /// How long applying the change took, dropped instances' shutdown hooks and eager services'
    /// rebuilds included.
    public var duration: Duration { .milliseconds(durationMilliseconds) }
    /// Whether every changed value was put in force.
    public var applied: Bool { rejected.isEmpty && failures.isEmpty }

    /// Creates the event a refresh reports.
    init(began: Date, duration: Duration, changedKeys: [String], dropped: [String], rejected: [ReportedFailure],
                failures: [ReportedFailure]) {
        (self.began, durationMilliseconds, self.changedKeys) = (began, duration.milliseconds, changedKeys)
        (self.dropped, self.rejected, self.failures) = (dropped, rejected, failures)
    }
}

/// What one reload of a ``ReloadingContainer`` did: the edited manifest put in force, or
/// rejected with the reasons.
///
/// Encoded with its duration as `durationMilliseconds`, a number.
public struct ReloadEvent: Sendable, Codable, Hashable {
    /// When the reload began, on the wall clock.
    public let began: Date
    /// How long the reload took, in milliseconds: how ``duration`` is encoded.
    let durationMilliseconds: Double
    /// Whether the new container is in force.
    public let applied: Bool
    /// Why it was rejected: the manifest's errors, or the new container's failed start. Empty
    /// when applied.
    public let failures: [ReportedFailure]

    /// How long reading, binding and starting the new container took.
    public var duration: Duration { .milliseconds(durationMilliseconds) }

    /// Creates the event a reload reports.
    init(began: Date, duration: Duration, applied: Bool, failures: [ReportedFailure]) {
        (self.began, durationMilliseconds, self.applied, self.failures) = (began, duration.milliseconds, applied, failures)
    }
}

extension Duration {
    /// The duration in milliseconds, fractions included: how reports show and encode it.
    var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1_000 + Double(attoseconds) / 1e15
    }

    /// `84 ms`, `1.2 s`, `350 µs`: short, for report lines.
    var shortDescription: String {
        let ms = milliseconds
        func tenths(_ value: Double) -> String {
            let count = Int((value * 10).rounded())
            return "\(count / 10).\(count % 10)"
        }
        if ms >= 1_000 { return tenths(ms / 1_000) + " s" }
        if ms >= 10 { return "\(Int(ms.rounded())) ms" }
        if ms >= 1 { return tenths(ms) + " ms" }
        return "\(Int((ms * 1_000).rounded())) µs"
    }
}
