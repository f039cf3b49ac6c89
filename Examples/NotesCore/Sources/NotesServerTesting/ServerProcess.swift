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
    /// `PATH`, `HOME` and `TMPDIR`, and `PORT` 0.
    public static func start(_ executable: String, environment: [String: String]) throws -> ServerProcess {
        let process = Process()
        process.executableURL = buildFolder.appendingPathComponent(executable)
        var inherited = ProcessInfo.processInfo.environment.filter { ["PATH", "HOME", "TMPDIR"].contains($0.key) }
        inherited["PORT"] = "0"
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

    /// The port from the "listening on port N" line, waiting up to 60 seconds for it.
    public func waitForPort() throws -> Int {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let text = stdout.text.withLock { $0 }
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("\(executable) listening on port ") }),
               let port = Int(line.split(separator: " ").last ?? "") {
                return port
            }
            guard process.isRunning else { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        process.terminate()
        throw ServerDidNotStart(executable: executable, stdout: stdout.text.withLock { $0 }, stderr: stderr.text.withLock { $0 })
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
