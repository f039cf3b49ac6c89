import NotesCore
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Wiring

/// A notes server started in the test's process on an ephemeral port of 127.0.0.1: what each
/// example's tests implement, so that ``NotesScenarios`` run against it.
public protocol NotesServerUnderTest: Sendable {
    /// Makes the container for the manifests in `config` (``Notes/makeContainer``), starts it
    /// with the server, and returns once the server listens.
    static func start(container: Container) async throws -> Self

    /// The server's container.
    var container: Container { get }
    /// The port the server listens on.
    var port: Int { get }

    /// Shuts down as SIGTERM does: the server drains, then the container shuts down.
    func shutDown() async throws
}

extension NotesServerUnderTest {
    /// Starts the server on the real `config/`, with `contexts` and `environment` (`HTTP_PORT` is 0).
    public static func start(
        config: String = Notes.defaultConfig, contexts: ContextSelection = .explicit("test"),
        environment: [String: String] = [:], registry: FactoryRegistry = Notes.registry()
    ) async throws -> Self {
        let container = try Notes.makeContainer(
            config: config, contexts: contexts, environment: ["HTTP_PORT": "0"].merging(environment) { $1 }, registry: registry)
        return try await start(container: container)
    }

    /// Sends a request over loopback.
    public func request(_ method: String, _ path: String, json: String? = nil, headers: [String: String] = [:]) async throws -> Reply {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let json {
            request.httpBody = Data(json.utf8)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        request.timeoutInterval = 10
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields { fields["\(name)".lowercased()] = "\(value)" }
        return Reply(status: http.statusCode, body: data, headers: fields)
    }
}

/// An HTTP answer.
public struct Reply: Sendable {
    public let status: Int
    public let body: Data
    /// The header fields, their names lowercased.
    public let headers: [String: String]

    public func json<T: Decodable>(_ type: T.Type) throws -> T { try JSONDecoder().decode(type, from: body) }
    public var text: String { String(decoding: body, as: UTF8.self) }
}
