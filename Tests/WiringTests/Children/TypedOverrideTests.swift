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

    /// Every form of override, by type and by key: plain, asynchronous, actor-isolated, each
    /// also typed, and an instance. The asynchronous and isolated ones resolve with `await`
    /// only; a synchronous resolve says so.
    @Test func everyFormOfOverrideWorksByTypeAndByKey() async throws {
        let (container, _) = try Self.container()
        let forms: [(form: String, needsAwait: Bool, size: Int, write: (Container.Overrides) -> Void)] = [
            ("type, plain", false, 1, { $0.override(FakePool.self) { _ in FakePool(size: 1, mode: .fast) } }),
            ("type, async", true, 2, { $0.override(FakePool.self) { _ in
                await Task.yield()
                return FakePool(size: 2, mode: .fast)
            } }),
            ("type, isolated", true, 3, { $0.override(FakePool.self) { @MainActor _ in FakePool(size: 3, mode: .fast) } }),
            ("type, typed", false, 12, { $0.override(FakePool.self, args: PoolArgs.self) { _, args in FakePool(size: args.size + 4, mode: .fast) } }),
            ("type, typed, async", true, 13, { $0.override(FakePool.self, args: PoolArgs.self) { _, args in
                await Task.yield()
                return FakePool(size: args.size + 5, mode: .fast)
            } }),
            ("type, typed, isolated", true, 9, { $0.override(FakePool.self, args: PoolArgs.self) { @MainActor _, args in FakePool(size: args.size + 1, mode: .fast) } }),
            ("type, instance", false, 6, { $0.override(FakePool.self, with: FakePool(size: 6, mode: .fast)) }),
            ("key, plain", false, 2, { $0.override(key: "FakePool") { _ in FakePool(size: 2, mode: .fast) } }),
            ("key, async", true, 7, { $0.override(key: "FakePool") { _ in
                await Task.yield()
                return FakePool(size: 7, mode: .fast)
            } }),
            ("key, isolated", true, 8, { $0.override(key: "FakePool") { @MainActor _ in FakePool(size: 8, mode: .fast) } }),
            ("key, typed", false, 10, { $0.override(key: "FakePool", args: PoolArgs.self) { _, args in FakePool(size: args.size + 2, mode: .fast) } }),
            ("key, typed, async", true, 11, { $0.override(key: "FakePool", args: PoolArgs.self) { _, args in
                await Task.yield()
                return FakePool(size: args.size + 3, mode: .fast)
            } }),
            ("key, typed, isolated", true, 12, { $0.override(key: "FakePool", args: PoolArgs.self) { @MainActor _, args in FakePool(size: args.size + 4, mode: .fast) } }),
            ("key, instance", false, 5, { $0.override(key: "FakePool", with: FakePool(size: 5, mode: .fast)) }),
        ]
        let resolveNow: (Container) throws -> FakePool = { try $0.resolve(FakePool.self) }
        for (form, needsAwait, size, write) in forms {
            let child = try container.child(write)
            if needsAwait {
                let error = #expect(throws: ResolutionError.self, "\(form)") { try resolveNow(child) }
                #expect(error.map { if case .awaitRequired = $0.kind { true } else { false } } == true, "\(form)")
            } else {
                #expect(try resolveNow(child).size == size, "\(form)")
            }
            #expect(try await child.resolve(FakePool.self).size == size, "\(form)")
            #expect(try await container.resolve(FakePool.self).size == 800, "\(form)")
            try await child.shutdown()
        }
    }

    /// Every form of adding a service the manifest does not declare: plain, asynchronous and
    /// actor-isolated, kept as its scope says.
    @Test func everyFormOfAdditionBuildsTheService() async throws {
        final class Extra: Sendable {
            let form: String
            init(_ form: String) { self.form = form }
        }
        let (container, _) = try Self.container()
        let forms: [(form: String, needsAwait: Bool, write: (Container.Overrides) -> Void)] = [
            ("plain", false, { $0.add(Extra.self) { _ in Extra("plain") } }),
            ("async", true, { $0.add(Extra.self) { _ in
                await Task.yield()
                return Extra("async")
            } }),
            ("isolated", true, { $0.add(Extra.self, scope: .unique) { @MainActor _ in Extra("isolated") } }),
        ]
        let resolveNow: (Container) throws -> Extra = { try $0.resolve(Extra.self) }
        for (form, needsAwait, write) in forms {
            let child = try container.child(write)
            if needsAwait {
                #expect(throws: ResolutionError.self, "\(form)") { try resolveNow(child) }
            } else {
                #expect(try resolveNow(child).form == form)
            }
            let extra = try await child.resolve(Extra.self)
            #expect(extra.form == form)
            // `singleton` by default: one per child; `unique` builds anew.
            #expect(try await child.resolve(Extra.self) === extra ? form != "isolated" : form == "isolated", "\(form)")
            #expect(!container.isDeclared(Extra.self))
            try await child.shutdown()
        }
    }
}
