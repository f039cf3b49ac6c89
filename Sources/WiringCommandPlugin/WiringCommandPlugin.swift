import Foundation
import PackagePlugin

/// `swift package wiring validate|explain|graph …`: the `wiring` tool on this package's
/// manifests, with paths relative to the package.
///
/// - `swift package wiring validate [--target NAME]…` with no path validates the root
///   manifests of every target (or of the named ones): files under a target that start with
///   `wiring:`, other than those another one imports or overlays.
/// - `swift package wiring graph PATH --output FILE` writes the graph to FILE. Writing needs
///   permission: `swift package --allow-writing-to-package-directory wiring graph …`.
///
/// Everything else is passed to the tool as it is.
@main
struct WiringCommandPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        let targetNames = extractor.extractOption(named: "target")
        let output = extractor.extractOption(named: "output").last
        var remaining = extractor.remainingArguments
        let tool = try context.tool(named: "WiringPluginTool").url
        if remaining.first == "validate", !remaining.dropFirst().contains(where: { !$0.hasPrefix("-") && isManifestPath($0) }) {
            let targets = try context.package.targets(named: targetNames.isEmpty ? context.package.targets.map(\.name) : targetNames)
            let manifests = targets.compactMap { $0 as? SourceModuleTarget }.flatMap { ManifestFinder.manifests(under: $0.directoryURL) }
            guard !manifests.isEmpty else {
                print("no Wiring manifests in \(targetNames.isEmpty ? "this package's targets" : targetNames.joined(separator: ", ")): no .yaml file there starts with 'wiring:'")
                return
            }
            remaining += ["--roots-only"] + manifests.map(\.path)
        }
        let result = try run(tool, remaining, in: context.package.directoryURL, capturing: output != nil)
        if let output, result.status == 0 {
            let url = URL(fileURLWithPath: output, relativeTo: context.package.directoryURL)
            do {
                try result.output.write(to: url)
                print("wrote \(url.path)")
            } catch {
                Diagnostics.error("cannot write \(url.path): \(error.localizedDescription). Writing needs permission: swift package --allow-writing-to-package-directory wiring \(arguments.joined(separator: " "))")
                throw ExitCode(1)
            }
        }
        if result.status != 0 { throw ExitCode(result.status) }
    }

    /// Whether an argument names a manifest (rather than an option's value).
    private func isManifestPath(_ argument: String) -> Bool {
        argument.hasSuffix(".yaml") || argument.hasSuffix(".yml")
    }

    /// Runs the tool in the package's folder; its output goes to ours unless captured.
    private func run(_ tool: URL, _ arguments: [String], in folder: URL, capturing: Bool) throws -> (status: Int32, output: Data) {
        let process = Process()
        process.executableURL = tool
        process.arguments = arguments
        process.currentDirectoryURL = folder
        let pipe = Pipe()
        if capturing { process.standardOutput = pipe }
        try process.run()
        let output = capturing ? pipe.fileHandleForReading.readDataToEndOfFile() : Data()
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }

    private struct ExitCode: Error, CustomStringConvertible {
        let status: Int32
        init(_ status: Int32) { self.status = status }
        var description: String { "wiring exited with status \(status)" }
    }
}
