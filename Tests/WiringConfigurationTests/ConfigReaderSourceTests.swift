#if Configuration
import Configuration
import Foundation
import Testing
import Wiring
import WiringConfiguration

/// The folder this process writes its manifests in, removed when the process exits.
private let configurationScratch: URL = {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wiring-configuration-\(UUID())")
    atexit {
        // Best effort at exit: a folder left behind in the temporary directory harms nothing.
        try? FileManager.default.removeItem(at: configurationScratch)
    }
    return folder
}()

/// A container built over a swift-configuration reader, as a server's code builds one.
@Suite("Container(…, configuration:)")
struct ConfigReaderSourceTests {
    struct ServerArgs: Decodable, Sendable {
        var host: String
        var port: UInt16
        var origins: [String]
    }

    struct Server: Sendable, Equatable {
        var url: String
        var port: Int
        var verbose: Bool
    }

    /// A manifest written to a folder of its own; its path.
    func manifest(_ text: String) throws -> String {
        let folder = configurationScratch.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("services.yaml").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The 1-based line and column of `marker` in the file at `path`.
    func position(of marker: String, in path: String) throws -> String {
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let index = try #require(lines.firstIndex { $0.contains(marker) })
        let column = lines[index].distance(from: lines[index].startIndex, to: try #require(lines[index].range(of: marker)).lowerBound)
        return "\(index + 1):\(column + 1)"
    }

    func registry() -> FactoryRegistry {
        let registry = FactoryRegistry()
        registry.factory("server") { r in
            Server(url: try r.arg("url"), port: try r.arg("port", as: Int.self), verbose: try r.arg("verbose", as: Bool.self))
        }
        registry.factory("typed-server", args: ServerArgs.self) { _, args in
            Server(url: "\(args.host):\(args.port) \(args.origins.joined(separator: ","))", port: Int(args.port), verbose: false)
        }
        return registry
    }

    @Test func aWholeKeyKeepsTheReadersTypeAndAKeyInsideAStringIsWrittenAsText() throws {
        let path = try manifest("""
            wiring: 1
            services:
              Server:
                factory: server
                scope: singleton
                args: { url: "http://${http.host}:${http.port}/", port: "${http.port}", verbose: "${log.verbose:-false}" }
            """)
        let reader = ConfigReader(provider: InMemoryProvider(values: ["http.host": "localhost", "http.port": 8080]))
        let container = try Container(manifest: path, registry: registry(), contexts: .none, configuration: reader)
        #expect(try container.resolve(Server.self) == Server(url: "http://localhost:8080/", port: 8080, verbose: false))
    }

    @Test func typedArgumentsDecodeValuesFromTheReaderByTheSameRules() throws {
        let path = try manifest("""
            wiring: 1
            services:
              Server: { factory: typed-server, scope: singleton, args: { host: "${http.host}", port: "${http.port}", origins: "${http.origins}" } }
            """)
        let reader = ConfigReader(provider: InMemoryProvider(values: [
            "http.host": "example.org", "http.port": 443, "http.origins": .init(.stringArray(["a.org", "b.org"]), isSecret: false),
        ]))
        let container = try Container(manifest: path, registry: registry(), contexts: .none, configuration: reader)
        #expect(try container.resolve(Server.self).url == "example.org:443 a.org,b.org")
    }

    @Test func theEnvironmentComesThroughTheReadersProviderAsItMapsKeys() throws {
        let path = try manifest("""
            wiring: 1
            services:
              Server: { factory: server, scope: singleton, args: { url: "${http.host}", port: "${http.port}", verbose: "${log.verbose}" } }
            """)
        let environment = EnvironmentVariablesProvider(environmentVariables: ["HTTP_HOST": "api", "HTTP_PORT": "9000", "LOG_VERBOSE": "true"])
        let container = try Container(manifest: path, registry: registry(), contexts: .none,
                                      options: .init(environment: ["HTTP_PORT": "1"]), configuration: ConfigReader(provider: environment))
        // Read through the reader's provider, not the container's own environment.
        #expect(try container.resolve(Server.self) == Server(url: "api", port: 9000, verbose: true))
    }

    @Test func aMissingKeyIsAnErrorAtItsValueNamingTheKey() throws {
        let path = try manifest("""
            wiring: 1
            services:
              Server: { factory: server, scope: singleton, args: { url: "${db.url}", port: 1, verbose: false } }
            """)
        let reader = ConfigReader(provider: InMemoryProvider(values: ["db.user": "app"]))
        let error = #expect(throws: ManifestError.self) {
            try Container(manifest: path, registry: registry(), contexts: .none, configuration: reader)
        }
        let at = try position(of: "\"${db.url}", in: path)
        #expect(error?.errors.map(\.headline) == ["\(path):\(at): error: configuration key 'db.url' is not set and has no default"])
    }

    @Test func aValueOfTheWrongTypeIsNamedByItsKeyNeverShown() throws {
        let path = try manifest("""
            wiring: 1
            services:
              Server: { factory: typed-server, scope: singleton, args: { host: h, port: "${http.port}", origins: [] } }
            """)
        let reader = ConfigReader(provider: InMemoryProvider(values: ["http.port": .init("eighty-eighty", isSecret: true)]))
        let error = #expect(throws: ManifestError.self) {
            try Container(manifest: path, registry: registry(), contexts: .none, configuration: reader)
        }
        let message = try #require(error?.errors.first?.message)
        #expect(message.hasPrefix("service Server: argument 'port': "), "\(message)")
        #expect(message.contains("configuration key 'http.port'"), "\(message)")
        #expect(error?.description.contains("eighty") == false)
    }

    @Test func aListCannotBePartOfAString() throws {
        let path = try manifest("""
            wiring: 1
            services:
              Server: { factory: server, scope: singleton, args: { url: "origins: ${http.origins}", port: 1, verbose: false } }
            """)
        let reader = ConfigReader(provider: InMemoryProvider(values: ["http.origins": .init(.stringArray(["a", "b"]), isSecret: false)]))
        let error = #expect(throws: ManifestError.self) {
            try Container(manifest: path, registry: registry(), contexts: .none, configuration: reader)
        }
        #expect(error?.errors.first?.message == "configuration key 'http.origins' is a list and cannot be part of a string")
    }

    @Test func parametersReadTheReaderToo() throws {
        let path = try manifest("""
            wiring: 1
            parameters:
              port: ${http.port:-8080}
            services:
              Server: { factory: server, scope: singleton, args: { url: "x", port: $(port), verbose: false } }
            """)
        let empty = ConfigReader(provider: InMemoryProvider(values: [:]))
        #expect(try Container(manifest: path, registry: registry(), contexts: .none, configuration: empty).resolve(Server.self).port == 8080)
        let set = ConfigReader(provider: InMemoryProvider(values: ["http.port": 7000]))
        #expect(try Container(manifest: path, registry: registry(), contexts: .none, configuration: set).resolve(Server.self).port == 7000)
    }
}
#endif
