import Foundation
import Wiring

/// What every factory of a generated manifest reads (``ManifestGenerator``'s `args`), typed.
struct GeneratedArgs: Decodable, Sendable {
    struct Pool: Decodable, Sendable {
        var min: Int
        var max: Int
    }
    var url: String
    var region: String?
    var timeout: Int?
    var retries: Int?
    var compress: Bool?
    var pool: Pool?
    var tags: [String]?
}

/// Three arguments read per build: by `r.arg`, and as a typed struct.
struct ThreeArgs: Decodable, Sendable {
    enum Mode: String, Decodable, CaseIterable, Sendable { case fast, safe }
    var url: String
    var size: Int
    var mode: Mode
}

final class Connection: Sendable {
    let url: String, size: Int, mode: ThreeArgs.Mode
    init(url: String, size: Int, mode: ThreeArgs.Mode) { (self.url, self.size, self.mode) = (url, size, mode) }
}

struct ReferenceArgs: Decodable, Sendable {
    @Reference var shared: Shared
}

final class Holder: Sendable {
    let shared: Shared
    init(shared: Shared) { self.shared = shared }
}

/// Typed arguments: what checking and decoding every service's arguments adds to building a
/// container, and what a typed factory's build costs against the same factory reading `r.arg`.
enum ArgumentsBenchmark {
    /// A registry of the generated manifests' factories: typed (each reads `GeneratedArgs`) or
    /// reading nothing, as ``LoadingBenchmark/registry`` does.
    static func registry(typed: Bool) -> FactoryRegistry {
        let registry = FactoryRegistry()
        for index in 0..<ManifestGenerator.factories {
            if typed {
                registry.factory("factory-\(index)", args: GeneratedArgs.self) { _, _ in Shared() }
            } else {
                registry.factory("factory-\(index)") { _ in Shared() }
            }
        }
        for index in 0..<ManifestGenerator.mocks { registry.factory("mock-\(index)") { _ in Shared() } }
        return registry
    }

    /// Builds `builds` containers of a generated manifest whose factories all read typed
    /// arguments: the typed build's path, for a profiler.
    static func profile(services: Int, builds: Int) throws {
        let files = try GeneratedFiles(services: services)
        defer { files.remove() }
        let manifest = try ManifestLoader(environment: [:]).load(files.path)
        let typed = registry(typed: true)
        for _ in 0..<builds {
            _ = try Wiring.Container(manifest: manifest, registry: typed, contexts: .none, options: .init(environment: [:]))
        }
    }

    static func run(sizes: [Int], repetitions: Int, iterations: Int) throws {
        var rows: [[String]] = []
        for size in sizes {
            let files = try GeneratedFiles(services: size)
            defer { files.remove() }
            let manifest = try ManifestLoader(environment: [:]).load(files.path)
            let (untyped, typed) = (registry(typed: false), registry(typed: true))
            func build(_ registry: FactoryRegistry) throws -> Wiring.Container {
                try Wiring.Container(manifest: manifest, registry: registry, contexts: .none, options: .init(environment: [:]))
            }
            func load(_ registry: FactoryRegistry) throws -> Wiring.Container {
                try Wiring.Container(manifest: files.path, registry: registry, contexts: .none, options: .init(environment: [:]))
            }
            // A fresh registry each time: registering, and deriving each factory's schema once.
            let (measured, ratios) = try interleaved(repetitions: repetitions, [
                ("untyped build", { try build(untyped) }),
                ("typed build", { try build(typed) }),
                ("untyped load", { try load(untyped) }),
                ("typed load", { try load(typed) }),
                ("untyped, new registry", { try build(registry(typed: false)) }),
                ("typed, new registry", { try build(registry(typed: true)) }),
            ])
            let loadRatio = zip(measured[3].samples, measured[2].samples).map { $0 / $1 }.sorted()
            let freshRatio = zip(measured[5].samples, measured[4].samples).map { $0 / $1 }.sorted()
            rows.append([
                "\(size)", formatTime(measured[0].median), formatTime(measured[1].median), String(format: "%.2f×", ratios[1]),
                formatTime(measured[3].median), String(format: "%.2f×", loadRatio[loadRatio.count / 2]),
                String(format: "%.2f×", freshRatio[freshRatio.count / 2]),
            ])
        }
        printTable(["services", "build untyped", "build typed", "typed/untyped", "load+build typed", "typed/untyped",
                    "with registering"], rows)
        print("(ratios of medians over the same rounds; each typed factory's arguments are checked and decoded once per build)")
        print()
        try resolution(repetitions: repetitions, iterations: iterations)
    }

    /// A `unique` service built from three arguments, read with `r.arg` and typed; a reference
    /// read with `r.arg` and as a `@Reference` field.
    static func resolution(repetitions: Int, iterations: Int) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("wiring-bench-args-\(UUID().uuidString).yaml").path
        try """
            wiring: 1
            services:
              Shared: { factory: shared, scope: singleton }
              Connection: { factory: untyped, scope: unique, args: { url: "postgres://db", size: 8, mode: fast } }
              Holder: { factory: untyped-reference, scope: unique, args: { shared: !service Shared } }
            contexts:
              typed:
                services:
                  Connection: { factory: typed }
                  Holder: { factory: typed-reference }
            """.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let registry = FactoryRegistry()
        registry.factory("shared") { _ in Shared() }
        registry.factory("untyped") { r in
            Connection(url: try r.arg("url"), size: try r.arg("size"), mode: ThreeArgs.Mode(rawValue: try r.arg("mode")) ?? .fast)
        }
        registry.factory("typed", args: ThreeArgs.self) { _, args in Connection(url: args.url, size: args.size, mode: args.mode) }
        registry.factory("untyped-reference") { r in Holder(shared: try r.arg("shared", as: Shared.self)) }
        registry.factory("typed-reference", args: ReferenceArgs.self) { _, args in Holder(shared: args.shared) }
        let untyped = try Wiring.Container(manifest: path, registry: registry, contexts: .none, options: .init(environment: [:]))
        let typed = try Wiring.Container(manifest: path, registry: registry, contexts: .explicit("typed"), options: .init(environment: [:]))
        var rows: [[String]] = []
        for (name, type) in [("unique, 3 arguments", Connection.self as Any.Type), ("unique, 1 reference", Holder.self)] {
            let resolve: (Wiring.Container) throws -> Any = { container in
                type == Connection.self ? try container.resolve(Connection.self) : try container.resolve(Holder.self)
            }
            rows.append(try comparedRow(name, repetitions: repetitions, iterations: iterations,
                                        ("r.arg", { _ = try resolve(untyped) }), ("typed", { _ = try resolve(typed) })))
        }
        printTable(["resolve", "r.arg", "typed", "typed/r.arg"], rows)
    }
}
