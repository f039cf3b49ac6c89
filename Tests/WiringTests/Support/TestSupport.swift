import Foundation
import Wiring

/// Paths and helpers shared by the tests.
enum TestSupport {
    /// The folder of fixtures next to the tests.
    static let fixtures: String = {
        let here = URL(fileURLWithPath: #filePath)
        return here.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures").path
    }()

    /// The package root.
    static let packageRoot: String = {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().path
    }()

    /// A corpus's `expected.txt` in `folder`: `== file` then the file's diagnostics, one a line
    /// (`(no diagnostics)` for none).
    static func expectations(in folder: String) -> [(file: String, lines: [String])] {
        let text = (try? String(contentsOfFile: folder + "/expected.txt", encoding: .utf8)) ?? ""
        var result: [(file: String, lines: [String])] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            if line.hasPrefix("== ") {
                result.append((String(line.dropFirst(3)), []))
            } else if !result.isEmpty, line != "(no diagnostics)" {
                result[result.count - 1].lines.append(String(line))
            }
        }
        return result
    }

    /// The path of a fixture file.
    static func fixture(_ name: String) -> String { fixtures + "/" + name }

    /// The headlines of diagnostics, with the fixtures folder shortened to `Fixtures/`.
    static func headlines(_ diagnostics: [Diagnostic]) -> [String] {
        diagnostics.map { $0.headline.replacingOccurrences(of: fixtures + "/", with: "") }
    }

    /// Validates a fixture with a fixed environment and returns the headlines.
    static func validate(_ name: String, environment: [String: String] = [:]) -> [String] {
        headlines(ManifestLoader(environment: environment).validate(fixture(name)).diagnostics)
    }

    /// Validates `text` as a manifest written to a fresh file, and returns the headlines with
    /// the file's folder removed, so they read `m.yaml:3:8: error: …`.
    static func validate(text: String, environment: [String: String] = [:]) throws -> [String] {
        let path = try temporaryFile(text, name: "m.yaml")
        let folder = String(path.dropLast("m.yaml".count))
        return ManifestLoader(environment: environment).validate(path).diagnostics
            .map { $0.headline.replacingOccurrences(of: folder, with: "") }
    }

    /// Writes `text` to a fresh temporary file and returns its path.
    static func temporaryFile(_ text: String, name: String = "manifest.yaml") throws -> String {
        try temporaryFile(Data(text.utf8), name: name)
    }

    /// Writes `data` to a fresh temporary file and returns its path.
    static func temporaryFile(_ data: Data, name: String = "manifest.yaml") throws -> String {
        let url = try temporaryFolder().appendingPathComponent(name)
        try data.write(to: url)
        return url.path
    }

    /// A fresh, empty folder for a test's files, inside this test process's own folder, which
    /// is removed when the process exits: test runs leave nothing behind.
    static func temporaryFolder() throws -> URL {
        let folder = scratch.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// The folder every temporary folder of this process is made in.
    private static let scratch: URL = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wiring-tests-\(UUID().uuidString)")
        atexit { try? FileManager.default.removeItem(at: TestSupport.scratch) }
        return folder
    }()
}

extension TestSupport {
    /// Runs `body` on a thread of its own and awaits its result: a test that blocks (a
    /// semaphore, a synchronous wait for another thread) blocks that thread, never one of the
    /// cooperative pool's, whose few threads the tests running beside it need.
    static func onThreadOfItsOwn<R: Sendable>(_ body: @escaping @Sendable () throws -> R) async throws -> R {
        try await withCheckedThrowingContinuation { (done: CheckedContinuation<R, any Error>) in
            Thread.detachNewThread { done.resume(with: Result { try body() }) }
        }
    }

    /// ``onThreadOfItsOwn(_:)`` for a body that cannot fail.
    static func onThreadOfItsOwn<R: Sendable>(_ body: @escaping @Sendable () -> R) async -> R {
        await withCheckedContinuation { (done: CheckedContinuation<R, Never>) in
            Thread.detachNewThread { done.resume(returning: body()) }
        }
    }
}
