import Foundation
import Synchronization

/// A notes server's executable from the build folder, on an ephemeral port, its output
/// collected as it comes.
public struct ServerProcess: Sendable {
    public let executable: String
    public let process: Process
    private let stdout: Output
    private let stderr: Output

    final class Output: Sendable {
        let text = Mutex("")
        func append(_ data: Data) { text.withLock { $0 += String(decoding: data, as: UTF8.self) } }
    }

    /// The folder the build put the executables in, beside the test bundle.
    public static var buildFolder: URL {
        #if os(macOS)
        Bundle.allBundles.first { $0.bundlePath.hasSuffix(".xctest") }!.bundleURL.deletingLastPathComponent()
        #else
        Bundle.main.bundleURL
        #endif
    }

    /// Runs `executable` (`notes-server`, `notes-server-vapor`) with `environment` added to
    /// `PATH`, `HOME` and `TMPDIR`, and `HTTP_PORT` 0.
    public static func start(_ executable: String, environment: [String: String]) throws -> ServerProcess {
        let process = Process()
        process.executableURL = buildFolder.appendingPathComponent(executable)
        var inherited = ProcessInfo.processInfo.environment.filter { ["PATH", "HOME", "TMPDIR"].contains($0.key) }
        inherited["HTTP_PORT"] = "0"
        inherited["SWIFT_BACKTRACE"] = "enable=no"
        process.environment = inherited.merging(environment) { $1 }
        let server = ServerProcess(executable: executable, process: process, stdout: Output(), stderr: Output())
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

    /// What the server printed so far.
    public var output: (stdout: String, stderr: String) {
        (stdout.text.withLock { $0 }, stderr.text.withLock { $0 })
    }

    /// Waits up to 30 seconds for the server to print `text` on standard error (where swift-log
    /// writes); whether it did.
    public func waitForStandardError(containing text: String) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            if output.stderr.contains(text) { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return false
    }

    /// The port the server listens on, waiting up to 60 seconds for it: from the "NAME
    /// listening on port N" line on standard output (Hummingbird's server prints it), or from
    /// Vapor's "Server started on http://HOST:N" log line on standard error.
    public func waitForPort() throws -> Int {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            if let port = Self.port(stdout: stdout.text.withLock { $0 }, stderr: stderr.text.withLock { $0 }, executable: executable) {
                return port
            }
            guard process.isRunning else { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        process.terminate()
        throw ServerDidNotStart(executable: executable, stdout: stdout.text.withLock { $0 }, stderr: stderr.text.withLock { $0 })
    }

    private static func port(stdout: String, stderr: String, executable: String) -> Int? {
        for line in stdout.split(separator: "\n") where line.hasPrefix("\(executable) listening on port ") {
            if let port = line.split(separator: " ").last.flatMap({ Int($0) }) { return port }
        }
        for line in stderr.split(separator: "\n") {
            guard let started = line.range(of: "Server started on http://") else { continue }
            if let port = line[started.upperBound...].split(separator: ":").last.flatMap({ Int($0) }) { return port }
        }
        return nil
    }

    /// Waits for the process to end (stopping it after 60 seconds), and what it printed.
    public func wait() -> (status: Int32, output: (stdout: String, stderr: String)) {
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning { process.interrupt(); process.terminate() }
        process.waitUntilExit()
        // Let the readers take what was left in the pipes.
        Thread.sleep(forTimeInterval: 0.2)
        return (process.terminationStatus, (stdout.text.withLock { $0 }, stderr.text.withLock { $0 }))
    }

    struct ServerDidNotStart: Error, CustomStringConvertible {
        let executable: String
        let stdout: String
        let stderr: String
        var description: String { "\(executable) did not start.\nstdout:\n\(stdout)\nstderr:\n\(stderr)" }
    }
}
