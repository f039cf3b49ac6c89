import Foundation
import PackagePlugin

/// The `WiringValidate` build-tool plugin: on every build where a manifest (or a Swift source)
/// of the target changed, runs `wiring build-check` on the target's manifests. Its
/// diagnostics print as `/path:line:col: error: …`, so SwiftPM and Xcode show them at the
/// manifest's line, and an error fails the build. It also adds `WiringFactoryKeys` to the
/// target: a constant for each factory key the manifests name.
///
/// A target's manifests are the `.yaml`/`.yml` files under its folder whose first line that is
/// neither blank nor a comment starts with `wiring:`, and those its `wiring-plugin.json` lists.
@main
struct WiringValidate: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) async throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let folder = target.directoryURL
        var manifests = ManifestFinder.manifests(under: folder)
        let config = folder.appending(path: "wiring-plugin.json")
        var arguments = ["build-check"]
        var inputs: [URL] = []
        if FileManager.default.fileExists(atPath: config.path) {
            arguments += ["--config", config.path]
            inputs.append(config)
            // The listed manifests are checked too. They and the manifests beside them (what
            // they import, their overlays) are inputs, so that editing one validates again.
            let listed = ManifestFinder.listed(in: config)
            manifests += listed
            let folders = Set(listed.map { $0.deletingLastPathComponent().path }).sorted()
            inputs += folders.flatMap { ManifestFinder.manifests(under: URL(fileURLWithPath: $0)) }
            // A new catalog (the app's `catalog` command) checks the arguments again.
            if let catalog = ManifestFinder.catalog(in: config), FileManager.default.fileExists(atPath: catalog.path) {
                inputs.append(catalog)
            }
        }
        let swiftSources = ([target] + target.recursiveTargetDependencies.compactMap { $0 as? SourceModuleTarget })
            .flatMap { $0.sourceFiles(withSuffix: "swift").map(\.url) }
        let work = context.pluginWorkDirectoryURL
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let sourceList = work.appending(path: "swift-sources.txt")
        try Data(swiftSources.map(\.path).joined(separator: "\n").utf8).write(to: sourceList)
        let output = work.appending(path: "WiringFactoryKeys.swift")
        arguments += ["--sources", sourceList.path, "--output", output.path]
        for manifest in manifests where !manifest.path.isEmpty {
            arguments += ["--manifest", manifest.path]
        }
        return [
            .buildCommand(
                displayName: "Validating the Wiring manifests of \(target.name)",
                executable: try context.tool(named: "WiringPluginTool").url,
                arguments: arguments,
                inputFiles: inputs + manifests + swiftSources,
                outputFiles: [output])
        ]
    }
}
