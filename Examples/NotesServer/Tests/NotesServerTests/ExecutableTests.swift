import Foundation
import NotesServerApp
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization
import Testing

/// The built `notes-server`, run as a user runs it: start-up errors and signals.
@Suite("notes-server, the executable")
struct ExecutableTests {
    @Test func aBadManifestStopsStartUpWithThePositionedErrorAndExitStatus1() throws {
        // The real config/, with a factory key misspelt in services.yaml.
        let config = try EditedConfig(replacing: "request-counter", with: "request-countr")
        let server = try ServerProcess.start(environment: ["NOTES_CONFIG": config.folder.path])
        let (status, output) = server.wait()
        #expect(status == 1)
        #expect(output.stderr.contains("\(config.services.path):\(config.line):\(config.column): error: "), "\(output.stderr)")
        #expect(output.stderr.contains("'request-countr'") && output.stderr.contains("did you mean 'request-counter'"), "\(output.stderr)")
        #expect(!output.stdout.contains("listening"))
    }

    @Test func sigtermDrainsThenShutsTheContainerDownInReverseOrderAndExits0() async throws {
        let notes = try temporaryFolder()
        let server = try ServerProcess.start(environment: ["APP_ENV": "development", "NOTES_DIR": notes.path])
        let port = try server.waitForPort()
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/notes")!)
        request.httpMethod = "POST"
        request.httpBody = Data(#"{"title": "before SIGTERM"}"#.utf8)
        request.timeoutInterval = 10
        let (_, response) = try await URLSession.shared.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 201)

        server.process.terminate()  // SIGTERM
        let (status, output) = server.wait()
        #expect(status == 0, "\(output.stderr)")
        // The request counter was built after the store, so it shuts down first; the store
        // closes last, once, and has written the note.
        let log = output.stderr  // swift-log writes to standard error
        let counter = try #require(log.range(of: "shutdown: request counter closed after 1 requests"), "\(log)")
        let store = try #require(log.range(of: "shutdown: file note store closed (1 notes"), "\(log)")
        #expect(counter.upperBound <= store.lowerBound)
        #expect(log.components(separatedBy: "file note store closed").count == 2)
        let saved = try String(contentsOf: notes.appendingPathComponent("notes.json"), encoding: .utf8)
        #expect(saved.contains("before SIGTERM"))
    }

    private func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("notes-server-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }
}

/// `notes-server` from the build folder, on an ephemeral port, its output collected as it
/// comes.
struct ServerProcess {
    let process: Process
    private let stdout: Output
    private let stderr: Output

    final class Output: Sendable {
        let text = Mutex("")
        func append(_ data: Data) { text.withLock { $0 += String(decoding: data, as: UTF8.self) } }
    }

    /// The folder the build put the executables in, beside the test bundle.
    static var buildFolder: URL {
        #if os(macOS)
        Bundle.allBundles.first { $0.bundlePath.hasSuffix(".xctest") }!.bundleURL.deletingLastPathComponent()
        #else
        Bundle.main.bundleURL
        #endif
    }

    static func start(environment: [String: String]) throws -> ServerProcess {
        let process = Process()
        process.executableURL = buildFolder.appendingPathComponent("notes-server")
        var inherited = ProcessInfo.processInfo.environment.filter { ["PATH", "HOME", "TMPDIR"].contains($0.key) }
        inherited["PORT"] = "0"
        inherited["SWIFT_BACKTRACE"] = "enable=no"
        process.environment = inherited.merging(environment) { $1 }
        let server = ServerProcess(process: process, stdout: Output(), stderr: Output())
        for (pipe, output) in [(Pipe(), server.stdout), (Pipe(), server.stderr)] {
            pipe.fileHandleForReading.readabilityHandler = { handle in
                let data = handle.availableData
                if data.isEmpty { handle.readabilityHandler = nil } else { output.append(data) }
            }
            if output === server.stdout { process.standardOutput = pipe } else { process.standardError = pipe }
        }
        try process.run()
        return server
    }

    /// The port from the "listening on port N" line, waiting up to 60 seconds for it.
    func waitForPort() throws -> Int {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let text = stdout.text.withLock { $0 }
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("notes-server listening on port ") }),
               let port = Int(line.split(separator: " ").last ?? "") {
                return port
            }
            guard process.isRunning else { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        process.terminate()
        throw ServerDidNotStart(stdout: stdout.text.withLock { $0 }, stderr: stderr.text.withLock { $0 })
    }

    /// Waits for the process to end (stopping it after 60 seconds), and what it printed.
    func wait() -> (status: Int32, output: (stdout: String, stderr: String)) {
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning { process.interrupt(); process.terminate() }
        process.waitUntilExit()
        // Let the readers take what was left in the pipes.
        Thread.sleep(forTimeInterval: 0.2)
        return (process.terminationStatus, (stdout.text.withLock { $0 }, stderr.text.withLock { $0 }))
    }

    struct ServerDidNotStart: Error, CustomStringConvertible {
        let stdout: String
        let stderr: String
        var description: String { "notes-server did not start.\nstdout:\n\(stdout)\nstderr:\n\(stderr)" }
    }
}
