import Foundation
@testable import Wiring

/// Runs the package's built executables as users and CI do, and captures what they print.
enum BinaryRunner {
    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
        /// Whether the child was stopped for running past the time it was given.
        var timedOut = false
    }

    /// The folder the build put the executables in (beside the test bundle).
    static var folder: URL {
        #if os(macOS)
        Bundle.allBundles.first { $0.bundlePath.hasSuffix(".xctest") }!.bundleURL.deletingLastPathComponent()
        #else
        Bundle.main.bundleURL
        #endif
    }

    /// Runs `name` (`wiring`, `EmbeddedTool`, …) from the package root with exactly `environment`.
    ///
    /// Swift's crash backtracer is switched off unless `environment` sets it: a child that is
    /// meant to stop (a fatal error on purpose) would otherwise leave the backtracer running,
    /// holding the output pipes open, and under ThreadSanitizer it never finishes. Sanitizer
    /// options given to the tests (`ASAN_OPTIONS`, …) reach the children too, since the
    /// children are built with the same sanitizer, and so does `LLVM_PROFILE_FILE`, so that a
    /// coverage run (`--enable-code-coverage`) counts what the children ran. A child's temporary
    /// directory (`TMPDIR`) is a folder of this process's, removed when it exits: a child that
    /// stops on purpose cannot remove its own files.
    /// A child still running after `timeout` is stopped, and the output says so: a test of
    /// something that must not hang fails instead of hanging.
    static func run(
        _ name: String, _ arguments: [String], environment: [String: String] = [:], timeout: Duration = .seconds(300)
    ) throws -> Output {
        let passedOn = ProcessInfo.processInfo.environment.filter {
            ["ASAN_OPTIONS", "LSAN_OPTIONS", "TSAN_OPTIONS", "LLVM_PROFILE_FILE"].contains($0.key)
        }
        return try run(executable: folder.appendingPathComponent(name), arguments, in: TestSupport.packageRoot,
                       environment: environment
                           .merging(["SWIFT_BACKTRACE": "enable=no", "TMPDIR": try TestSupport.temporaryFolder().path]) { given, _ in given }
                           .merging(passedOn) { given, _ in given },
                       timeout: timeout)
    }

    /// Runs the `swift` driver (`swift build …`, `swift package …`) in `folder`, with this
    /// process's environment.
    static func swift(_ arguments: [String], in folder: String, timeout: Duration = .seconds(900)) throws -> Output {
        try run(executable: URL(fileURLWithPath: "/usr/bin/env"), ["swift"] + arguments, in: folder,
                environment: ProcessInfo.processInfo.environment, timeout: timeout)
    }

    /// Runs `python3` with `arguments` in the package root, with this process's environment.
    static func python(_ arguments: [String]) throws -> Output {
        try run(executable: URL(fileURLWithPath: "/usr/bin/env"), ["python3"] + arguments, in: TestSupport.packageRoot,
                environment: ProcessInfo.processInfo.environment, timeout: .seconds(120))
    }

    /// Runs `executable` in `folder` with exactly `environment`.
    static func run(
        executable: URL, _ arguments: [String], in folder: String, environment: [String: String], timeout: Duration
    ) throws -> Output {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stopped = Locked(false)
        let (seconds, attoseconds) = timeout.components
        DispatchQueue.global().asyncAfter(deadline: .now() + Double(seconds) + Double(attoseconds) / 1e18) {
            guard process.isRunning else { return }
            stopped.withLock { $0 = true }
            // SIGKILL, not `terminate()`'s SIGTERM: the child starts with the signal mask of the
            // thread that ran it, and a dispatch worker thread blocks SIGTERM.
            kill(process.processIdentifier, SIGKILL)
        }
        // Both pipes are drained at once, so a child that fills one cannot block on it.
        let stderr = ReadResult()
        let drained = DispatchGroup()
        drained.enter()
        DispatchQueue.global().async {
            stderr.data = err.fileHandleForReading.readDataToEndOfFile()
            drained.leave()
        }
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        drained.wait()
        process.waitUntilExit()
        return Output(status: process.terminationStatus,
                      stdout: String(decoding: stdout, as: UTF8.self),
                      stderr: String(decoding: stderr.data, as: UTF8.self), timedOut: stopped.withLock { $0 })
    }
}

/// Data read on another queue; the dispatch group orders the write before the read.
private final class ReadResult: @unchecked Sendable {
    var data = Data()
}
