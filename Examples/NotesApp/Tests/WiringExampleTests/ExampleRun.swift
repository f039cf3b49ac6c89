import Foundation

/// The built `wiring-example`, run from the repository's root as README runs it, and what it
/// printed; and the folders the tests use.
struct ExampleRun {
    var status: Int32
    var stdout: String
    var stderr: String

    /// The repository's root: config-examples/ is there.
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

    /// Runs `wiring-example` with `arguments` and exactly `environment` (no backtracer: a child
    /// that stops on purpose prints its error, not a backtrace).
    static func run(_ arguments: [String], environment: [String: String]) throws -> ExampleRun {
        let process = Process()
        #if os(macOS)
        let products = Bundle.allBundles.first { $0.bundlePath.hasSuffix(".xctest") }!.bundleURL.deletingLastPathComponent()
        #else
        let products = Bundle.main.bundleURL
        #endif
        process.executableURL = products.appendingPathComponent("wiring-example")
        process.arguments = arguments
        process.environment = environment.merging(["SWIFT_BACKTRACE": "enable=no"]) { given, _ in given }
        process.currentDirectoryURL = URL(fileURLWithPath: repositoryRoot)
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // stderr is read on another thread while this one reads stdout: a child that fills
        // one pipe never blocks on it.
        let complained = Collected(), reading = DispatchGroup()
        DispatchQueue.global().async(group: reading) { complained.data = err.fileHandleForReading.readDataToEndOfFile() }
        let printed = out.fileHandleForReading.readDataToEndOfFile()
        reading.wait()
        process.waitUntilExit()
        return ExampleRun(status: process.terminationStatus, stdout: String(decoding: printed, as: UTF8.self),
                          stderr: String(decoding: complained.data, as: UTF8.self))
    }

    /// What the reading thread wrote; read only after the group's wait.
    private final class Collected: @unchecked Sendable {
        var data = Data()
    }

    /// A fresh, empty folder under the system's temporary folder, for one test's files.
    static func temporaryFolder() throws -> String {
        let folder = scratch.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.path
    }

    /// The folder this test process makes its folders in, removed when it exits.
    private static let scratch: URL = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wiring-example-tests-\(UUID().uuidString)")
        atexit { try? FileManager.default.removeItem(at: ExampleRun.scratch) }   // best effort: a folder left in /tmp harms nothing
        return folder
    }()
}
