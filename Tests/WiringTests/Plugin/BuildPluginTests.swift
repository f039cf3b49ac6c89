import Foundation
import Testing

/// The build plugin and the command plugin end to end: `swift build` and `swift package` on the
/// fixture packages in `Tests/PluginFixtures`, which depend on this package by path. Each has a
/// scratch path of its own under `.build-plugin-fixtures` (one scratch path cannot serve two
/// packages: SwiftPM keeps one build description in it).
///
/// `WIRING_SKIP_PLUGIN_BUILDS=1` skips them (CI's sanitizer runs: they test SwiftPM's output,
/// not memory safety).
@Suite("Build plugin and command plugin (swift build on fixture packages)", .serialized,
       .enabled(if: ProcessInfo.processInfo.environment["WIRING_SKIP_PLUGIN_BUILDS"] == nil))
struct BuildPluginTests {
    let clean = TestSupport.packageRoot + "/Tests/PluginFixtures/CleanApp"
    let broken = TestSupport.packageRoot + "/Tests/PluginFixtures/BrokenApp"

    /// The fixture's scratch path, named for the set of this package's source files: SwiftPM
    /// does not notice that a path dependency gained or lost a file, and a build folder made
    /// before then fails with "missing inputs" (a source file moved or deleted since).
    func scratch(_ package: String) -> String {
        TestSupport.packageRoot + "/.build-plugin-fixtures/" + URL(fileURLWithPath: package).lastPathComponent + "-" + Self.sourcesStamp
    }

    /// A stable hash (FNV-1a) of the paths of the package's source files.
    static let sourcesStamp: String = {
        let sources = TestSupport.packageRoot + "/Sources"
        // No enumerator only when there is no Sources folder: then no files, and one stamp.
        let paths = (FileManager.default.enumerator(atPath: sources)?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".swift") }.sorted()
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in paths.joined(separator: "\n").utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return String(hash, radix: 16)
    }()

    func build(_ package: String, _ arguments: String...) throws -> BinaryRunner.Output {
        try BinaryRunner.swift(["build", "--scratch-path", scratch(package)] + arguments, in: package)
    }

    func plugin(_ package: String, _ arguments: String...) throws -> BinaryRunner.Output {
        try BinaryRunner.swift(["package", "--scratch-path", scratch(package)] + arguments, in: package)
    }

    /// The framework and configuration products sit behind package traits (SE-0450): an app
    /// that depends on the `Wiring` product alone resolves without Hummingbird, Vapor,
    /// swift-configuration, swift-distributed-tracing or swift-metrics (nor anything only they
    /// need).
    @Test func aClientOfWiringAloneResolvesWithoutTheFrameworks() throws {
        // Resolved afresh: what an earlier resolution left proves nothing.
        try? FileManager.default.removeItem(atPath: clean + "/Package.resolved")
        let output = try BinaryRunner.swift(["package", "--scratch-path", scratch(clean), "resolve"], in: clean)
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        let resolved = try String(contentsOfFile: clean + "/Package.resolved", encoding: .utf8)
        let identities = resolved.split(separator: "\n").filter { $0.contains("\"identity\"") }
        #expect(identities.contains { $0.contains("swift-log") })
        let guarded = ["hummingbird", "vapor", "swift-configuration", "swift-distributed-tracing", "swift-metrics"]
        #expect(!identities.contains { identity in guarded.contains { identity.contains($0) } }, "\(identities)")
    }

    @Test func aCleanAppBuildsAndRegistersThroughTheGeneratedKeys() throws {
        let output = try build(clean)
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(!output.stdout.contains(": error: ") && !output.stdout.contains(": warning: services"))
        // The generated keys, used by the app: every key the manifests name is registered.
        let run = try BinaryRunner.run(executable: URL(fileURLWithPath: scratch(clean) + "/debug/CleanApp"), [], in: clean,
                                       environment: [:], timeout: .seconds(60))
        #expect(run.stdout == "missing: []\n")
        // Once SwiftPM has settled (the build after the first relinks the plugin's tool), a
        // build with nothing changed does not validate again; one after a manifest changed does.
        _ = try build(clean)
        let again = try build(clean)
        #expect(again.status == 0)
        #expect(!again.stdout.contains("Validating the Wiring manifests"), "\(again.stdout)")
        let imported = clean + "/Sources/CleanApp/config/clock.yaml"
        try FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: imported)
        let changed = try build(clean)
        #expect(changed.status == 0)
        #expect(changed.stdout.contains("Validating the Wiring manifests of CleanApp"))
    }

    /// A named pipe among a target's files, named like a manifest, is not opened: the plugin
    /// looks for manifests in regular files only. Opening it blocked the build until something
    /// wrote to the pipe (a build of this fixture with one hung until stopped after 600 s).
    @Test func aNamedPipeAmongTheTargetsFilesDoesNotBlockTheBuild() throws {
        let pipe = clean + "/Sources/CleanApp/config/pipe.yaml"
        #expect(mkfifo(pipe, 0o600) == 0)
        defer { try? FileManager.default.removeItem(atPath: pipe) }   // a failure to remove shows in the next run's mkfifo
        let output = try BinaryRunner.swift(["build", "--scratch-path", scratch(clean)], in: clean, timeout: .seconds(300))
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
    }

    @Test func aBrokenManifestFailsTheBuildAtItsLines() throws {
        let output = try build(broken, "--target", "BrokenApp")
        #expect(output.status != 0)
        let manifest = broken + "/Sources/BrokenApp/config/services.yaml"
        #expect(output.stdout.contains(
            "\(manifest):5:12: error: unknown scope 'singelton'; did you mean 'singleton'? (scopes: unique, graph, scoped, cached, shared, singleton)"),
            "\(output.stdout)\(output.stderr)")
        #expect(output.stdout.contains(
            "\(manifest):7:14: warning: service 'Mailer' uses factory 'smtp-mailer', which no Swift source of this target registers: register it with registry.factory(WiringFactoryKeys.smtpMailer) { … }"))
    }

    @Test func aMisspeltGeneratedKeyDoesNotCompile() throws {
        let output = try build(broken, "--target", "MisspeltKey")
        #expect(output.status != 0)
        #expect(output.stdout.contains(
            "\(broken)/Sources/MisspeltKey/main.swift:4:36: error: type 'WiringFactoryKeys' has no member 'fileNoteStor'"),
            "\(output.stdout)\(output.stderr)")
    }

    @Test func theCommandPluginValidatesThePackagesRootManifests() throws {
        let output = try plugin(clean, "wiring", "validate")
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        // clock.yaml (imported) and services.test.yaml (an overlay) are checked through services.yaml.
        #expect(output.stdout.contains("Sources/CleanApp/config/services.yaml: 2 services, 1 context, 3 files"))
        #expect(output.stdout.contains("0 errors, 0 warnings in 1 manifest; each context checked: test"))
        let failing = try plugin(broken, "wiring", "validate", "--target", "BrokenApp")
        #expect(failing.status != 0)
        #expect(failing.stdout.contains("/Sources/BrokenApp/config/services.yaml:5:12: error: unknown scope 'singelton'"))
    }

    @Test func theCommandPluginExplainsAndWritesAGraph() throws {
        let explain = try plugin(clean, "wiring", "explain", "Sources/CleanApp/config/services.yaml", "Greeter")
        #expect(explain.status == 0, "\(explain.stdout)\(explain.stderr)")
        #expect(explain.stdout.contains("console-greeter"))
        let folder = try TestSupport.temporaryFolder()
        let graph = folder.appendingPathComponent("wiring.dot").path
        let output = try plugin(clean, "--allow-writing-to-directory", folder.path,
                                "wiring", "graph", "Sources/CleanApp/config/services.yaml", "--output", graph)
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        let text = try String(contentsOfFile: graph, encoding: .utf8)
        #expect(text.hasPrefix("digraph"))
        #expect(text.contains("label=\"clock\""))
    }
}
