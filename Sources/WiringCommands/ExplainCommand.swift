package import ArgumentParser
import Foundation
import Wiring

/// `explain`: the effective definition of one service, each field with where it came from.
package struct ExplainCommand: ParsableCommand {
    /// The command's name and help.
    package static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Show the effective definition of one service, each field with the file:line it came from.",
        discussion: """
            Applies imports, overlay files and the given contexts, then prints the service's \
            factory, scope, implements, decorators, args and named variants, each with its \
            value, its position, the context that set it, and the template it was filled in \
            from. Values read from the environment or tagged !secret print as <redacted> \
            unless --show-values.

            Examples:
              wiring explain config/services.yaml UserStore
              wiring explain config/services.yaml UserStore --context staging --show-values
            """)

    /// The root manifest.
    @Argument(help: "The root manifest.")
    package var path: String

    /// The service key.
    @Argument(help: "The service key, as the manifest writes it.")
    package var service: String

    /// Contexts to apply.
    @Option(name: .customLong("context"), help: "Apply this context first (repeat for several, in order).")
    package var contexts: [String] = []

    /// An app's catalog, whose autowired factories' dependencies are shown.
    @Option(help: "The app's factory catalog (its `catalog` command's JSON): autowired factories' dependencies are shown too.")
    package var catalog: String?

    /// Whether to show environment and secret values.
    @Flag(help: "Show values read from the environment or tagged !secret instead of <redacted>.")
    package var showValues = false

    /// Creates the command; ArgumentParser fills in its arguments.
    package init() {}

    /// Prints the explanation, or the problems that stop it.
    package func run() throws {
        let environment = ProcessInfo.processInfo.environment
        do {
            var manifest = try ManifestLoader(environment: environment).load(path).applying(contexts: contexts)
            if let catalog { manifest.autowired = try FactoryCatalog(contentsOf: catalog).autowiredDependencies }
            print(try manifest.explain(service, environment: environment, showingValues: showValues))
        } catch {
            for diagnostic in error.diagnostics { print(diagnostic.formatted()) }
            throw ExitCode(1)
        }
    }
}
