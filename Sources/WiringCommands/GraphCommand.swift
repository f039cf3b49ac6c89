public import ArgumentParser
import Foundation
import Wiring

extension GraphFormat: ExpressibleByArgument {}

/// `wiring graph`: the wiring of an environment as Graphviz DOT or Mermaid.
package struct GraphCommand: ParsableCommand {
    /// The command's name and help.
    package static let configuration = CommandConfiguration(
        commandName: "graph",
        abstract: "Draw the services, their implements types, names and decorators as DOT or Mermaid.",
        discussion: """
            Applies imports, overlay files and the given contexts, so each environment's wiring \
            can be seen as a picture.

            Examples:
              wiring graph config/services.yaml | dot -Tsvg > wiring.svg
              wiring graph config/services.yaml --context staging --format mermaid
            """)

    /// What to draw and how.
    @OptionGroup package var options: GraphOptions

    /// Creates the command; ArgumentParser fills in its arguments.
    package init() {}

    /// Prints the graph, or the problems that stop it.
    package func run() throws {
        do {
            var manifest = try ManifestLoader().load(options.path).applying(contexts: options.contexts)
            if let catalog = options.catalog { manifest.autowired = try FactoryCatalog(contentsOf: catalog).autowiredDependencies }
            print(manifest.graph(format: options.format))
        } catch {
            for diagnostic in error.diagnostics { print(diagnostic.formatted()) }
            throw ExitCode(1)
        }
    }
}

/// The arguments `graph` takes, shared by `wiring graph` and an app's embedded command.
package struct GraphOptions: ParsableArguments {
    /// The root manifest.
    @Argument(help: "The root manifest.")
    package var path: String

    /// Contexts to apply.
    @Option(name: .customLong("context"), help: "Apply this context first (repeat for several, in order).")
    package var contexts: [String] = []

    /// The output format.
    @Option(help: "dot or mermaid.")
    package var format: GraphFormat = .dot

    /// An app's catalog, whose autowired factories' dependencies are drawn.
    @Option(help: "The app's factory catalog (its `catalog` command's JSON): autowired factories' dependencies are drawn too.")
    package var catalog: String?

    /// Creates options; ArgumentParser fills them in.
    package init() {}
}
