import Foundation
import Testing
@testable import Wiring

/// The snapshot is served over HTTP: what it carries of a failure is structured, and no text an
/// app's error holds (a value from the environment, a configuration source or a `!secret`) ever
/// reaches it, through a refresh or a reload.
@Suite("Snapshot without app text")
struct SnapshotSecretsTests {
    /// An app's error that quotes what it was given, as a driver's does.
    struct AppError: Error, CustomStringConvertible {
        let description: String
    }

    final class Pool: Sendable {}
    final class Cache: Sendable {}
    final class Typed: Sendable {}

    /// A mode an app's `init(from:)` checks, quoting the value it rejects.
    struct ModeArgs: Decodable, Sendable {
        let mode: String
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let mode = try container.decode(String.self, forKey: .mode)
            guard !mode.contains("S3CRET") else {
                throw DecodingError.dataCorruptedError(forKey: .mode, in: container, debugDescription: "unknown mode \(mode)")
            }
            self.mode = mode
        }
        enum CodingKeys: String, CodingKey { case mode }
    }

    /// A host an app's `init(from:)` checks, throwing an error of its own that quotes the value.
    struct HostArgs: Decodable, Sendable {
        init(from decoder: any Decoder) throws {
            let host = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .host)
            throw AppError(description: "bad host \(host)")
        }
        enum CodingKeys: String, CodingKey { case host }
    }

    static let secrets = ["S3CRET-CONF", "S3CRET-TAG", "S3CRET-MODE", "S3CRET-ENV", "/tmp/"]

    /// What of `secrets` the JSON holds.
    static func leaked(_ json: Data) -> [String] {
        let text = String(decoding: json, as: UTF8.self)
        return secrets.filter(text.contains)
    }

    static func registry() -> FactoryRegistry {
        let registry = FactoryRegistry()
        registry.factory("pool") { r in
            let url: String = try r.arg("url")
            if url.contains("S3CRET") { throw AppError(description: "could not connect to \(url)") }
            return Pool()
        }
        registry.factory("cache") { _ in Cache() }.onShutdown { (_: Cache) in
            throw AppError(description: "could not flush the cache keyed S3CRET-TAG")
        }
        registry.factory("typed", args: ModeArgs.self) { _, _ in Typed() }
        registry.factory("host", args: HostArgs.self) { _, _ in Typed() }
        registry.factory("failing") { r in
            throw AppError(description: "could not reach \(try r.arg("url", as: String.self))")
        }
        return registry
    }

    @Test func aRefreshShowsWhatFailedButNoValue() async throws {
        let source = RefreshTests.MutableSource(["db.url": .string("postgres://db"), "cache.size": .int(1), "mode": .string("fast")])
        let path = try TestSupport.temporaryFile("""
            wiring: 1
            services:
              Pool: { factory: pool, scope: cached, eager: true, args: { url: "${db.url}" } }
              Cache: { factory: cache, scope: cached, args: { key: !secret "S3CRET-TAG", size: "${cache.size}" } }
              Typed: { factory: typed, scope: cached, args: { mode: "${mode}" } }
            """, name: "services.yaml")
        let container = try Container(manifest: path, registry: Self.registry(), contexts: .none,
                                      options: .init(environment: [:], configuration: source))
        try await container.start()
        _ = try await container.resolve(Cache.self)

        source.set("db.url", .string("postgres://app:S3CRET-CONF@db"))
        try await source.settle()
        let rebuild = try #require(container.snapshot().lastRefresh?.failures.first)
        #expect(rebuild == ReportedFailure(.rebuildFailed, service: "Pool", errorType: "AppError", location: "services.yaml:3:3"))

        source.set("cache.size", .int(2))
        try await source.settle()
        let hook = try #require(container.snapshot().lastRefresh?.failures.first)
        #expect(hook == ReportedFailure(.shutdownHookFailed, service: "Cache", errorType: "AppError", location: "services.yaml:4:3"))
        #expect(Self.leaked(try container.snapshot().json()).isEmpty)

        source.set("mode", .string("S3CRET-MODE"))
        try await source.settle()
        let refresh = try #require(container.snapshot().lastRefresh)
        #expect(refresh.rejected.map(\.kind) == [.valueRejected] && refresh.rejected.first?.service == "Typed")
        #expect(Self.leaked(try container.snapshot().json()).isEmpty)
        try await container.shutdown()
    }

    @Test func aReloadShowsWhatFailedButNoValue() async throws {
        let folder = try TestSupport.temporaryFolder()
        let path = folder.appendingPathComponent("services.yaml").path
        try "wiring: 1\nservices:\n  Pool: { factory: pool, scope: singleton, args: { url: postgres://db } }\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        let wiring = try ReloadingContainer(manifest: path, registry: Self.registry(), contexts: .none,
                                            options: .init(environment: ["DATABASE_URL": "postgres://app:S3CRET-ENV@db"]),
                                            pollInterval: .seconds(3_600))
        try await wiring.start()

        try """
            wiring: 1
            services:
              Pool: { factory: pool, scope: singleton, args: { url: postgres://db } }
              Reporter: { factory: failing, scope: singleton, eager: true, args: { url: "${DATABASE_URL}" } }
            """.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(await wiring.reload() == false)
        let failed = try #require(wiring.lastReload?.failures.first)
        #expect(failed == ReportedFailure(.startFailed, service: "Reporter", errorType: "AppError", location: "services.yaml:4:3"))
        #expect(Self.leaked(try wiring.snapshot().json()).isEmpty)

        try "wiring: 1\nservices:\n  Pool: { factory: pool, scope: singleton, args: { url: ${DATABASE_URL }\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        #expect(await wiring.reload() == false)
        let broken = try #require(wiring.lastReload?.failures.first)
        #expect(broken.kind == .manifestError && broken.location?.hasPrefix("services.yaml:") == true && broken.message != nil)
        #expect(Self.leaked(try wiring.snapshot().json()).isEmpty)

        // Arguments an app's `init(from:)` rejects, quoting the environment's value: in a
        // `DecodingError`, and in an error of its own.
        for (factory, field) in [("typed", "mode"), ("host", "host")] {
            try "wiring: 1\nservices:\n  Typed: { factory: \(factory), scope: singleton, args: { \(field): \"${DATABASE_URL}\" } }\n"
                .write(toFile: path, atomically: true, encoding: .utf8)
            #expect(await wiring.reload() == false)
            let rejected = try #require(wiring.lastReload?.failures.first)
            #expect(rejected.kind == .manifestError && rejected.location == "services.yaml:3:3" || rejected.location?.hasPrefix("services.yaml:3:") == true)
            #expect(Self.leaked(try wiring.snapshot().json()).isEmpty, "\(factory): \(rejected)")
        }
        try await wiring.shutdown()
    }
}
