#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// What a refresh did when the configuration source reported a change (see
/// <doc:Configuration>): the keys whose values changed, the services whose kept instances it
/// dropped, and the services that kept their earlier values because a new one could not be
/// used.
public struct RefreshEvent: Sendable, Codable, Hashable {
    /// When the refresh began, on the wall clock.
    public let began: Date
    /// How long applying the change took, dropped instances' shutdown hooks and eager services'
    /// rebuilds included.
    public let duration: Duration
    /// The configuration keys the manifest reads whose values changed, sorted.
    public let changedKeys: [String]
    /// The services (`Key` or `Key[name]`) whose kept instances were dropped.
    public let dropped: [String]
    /// Why a new value was not used, one message per service that kept its earlier values.
    public let rejected: [String]
    /// Shutdown hooks of dropped instances, and eager rebuilds, that failed.
    public let failures: [String]

    /// Whether every changed value was put in force.
    public var applied: Bool { rejected.isEmpty && failures.isEmpty }

    /// Creates the event a refresh reports.
    public init(began: Date, duration: Duration, changedKeys: [String], dropped: [String], rejected: [String], failures: [String]) {
        (self.began, self.duration, self.changedKeys) = (began, duration, changedKeys)
        (self.dropped, self.rejected, self.failures) = (dropped, rejected, failures)
    }

    private enum CodingKeys: String, CodingKey {
        case began, durationMilliseconds, changedKeys, dropped, rejected, failures
    }

    /// Decodes what ``encode(to:)`` wrote.
    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        began = try values.decode(Date.self, forKey: .began)
        duration = .milliseconds(try values.decode(Double.self, forKey: .durationMilliseconds))
        changedKeys = try values.decode([String].self, forKey: .changedKeys)
        dropped = try values.decode([String].self, forKey: .dropped)
        rejected = try values.decode([String].self, forKey: .rejected)
        failures = try values.decode([String].self, forKey: .failures)
    }

    /// Encodes the duration as `durationMilliseconds`, a number.
    public func encode(to encoder: any Encoder) throws {
        var values = encoder.container(keyedBy: CodingKeys.self)
        try values.encode(began, forKey: .began)
        try values.encode(duration.milliseconds, forKey: .durationMilliseconds)
        try values.encode(changedKeys, forKey: .changedKeys)
        try values.encode(dropped, forKey: .dropped)
        try values.encode(rejected, forKey: .rejected)
        try values.encode(failures, forKey: .failures)
    }
}

/// What one reload of a ``ReloadingContainer`` did: the edited manifest put in force, or
/// rejected with the reasons.
public struct ReloadEvent: Sendable, Codable, Hashable {
    /// When the reload began, on the wall clock.
    public let began: Date
    /// How long reading, binding and starting the new container took.
    public let duration: Duration
    /// Whether the new container is in force.
    public let applied: Bool
    /// Why it was rejected: the manifest's errors, each `file:line:col: error: …`, or the
    /// start's failure. Empty when applied.
    public let diagnostics: [String]

    /// Creates the event a reload reports.
    public init(began: Date, duration: Duration, applied: Bool, diagnostics: [String]) {
        (self.began, self.duration, self.applied, self.diagnostics) = (began, duration, applied, diagnostics)
    }

    private enum CodingKeys: String, CodingKey {
        case began, durationMilliseconds, applied, diagnostics
    }

    /// Decodes what ``encode(to:)`` wrote.
    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        began = try values.decode(Date.self, forKey: .began)
        duration = .milliseconds(try values.decode(Double.self, forKey: .durationMilliseconds))
        applied = try values.decode(Bool.self, forKey: .applied)
        diagnostics = try values.decode([String].self, forKey: .diagnostics)
    }

    /// Encodes the duration as `durationMilliseconds`, a number.
    public func encode(to encoder: any Encoder) throws {
        var values = encoder.container(keyedBy: CodingKeys.self)
        try values.encode(began, forKey: .began)
        try values.encode(duration.milliseconds, forKey: .durationMilliseconds)
        try values.encode(applied, forKey: .applied)
        try values.encode(diagnostics, forKey: .diagnostics)
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
