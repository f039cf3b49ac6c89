import Foundation

/// A check `/health` runs: every service tagged `health-check` in the manifest.
public protocol HealthCheck: Sendable {
    var name: String { get }
    func check() async -> Bool
}

/// Whether the note store answers.
struct StoreHealthCheck: HealthCheck {
    let store: any NoteStore
    var name: String { "store" }
    func check() async -> Bool { await store.ping() }
}

/// Whether the server has been up at least as long as the clock says: always, once started.
struct UptimeHealthCheck: HealthCheck {
    let started = ContinuousClock.now
    var name: String { "uptime" }
    func check() async -> Bool { ContinuousClock.now >= started }
}
