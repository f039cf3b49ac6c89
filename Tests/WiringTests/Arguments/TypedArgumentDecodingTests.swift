import Foundation
import Testing
import Wiring

/// Arguments with nested structs, lists, mappings, integers of every width, URLs and
/// durations, read by the manifest's rules.
struct ServerArgs: Decodable, Sendable {
    struct TLS: Decodable, Sendable {
        var certificate: String
        var port: UInt16
    }
    enum Level: String, Decodable, CaseIterable, Sendable { case debug, info, error }
    var host: URL
    var tls: TLS?
    var upstreams: [String]
    var headers: [String: String]
    var retries: Int8
    var ratio: Double
    var verbose: Bool
    var idle: Duration
    var levels: [Level]
}

struct Server: Sendable {
    let args: ServerArgs
}

/// Arguments whose own `init(from:)` rejects a value the types allow.
struct RangeArgs: Decodable, Sendable {
    var low: Int
    var high: Int
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        low = try container.decode(Int.self, forKey: .low)
        high = try container.decode(Int.self, forKey: .high)
        guard low <= high else {
            throw DecodingError.dataCorruptedError(forKey: .high, in: container, debugDescription: "high must not be below low")
        }
    }
    enum CodingKeys: String, CodingKey { case low, high }
}

/// Arguments that read whatever keys the manifest writes: their shape cannot be derived.
struct AnyKeysArgs: Decodable, Sendable {
    var values: [String: Int] = [:]
    struct Key: CodingKey {
        let stringValue: String
        init(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        guard container.allKeys.contains(where: { $0.stringValue == "required" }) else {
            throw DecodingError.keyNotFound(Key(stringValue: "required"), .init(codingPath: [], debugDescription: "required"))
        }
        for key in container.allKeys { values[key.stringValue] = try container.decode(Int.self, forKey: key) }
    }
}

/// An enum without `CaseIterable`: its cases cannot be listed.
enum Flavour: String, Decodable, Sendable { case vanilla, chocolate }
struct FlavourArgs: Decodable, Sendable { var flavour: Flavour }

@Suite("Typed arguments: decoding by the manifest's rules")
struct TypedArgumentDecodingTests {
    static func registry() -> FactoryRegistry {
        let registry = FactoryRegistry()
        registry.factory("server", args: ServerArgs.self) { _, args in Server(args: args) }
        registry.factory("range", args: RangeArgs.self) { _, args in args }
        registry.factory("any-keys", args: AnyKeysArgs.self) { _, args in args }
        registry.factory("flavour", args: FlavourArgs.self) { _, args in args }
        return registry
    }

    static let goodServer = """
        parameters:
          hosts: [a.example, b.example]
        services:
          Server:
            factory: server
            args:
              host: ${HOST:-https://api.example.com}
              tls: { certificate: /etc/cert.pem, port: "${TLS_PORT}" }
              upstreams: $(hosts)
              headers: { x-team: notes }
              retries: 3
              ratio: 1
              verbose: "${VERBOSE:-true}"
              idle: ${IDLE}
              levels: [debug, error]
        """

    /// The headlines of the error building a container of `yaml` throws, `m.yaml:line:col: …`.
    static func buildErrors(_ yaml: String, environment: [String: String] = [:]) throws -> [String] {
        let path = try TestSupport.temporaryFile("wiring: 1\n" + yaml, name: "m.yaml")
        let folder = String(path.dropLast("m.yaml".count))
        let error = try #require(throws: ManifestError.self) {
            try Container(manifest: path, registry: registry(), contexts: .none, options: .init(environment: environment))
        }
        return error.errors.map { $0.headline.replacingOccurrences(of: folder, with: "") }
    }

    @Test func nestedStructsListsMappingsAndScalarsFromTheEnvironmentDecode() throws {
        let path = try TestSupport.temporaryFile("wiring: 1\n" + Self.goodServer, name: "m.yaml")
        let container = try Container(manifest: path, registry: Self.registry(), contexts: .none,
                                      options: .init(environment: ["TLS_PORT": "8443", "IDLE": "5m"]))
        let args = try container.resolve(Server.self).args
        #expect(args.host == URL(string: "https://api.example.com"))
        #expect(args.tls?.certificate == "/etc/cert.pem")
        #expect(args.tls?.port == 8443)
        #expect(args.upstreams == ["a.example", "b.example"])
        #expect(args.headers == ["x-team": "notes"])
        #expect(args.retries == 3)
        #expect(args.ratio == 1.0)
        #expect(args.verbose)
        #expect(args.idle == .seconds(300))
        #expect(args.levels == [.debug, .error])
    }

    @Test func everyNestedProblemIsReportedAtItsOwnLine() throws {
        let errors = try Self.buildErrors("""
            services:
              Server:
                factory: server
                args:
                  host: 42
                  tls: { certificate: /etc/cert.pem, port: 70000, cipher: aes }
                  upstreams: a.example
                  headers: { x-team: [notes] }
                  retries: 300
                  ratio: fast
                  verbose: yes
                  idle: forever
                  levels: [debug, warn]
            """)
        #expect(errors == [
            "m.yaml:6:13: error: service Server: argument 'host': expected a URL, found an integer (42)",
            "m.yaml:7:48: error: service Server: argument 'tls.port': 70000 is out of range for UInt16 (0...65535)",
            "m.yaml:7:55: error: service Server: unknown argument 'tls.cipher' (TLS reads certificate, port)",
            "m.yaml:8:18: error: service Server: argument 'upstreams': expected a list of a string, found a string 'a.example'",
            "m.yaml:9:26: error: service Server: argument 'headers.x-team': expected a string, found a list",
            "m.yaml:10:16: error: service Server: argument 'retries': 300 is out of range for Int8 (-128...127)",
            "m.yaml:11:14: error: service Server: argument 'ratio': expected a number, found a string 'fast'",
            "m.yaml:12:16: error: service Server: argument 'verbose': expected a boolean, found a string 'yes'",
            "m.yaml:13:13: error: service Server: argument 'idle': expected a duration (seconds, or text like 500ms, 30s, 5m, 2h, 1d; at most 100 years), found a string 'forever'",
            "m.yaml:14:23: error: service Server: argument 'levels[1]': 'warn' is not a case of Level (debug, info, error)",
        ])
    }

    @Test func aValueFromTheEnvironmentOrASecretIsNamedNotShown() throws {
        let errors = try Self.buildErrors(Self.goodServer.replacingOccurrences(of: "ratio: 1", with: "ratio: !secret hunter2"),
                                          environment: ["TLS_PORT": "not-a-port", "IDLE": "5m"])
        #expect(errors == [
            "m.yaml:9:48: error: service Server: argument 'tls.port': expected an integer (UInt16), found a string from environment variable 'TLS_PORT'",
            "m.yaml:13:14: error: service Server: argument 'ratio': expected a number, found a string",
        ])
        #expect(!errors.joined().contains("not-a-port") && !errors.joined().contains("hunter2"))
    }

    @Test func aTypesOwnErrorIsPlacedAtTheValueItNames() throws {
        let errors = try Self.buildErrors("""
            services:
              Range:
                factory: range
                args: { low: 5, high: 1 }
            """)
        #expect(errors == ["m.yaml:5:27: error: service Range: argument 'high': high must not be below low"])
    }

    @Test func aTypeThatReadsKeysDynamicallyIsCheckedByDecodingIt() throws {
        guard case .unknown(let type, _) = ArgumentSchema(AnyKeysArgs.self) else {
            Issue.record("AnyKeysArgs's shape cannot be derived")
            return
        }
        #expect(type == "AnyKeysArgs")
        let errors = try Self.buildErrors("""
            services:
              AnyKeys:
                factory: any-keys
                args: { optional: 1 }
            """)
        #expect(errors == ["m.yaml:5:11: error: service AnyKeys: missing argument 'required'"])
    }

    @Test func anEnumWithoutCaseIterableIsCheckedWhenDecoded() throws {
        // No placeholder can be made for the field, so the type as a whole is not derived.
        guard case .unknown(let type, _) = ArgumentSchema(FlavourArgs.self) else {
            Issue.record("FlavourArgs's shape cannot be derived")
            return
        }
        #expect(type == "FlavourArgs")
        let errors = try Self.buildErrors("""
            services:
              Flavour:
                factory: flavour
                args: { flavour: strawberry }
            """)
        #expect(errors == ["m.yaml:5:22: error: service Flavour: argument 'flavour': Cannot initialize Flavour from invalid String value strawberry"])
        // The type's own message quotes the value: from the environment, it is not shown.
        let hidden = try Self.buildErrors("""
            services:
              Flavour:
                factory: flavour
                args: { flavour: "${FLAVOUR}" }
            """, environment: ["FLAVOUR": "strawberry"])
        #expect(hidden == ["m.yaml:5:22: error: service Flavour: argument 'flavour': the value (not shown) cannot be read as FlavourArgs"])
    }

    @Test func manyBadValuesFromTheEnvironmentAreReportedInTimeThatGrowsWithThem() throws {
        // Each message names the variable its value read: looked up in a list, 40,000 of them
        // took quadratic time.
        let count = 40_000
        let values = Array(repeating: "\"${PORT}\"", count: count).joined(separator: ", ")
        let started = ContinuousClock.now
        let errors = try Self.buildErrors("""
            services:
              Server:
                factory: server
                args: { host: "https://a", upstreams: [], headers: {}, retries: 1, ratio: 1, verbose: true, idle: 1, levels: [\(values)] }
            """, environment: ["PORT": "eighty"])
        #expect(errors.count == count)
        #expect(errors.first?.hasSuffix("is not a case of Level (debug, info, error)") == true, "\(errors.first ?? "")")
        #expect(ContinuousClock.now - started < .seconds(30))
    }

    @Test func aLargeMappingOfStructsDecodesInTimeThatGrowsWithIt() throws {
        // Each key a dictionary's decoding reads was found by scanning every entry: 40,000
        // routes took about a minute.
        struct Route: Decodable, Sendable { var target: String }
        struct RoutesArgs: Decodable, Sendable { var routes: [String: Route] }
        let registry = FactoryRegistry()
        registry.factory("routes", args: RoutesArgs.self) { _, args in args.routes.count }
        let count = 40_000
        let routes = (0..<count).map { "r\($0): { target: t\($0) }" }.joined(separator: ", ")
        let path = try TestSupport.temporaryFile("wiring: 1\nservices:\n  Routes: { factory: routes, args: { routes: { \(routes) } } }\n")
        let started = ContinuousClock.now
        let container = try Container(manifest: path, registry: registry, contexts: .none, options: .init(environment: [:]))
        #expect(try container.resolve(key: "Routes") as? Int == count)
        #expect(ContinuousClock.now - started < .seconds(30))
    }

    @Test func aRecursiveTypeEndsWhereItRepeats() {
        struct Node: Decodable, Sendable {
            var name: String
            var children: [Node]
        }
        #expect(ArgumentSchema(Node.self) == .object(type: "Node", fields: [
            ArgumentField(name: "name", schema: .string, isRequired: true),
            ArgumentField(name: "children", schema: .list(.unknown(type: "Node", reason: "Node contains itself")), isRequired: true),
        ]))
    }
}
