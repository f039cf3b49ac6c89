import Foundation
import Testing
@testable import Wiring

/// Overrides that read the service's `args` as a `Decodable` type, checked when the child is made.
@Suite("Typed overrides")
struct TypedOverrideTests {
    struct PoolArgs: Decodable, Sendable {
        enum Mode: String, Decodable, CaseIterable, Sendable { case fast, safe }
        var size: Int
        var mode: Mode
    }

    /// Reads `size` as a flag: not what the manifest says.
    struct FlagArgs: Decodable, Sendable {
        var size: Bool
    }

    final class FakePool: Sendable {
        let size: Int
        let mode: PoolArgs.Mode
        init(size: Int, mode: PoolArgs.Mode) { (self.size, self.mode) = (size, mode) }
    }

    static func container() throws -> (Container, folder: String) {
        let registry = FactoryRegistry()
        registry.factory("pool", args: PoolArgs.self) { _, args in FakePool(size: args.size * 100, mode: args.mode) }
        let path = try TestSupport.temporaryFile("""
            wiring: 1
            services:
              FakePool:
                factory: pool
                scope: singleton
                args: { size: 8, mode: safe }
            """, name: "services.yaml")
        let container = try Container(manifest: path, registry: registry, contexts: .none, options: .init(environment: [:]))
        return (container, String(path.dropLast("services.yaml".count)))
    }

    @Test func aTypedOverrideReadsTheServicesArguments() throws {
        let (container, _) = try Self.container()
        let child = try container.child { overrides in
            overrides.override(FakePool.self, args: PoolArgs.self) { _, args in FakePool(size: args.size, mode: args.mode) }
        }
        let pool = try child.resolve(FakePool.self)
        #expect(pool.size == 8)
        #expect(pool.mode == .safe)
        #expect(try container.resolve(FakePool.self).size == 800)
    }

    @Test func argumentsThatDoNotReadAsTheOverridesTypeStopTheChildAtTheManifestsLine() throws {
        let (container, folder) = try Self.container()
        do {
            _ = try container.child { overrides in
                overrides.override(FakePool.self, args: FlagArgs.self) { _, _ in FakePool(size: 0, mode: .fast) }
            }
            Issue.record("the child was made")
        } catch let error as ManifestError {
            let diagnostic = try #require(error.diagnostics.first)
            #expect(diagnostic.headline.replacingOccurrences(of: folder, with: "")
                .hasPrefix("services.yaml:6:19: error: service FakePool: argument 'size':"))
            #expect(diagnostic.notes.first?.message.hasPrefix("read by factory 'override at WiringTests/TypedOverrideTests.swift:") == true)
        }
    }

    /// The forms an override has for a service named by its type also exist for one named by
    /// its key, and the typed forms exist for an actor-isolated closure too.
    @Test func everyFormOfOverrideWorksByTypeAndByKey() async throws {
        let (container, _) = try Self.container()
        let forms: [(String, (Container.Overrides) -> Void)] = [
            ("type, typed, isolated", { $0.override(FakePool.self, args: PoolArgs.self) { @MainActor _, args in FakePool(size: args.size + 1, mode: .fast) } }),
            ("key, plain", { $0.override(key: "FakePool") { _ in FakePool(size: 2, mode: .fast) } }),
            ("key, typed", { $0.override(key: "FakePool", args: PoolArgs.self) { _, args in FakePool(size: args.size + 2, mode: .fast) } }),
            ("key, typed, async", { $0.override(key: "FakePool", args: PoolArgs.self) { _, args in
                await Task.yield()
                return FakePool(size: args.size + 3, mode: .fast)
            } }),
            ("key, typed, isolated", { $0.override(key: "FakePool", args: PoolArgs.self) { @MainActor _, args in FakePool(size: args.size + 4, mode: .fast) } }),
            ("key, instance", { $0.override(key: "FakePool", with: FakePool(size: 5, mode: .fast)) }),
        ]
        let expected = [9, 2, 10, 11, 12, 5]
        for ((form, write), size) in zip(forms, expected) {
            let child = try container.child(write)
            #expect(try await child.resolve(FakePool.self).size == size, "\(form)")
            try await child.shutdown()
        }
    }
}
