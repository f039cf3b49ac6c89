package import ArgumentParser

/// The `wiring` command: the subcommands that check and describe manifests.
package struct WiringCommand: AsyncParsableCommand {
    /// The command's name, help, version and subcommands.
    package static let configuration = CommandConfiguration(
        commandName: "wiring",
        abstract: "Check and describe Wiring manifests: the YAML that declares a Swift app's object graph.",
        discussion: """
            Example:
              wiring validate config-examples/services.yaml
            """,
        version: "0.1.0",
        subcommands: [ValidateCommand.self, ExplainCommand.self, GraphCommand.self, SchemaCommand.self, BuildCheckCommand.self])

    /// Creates the command; ArgumentParser fills in its options.
    package init() {}
}
