import Foundation
import Testing
@testable import Wiring

/// `${key}` read from a container's configuration source (the seam WiringConfiguration's
/// reader plugs into), with a source of the test's own.
@Suite("Configuration source")
struct ConfigurationSourceTests {
    /// Values by key; a key in `failing` throws.
    struct Values: ConfigurationSource {
        var values: [String: ConfigurationValue]
        var failing: Set<String> = []
        struct ProviderDown: Error, CustomStringConvertible { var description: String { "the provider is down" } }
        func value(forKey key: String) throws -> ConfigurationValue? {
            if failing.contains(key) { throw ProviderDown() }
            return values[key]
        }
    }

    struct Limits: Decodable, Sendable {
        var size: Int
        var ratio: Double
        var enabled: Bool
        var hosts: [String]
    }

    /// A source that records what it is asked: "key as type" ("any" when untyped).
    final class Recording: WatchableConfigurationSource, @unchecked Sendable {
        let values = Locked<[String: ConfigurationValue]>([:])
        let asked = Locked<[String]>([])
        func value(forKey key: String) -> ConfigurationValue? { value(forKey: key, as: nil) }
        func value(forKey key: String, as type: ConfigurationType?) -> ConfigurationValue? {
            asked.withLock { $0.append("\(key) as \(type.map { "\($0)" } ?? "any")") }
            return values.withLock { $0[key] }
        }
        func watch(_ update: @Sendable (_ current: any ConfigurationSource) async -> Void) async throws {}
    }

    func container(_ yaml: String, _ source: Values) throws -> Container {
        let registry = FactoryRegistry()
        registry.factory("limits", args: Limits.self) { _, args in args.size }
        registry.factory("text") { r in try r.arg("text", as: String.self) }
        registry.factory("port") { r in try r.arg("port", as: Int.self) }
        return try Container(manifest: try TestSupport.temporaryFile(yaml, name: "services.yaml"), registry: registry, contexts: .none,
                             options: .init(environment: ["pool.size": "1"], configuration: source))
    }

    @Test func aWholeKeyKeepsItsTypeAndTheEnvironmentIsNotRead() throws {
        let source = Values(values: ["pool.size": .int(8), "pool.ratio": .double(0.5), "pool.enabled": .bool(true),
                                     "pool.hosts": .list([.string("a"), .string("b")])])
        let container = try container("""
            wiring: 1
            services:
              Int: { factory: limits, scope: singleton, args: { size: "${pool.size}", ratio: "${pool.ratio}", enabled: "${pool.enabled}", hosts: "${pool.hosts}" } }
              String: { factory: text, scope: singleton, args: { text: "${pool.size} of ${pool.hosts.count:-?}" } }
            """, source)
        #expect(try container.resolve(Int.self) == 8)
        #expect(try container.resolve(String.self) == "8 of ?")
    }

    @Test func missingAndFailingKeysAreErrorsAtTheirValuesNamingTheKey() throws {
        let source = Values(values: ["pool.size": .int(1), "pool.ratio": .double(1), "pool.enabled": .bool(false)], failing: ["pool.hosts"])
        let error = #expect(throws: ManifestError.self) {
            try container("""
                wiring: 1
                services:
                  Int: { factory: limits, scope: singleton, args: { size: "${pool.size}", ratio: "${pool.ratio}", enabled: "${pool.enabled}", hosts: "${pool.hosts}" } }
                  String: { factory: text, scope: singleton, args: { text: "${pool.name}" } }
                """, source)
        }
        #expect(error?.errors.map(\.message) == [
            "configuration key 'pool.hosts': the provider is down",
            "configuration key 'pool.name' is not set and has no default",
        ])
        #expect(error?.errors.map { $0.location?.line } == [3, 4])
    }

    /// A list is a whole value: written inside a string, it is an error at that value.
    @Test func aListKeyInsideAStringIsAnErrorAtItsValue() throws {
        let source = Values(values: ["pool.hosts": .list([.string("a"), .string("b")])])
        let error = #expect(throws: ManifestError.self) {
            try container("""
                wiring: 1
                services:
                  String: { factory: text, scope: singleton, args: { text: "hosts: ${pool.hosts}" } }
                """, source)
        }
        #expect(error?.errors.map(\.message) == ["configuration key 'pool.hosts' is a list and cannot be part of a string"])
        #expect(error?.errors.first?.location.map { [$0.line, $0.column] } == [3, 60])
    }

    @Test func aValueOfTheWrongTypeIsNamedByItsKeyNeverShown() throws {
        let source = Values(values: ["pool.size": .string("lots-and-lots"), "pool.ratio": .double(1), "pool.enabled": .bool(false),
                                     "pool.hosts": .list([])])
        let error = #expect(throws: ManifestError.self) {
            try container("""
                wiring: 1
                services:
                  Int: { factory: limits, scope: singleton, args: { size: "${pool.size}", ratio: "${pool.ratio}", enabled: "${pool.enabled}", hosts: "${pool.hosts}" } }
                """, source)
        }
        let message = try #require(error?.errors.first?.message)
        #expect(message.hasPrefix("service Int: argument 'size': "), "\(message)")
        #expect(message.contains("configuration key 'pool.size'"), "\(message)")
        #expect(error?.description.contains("lots-and-lots") == false)
    }

    @Test func aKeyMissingInAContextThatDoesNotApplyIsNoError() throws {
        let yaml = """
            wiring: 1
            services:
              String: { factory: text, scope: singleton, args: { text: "${pool.name:-base}" } }
            contexts:
              production:
                services:
                  String: { args: { text: "${pool.name}" } }
            """
        let path = try TestSupport.temporaryFile(yaml, name: "services.yaml")
        let registry = FactoryRegistry()
        registry.factory("text") { r in try r.arg("text", as: String.self) }
        func make(_ contexts: ContextSelection) throws -> Container {
            try Container(manifest: path, registry: registry, contexts: contexts, options: .init(environment: [:], configuration: Values(values: [:])))
        }
        let container = try make(.none)
        #expect(try container.resolve(String.self) == "base")
        #expect(container.manifest.diagnostics.map(\.message).filter { $0.contains("is not set") } == [
            "configuration key 'pool.name' is not set and has no default (context 'production'); building a container with that context will fail unless it is set",
        ])
        let error = #expect(throws: ManifestError.self) { try make(.explicit("production")) }
        #expect(error?.errors.map(\.headline) == ["\(path):7:31: error: configuration key 'pool.name' is not set and has no default"])
    }

    /// A value of the wrong type read through `r.arg` names the key it came from, as a typed
    /// argument's check does, and never shows the value; through a parameter too.
    @Test func aWrongTypeReadThroughArgNamesTheKeyNotTheValue() throws {
        let container = try container("""
            wiring: 1
            parameters:
              port: "${http.port}"
            services:
              Int: { factory: port, args: { port: "${http.port}" } }
              Port: { factory: port, implements: [], args: { port: "$(port)" } }
            """, Values(values: ["http.port": .string("eighty-secret")]))
        for key in ["Int", "Port"] {
            let error = #expect(throws: ResolutionError.self) { try container.resolve(key: key) }
            let message = "\(error.map { "\($0)" } ?? "")"
            #expect(message.contains("argument 'port' of service \(key): expected an integer, found a string from configuration key 'http.port'"), "\(message)")
            #expect(!message.contains("eighty-secret"))
        }
    }

    /// What a refresh asks the source: each key once a snapshot, as the type the typed field
    /// reading it whole needs (through a parameter too); a key only `r.arg` reads, untyped.
    @Test func aRefreshAsksEachKeyOnceAsTheTypeItsTypedReaderNeeds() async throws {
        let source = Recording()
        source.values.withLock {
            $0 = ["pool.size": .int(8), "pool.ratio": .double(0.5), "pool.enabled": .bool(true),
                  "pool.hosts": .list([.string("a")]), "greeting": .string("hi")]
        }
        let registry = FactoryRegistry()
        registry.factory("limits", args: Limits.self) { _, args in args.size }
        registry.factory("text") { r in try r.arg("text", as: String.self) }
        let container = try Container(manifest: try TestSupport.temporaryFile("""
            wiring: 1
            parameters:
              ratio: "${pool.ratio}"
            services:
              Int: { factory: limits, scope: cached, args: { size: "${pool.size}", ratio: "$(ratio)", enabled: "${pool.enabled}", hosts: "${pool.hosts}" } }
              String: { factory: text, scope: cached, args: { text: "${greeting}" } }
            """, name: "services.yaml"), registry: registry, contexts: .none, options: .init(environment: [:], configuration: source))
        #expect(try await container.resolve(key: "Int") as? Int == 8)
        source.asked.withLock { $0 = [] }
        source.values.withLock { $0["pool.size"] = .int(9); $0["greeting"] = .string("hello") }
        await container.refresh(from: source)
        #expect(source.asked.withLock { $0.sorted() } == [
            "greeting as any", "pool.enabled as bool", "pool.hosts as stringList", "pool.ratio as double", "pool.size as int",
        ])
        #expect(try await container.resolve(key: "Int") as? Int == 9)
    }

    /// What building a container asks the source: each key once however many files, services,
    /// parameters and contexts read it, as the type of the typed field reading it whole with the
    /// chosen contexts applied; a key read only by `r.arg`, or only in a context that does not
    /// apply, untyped. The same of a manifest reload.
    @Test func aBuildAsksEachKeyOnceAsTheTypeItsTypedReaderNeeds() async throws {
        let source = Recording()
        source.values.withLock {
            $0 = ["pool.size": .int(8), "pool.ratio": .double(0.5), "pool.enabled": .bool(true),
                  "pool.hosts": .list([.string("a")]), "greeting": .string("hi"), "staging.only": .int(1)]
        }
        let registry = FactoryRegistry()
        registry.factory("limits", args: Limits.self) { _, args in args.size }
        registry.factory("text") { r in try r.arg("text", as: String.self) }
        let folder = try TestSupport.temporaryFolder()
        try Data("""
            wiring: 1
            parameters:
              ratio: "${pool.ratio}"
            services:
              Int: { factory: limits, args: { size: "${pool.size}", ratio: "$(ratio)", enabled: "${pool.enabled}", hosts: "${pool.hosts}" } }
              String: { factory: text, args: { text: "${greeting}" } }
            """.utf8).write(to: folder.appendingPathComponent("more.yaml"))
        try Data("""
            wiring: 1
            services:
              Int: { names: { other: { factory: limits, args: { size: "${pool.size}", ratio: 1, enabled: "${pool.enabled}", hosts: [] } } } }
              String: { names: { other: { args: { text: "${greeting} again" } } } }
            """.utf8).write(to: folder.appendingPathComponent("services.production.yaml"))
        try Data("""
            wiring: 1
            services:
              String: { args: { text: "${staging.only}" } }
            """.utf8).write(to: folder.appendingPathComponent("services.staging.yaml"))
        let root = folder.appendingPathComponent("services.yaml").path
        try Data("""
            wiring: 1
            imports: [more.yaml]
            parameters:
              size: "${pool.size}"
            services:
              Double: { factory: limits, args: { size: "$(size)", ratio: "${pool.ratio}", enabled: true, hosts: "${pool.hosts}" } }
            """.utf8).write(to: URL(fileURLWithPath: root))
        let expected = [
            "greeting as any", "pool.enabled as bool", "pool.hosts as stringList", "pool.ratio as double", "pool.size as int",
            "staging.only as any",
        ]
        let options = Container.Options(environment: [:], configuration: source)
        let container = try Container(manifest: root, registry: registry, contexts: .explicit("production"), options: options)
        #expect(source.asked.withLock { $0.sorted() } == expected)
        #expect(try await container.resolve(key: "Int", name: "other") as? Int == 8)

        source.asked.withLock { $0 = [] }
        let reloading = try ReloadingContainer(manifest: root, registry: registry, contexts: .explicit("production"),
                                               options: options, pollInterval: .milliseconds(10))
        #expect(source.asked.withLock { $0.sorted() } == expected)
        source.asked.withLock { $0 = [] }
        try await reloading.start()
        try Data("""
            wiring: 1
            imports: [more.yaml]
            services:
              Double: { factory: limits, args: { size: "${pool.size}", ratio: "${pool.ratio}", enabled: true, hosts: "${pool.hosts}" } }
            """.utf8).write(to: URL(fileURLWithPath: root))
        let deadline = ContinuousClock.now + .seconds(10)
        while reloading.reloads == 0 && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(reloading.reloads == 1)
        #expect(source.asked.withLock { $0.sorted() } == expected)
        try await reloading.shutdown()
    }
}
