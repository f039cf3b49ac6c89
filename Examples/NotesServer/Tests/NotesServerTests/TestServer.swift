import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NotesServerApp
import ServiceLifecycle
import Testing
import Wiring

/// The real server on an ephemeral port of 127.0.0.1, in this process, and an HTTP client for it.
struct TestServer {
    let container: Container
    let port: Int
    private let group: ServiceGroup
    private let running: Task<Void, any Error>

    /// Starts the server with the manifests in `config/`.
    static func start(
        contexts: ContextSelection = .explicit("test"), environment: [String: String] = [:],
        registry: FactoryRegistry = NotesServerApp.registry()
    ) async throws -> TestServer {
        let container = try NotesServerApp.makeContainer(
            contexts: contexts, environment: ["PORT": "0"].merging(environment) { $1 }, registry: registry)
        let (ports, listening) = AsyncStream<Int>.makeStream()
        let group = try await NotesServerApp.makeServiceGroup(container: container) { port in listening.yield(port) }
        let running = Task { try await group.run() }
        var port: Int?
        for await bound in ports {
            port = bound
            break
        }
        return TestServer(container: container, port: try #require(port), group: group, running: running)
    }

    /// Shuts down as SIGTERM does: the server drains, then the container shuts down.
    func shutDown() async throws {
        await group.triggerGracefulShutdown()
        try await running.value
    }

    struct Reply {
        let status: Int
        let body: Data
        let headers: [String: String]

        func json<T: Decodable>(_ type: T.Type) throws -> T { try JSONDecoder().decode(type, from: body) }
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// Sends a request over loopback.
    func request(_ method: String, _ path: String, json: String? = nil, headers: [String: String] = [:]) async throws -> Reply {
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


/// A copy of the real `config/` in a folder of its own, with `original` replaced by
/// `replacement` in `services.yaml`; the file's path, and the 1-based line and column where
/// `original` was.
struct EditedConfig {
    let folder: URL
    let services: URL
    let line: Int
    let column: Int

    init(replacing original: String, with replacement: String) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("notes-config-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for file in try FileManager.default.contentsOfDirectory(atPath: NotesServerApp.defaultConfig) {
            try FileManager.default.copyItem(atPath: NotesServerApp.defaultConfig + "/" + file,
                                             toPath: folder.appendingPathComponent(file).path)
        }
        services = folder.appendingPathComponent("services.yaml")
        let text = try String(contentsOf: services, encoding: .utf8)
        try text.replacingOccurrences(of: original, with: replacement).write(to: services, atomically: true, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let index = try #require(lines.firstIndex { $0.contains(original) })
        line = index + 1
        column = lines[index].distance(from: lines[index].startIndex, to: lines[index].range(of: original)!.lowerBound) + 1
    }
}
