package import ArgumentParser
import Foundation
import Wiring

/// `wiring schema`: prints the JSON Schema of the manifest format.
package struct SchemaCommand: ParsableCommand {
    /// The command's name and help.
    package static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print the JSON Schema (draft 2020-12) of manifests, for editors and tools.",
        discussion: """
            The schema is generated from the same tables the loader checks keys against, so the \
            two cannot drift. Point a manifest at it with a first line that editors read:
              # yaml-language-server: $schema=wiring.schema.json
            Overlay files (services.staging.yaml) have a schema of their own: --overlay. With \
            --catalog, each service's args are typed by its factory, so an editor completes \
            argument names and flags wrong types.

            Examples:
              wiring schema > config/wiring.schema.json
              wiring schema --overlay > config/wiring-overlay.schema.json
              myapp catalog > factories.json && wiring schema --catalog factories.json > config/wiring.schema.json
            """)

    /// Whether to print the overlay files' schema.
    @Flag(help: "Print the schema of overlay files (<name>.<context>.yaml) instead.")
    package var overlay = false

    /// A factory catalog whose typed factories type each service's `args`.
    @Option(help: ArgumentHelp("Type each service's args by its factory, from the catalog an app exports (its 'catalog' command).", valueName: "file"))
    package var catalog: String?

    /// Creates the command.
    package init() {}

    /// Prints the schema.
    package func run() throws {
        var arguments: [String: ArgumentSchema] = [:]
        if let catalog {
            do {
                arguments = try FactoryCatalog(contentsOf: catalog).arguments
            } catch {
                for diagnostic in error.diagnostics { print(diagnostic.formatted()) }
                throw ExitCode(1)
            }
        }
        FileHandle.standardOutput.write(ManifestSchema.jsonSchema(overlay: overlay, arguments: arguments))
    }
}
