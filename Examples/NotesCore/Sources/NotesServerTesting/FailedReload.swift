import Foundation
import NotesCore
import Testing
import Wiring

/// A reloading container over a copy of `config/` whose last reload failed with an app error
/// that quotes a secret, as a database driver's does: what the snapshot route must serve
/// without the secret.
public enum FailedReload {
    /// The text of a secret the failed reload's error holds; a snapshot must not.
    public static let secret = "S3CRET"

    /// An app's error quoting the address it was given.
    struct CouldNotConnect: Error, CustomStringConvertible {
        let description: String
    }

    /// A connection pool, never built: its factory refuses the address.
    public final class Pool: Sendable {}

    /// Makes the container (the `test` context), starts it, adds an eager `Pool` whose
    /// factory throws `could not connect to postgres://app:S3CRET@db`, and reloads.
    public static func make() async throws -> ReloadingContainer {
        let original = "  LiveLogLevel: { factory: live-log-level"
        let config = try EditedConfig(replacing: original, with: original)
        let registry = Notes.registry()
        registry.factory("pool") { r -> Pool in
            throw CouldNotConnect(description: "could not connect to \(try r.arg("url", as: String.self))")
        }
        let wiring = try ReloadingContainer(manifest: config.services.path, registry: registry, contexts: .explicit("test"),
                                            options: .init(environment: ["HTTP_PORT": "0", "DB_PASSWORD": secret]),
                                            pollInterval: .seconds(3600))
        try await wiring.start()
        let pool = #"  Pool: { factory: pool, scope: singleton, eager: true, args: { url: "postgres://app:${DB_PASSWORD}@db" } }"#
        try config.edit(replacing: original, with: pool + "\n" + original)
        #expect(await wiring.reload() == false)
        let failure = try #require(wiring.lastReload?.failures.first)
        #expect(failure.kind == .startFailed && failure.service == "Pool")
        return wiring
    }
}
