package import ArgumentParser
import Foundation
import Wiring

/// `wiring build-check`: what the `WiringValidate` build plugin runs for a target. Not meant
/// to be typed: the plugin passes absolute paths, so that every diagnostic prints as
/// `/abs/path:line:col: error: …`, the form SwiftPM and Xcode show at the line.
///
/// It validates the target's root manifests (a file another one imports, or an overlay file,
/// is checked through its root), warns of factory keys no Swift source of the target names,
/// and writes `WiringFactoryKeys` (see ``FactoryKeySet``). Exits 1 when any diagnostic is an
/// error, which fails the build.
package struct BuildCheckCommand: AsyncParsableCommand {
    /// The command's name; hidden from help.
    package static let configuration = CommandConfiguration(
        commandName: "build-check",
        abstract: "Validate a target's manifests and generate its factory keys (run by the WiringValidate build plugin).",
        shouldDisplay: false)

    /// The manifests found in the target: files that start with `wiring:`.
    @Option(name: .customLong("manifest"), help: "A manifest of the target (repeat).")
    package var manifests: [String] = []

    /// The target's `wiring-plugin.json`, if it has one.
    @Option(help: "The target's wiring-plugin.json.")
    package var config: String?

    /// A file listing the Swift sources to look for registrations in, one path per line.
    @Option(help: "A file listing the target's Swift sources, one per line.")
    package var sources: String?

    /// Where to write `WiringFactoryKeys`.
    @Option(help: "The Swift file to generate.")
    package var output: String

    /// Creates the command; ArgumentParser fills in its arguments.
    package init() {}

    /// Validates, prints diagnostics, writes the generated keys.
    /// - Throws: `ExitCode(1)` when any diagnostic is an error.
    package func run() async throws {
        var diagnostics: [Diagnostic] = []
        var configuration = PluginConfiguration()
        var paths = manifests
        var arguments: [String: ArgumentSchema] = [:]
        var autowired: [String: [AutowiredDependency]] = [:]
        if let config {
            do {
                configuration = try PluginConfiguration(contentsOf: config)
                let folder = URL(fileURLWithPath: config).deletingLastPathComponent()
                paths += configuration.manifests.map { URL(fileURLWithPath: $0, relativeTo: folder).standardizedFileURL.path }
                if let catalog = configuration.catalog {
                    let read = try FactoryCatalog(contentsOf: URL(fileURLWithPath: catalog, relativeTo: folder).standardizedFileURL.path)
                    arguments = read.arguments
                    autowired = read.autowiredDependencies
                }
            } catch {
                diagnostics += error.diagnostics
            }
        }
        let loader = ManifestLoader()
        var options = ValidationOptions(contexts: configuration.contexts, eachContext: true, argumentSchemas: arguments)
        options.autowired = autowired
        let roots = ManifestRoots.roots(among: paths) { loader.validate($0, options: options) }
        var uses: [Manifest.FactoryKeyUse] = []
        for root in roots {
            diagnostics += root.result.diagnostics
            uses += root.result.assembled.factoryKeyUses
        }
        let generated = FactoryKeysSource(uses: uses)
        if configuration.registrations != .off, let sources {
            diagnostics += registrationDiagnostics(uses, generated: generated, sourceList: sources,
                                                   severity: configuration.registrations == .error ? .error : .warning)
        }
        if configuration.strict { diagnostics.treatWarningsAsErrors() }
        for diagnostic in diagnostics { print(diagnostic.formatted()) }
        try Self.write(generated.text, to: output)
        if diagnostics.containsErrors { throw ExitCode(1) }
    }

    /// A diagnostic for each factory key that no source in the list names, at the manifest's
    /// first use of it.
    private func registrationDiagnostics(
        _ uses: [Manifest.FactoryKeyUse], generated: FactoryKeysSource, sourceList: String, severity: Diagnostic.Severity
    ) -> [Diagnostic] {
        var scan = RegistrationScan()
        var diagnostics: [Diagnostic] = []
        let list: String
        do {
            list = try Self.text(of: sourceList)
        } catch {
            return [.error("cannot read the list of Swift sources '\(sourceList)': \(error.reason(limit: Self.maxSourceSize))", at: nil)]
        }
        for path in list.split(separator: "\n") where !path.isEmpty {
            // A source that cannot be read is said, not skipped in silence: the factories it
            // registers would be reported as registered nowhere.
            do {
                scan.scan(try Self.text(of: String(path)))
            } catch {
                diagnostics.append(.warning("cannot read Swift source '\(path)' to find the factories it registers: "
                                            + error.reason(limit: Self.maxSourceSize), at: nil))
            }
        }
        let names = Dictionary(generated.constants.map { ($0.key, $0.name) }, uniquingKeysWith: { first, _ in first })
        var reported: Set<String> = []
        for use in uses where reported.insert(use.key).inserted {
            guard !scan.names(use.key, constant: names[use.key] ?? use.key) else { continue }
            var diagnostic = Diagnostic(
                severity,
                "service '\(use.owner)' uses factory '\(use.key)', which no Swift source of this target registers: register it with registry.factory(WiringFactoryKeys.\(names[use.key] ?? use.key)) { … }",
                at: use.location)
            diagnostic.context = use.context
            diagnostics.append(diagnostic)
        }
        return diagnostics
    }

    /// The largest Swift source (or list of sources) read, in bytes.
    static let maxSourceSize = 64 << 20

    /// The text of the file at `path`, read as manifests are (a pipe or a device is refused).
    private static func text(of path: String) throws(SourceFiles.ReadError) -> String {
        String(decoding: try SourceFiles.read(path, limit: maxSourceSize), as: UTF8.self)
    }

    /// Writes `text` unless the file already holds it, so an unchanged file does not make the
    /// target compile again.
    private static func write(_ text: String, to path: String) throws {
        // A file that cannot be read (the first build has none) is written.
        if let existing = try? String(contentsOfFile: path, encoding: .utf8), existing == text { return }
        try FileManager.default.createDirectory(at: URL(fileURLWithPath: path).deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }
}
