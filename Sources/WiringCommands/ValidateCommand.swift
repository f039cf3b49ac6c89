package import ArgumentParser
import Wiring

/// `wiring validate`: checks manifests and their imports, printing every problem in one pass.
///
/// Without an app's registry it checks everything but factory keys; with `--catalog` (the JSON
/// an app's `catalog` command writes) it checks those too. Exits 0 when no diagnostic is an
/// error (warnings allowed), 1 otherwise; usage errors keep ArgumentParser's exit code.
package struct ValidateCommand: AsyncParsableCommand {
    /// The command's name and help.
    package static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check manifests and everything they import, reporting every problem at once.",
        discussion: """
            Reads each manifest with its imports and overlay files and reports, as \
            path:line:col: error: message, every unknown key (with a did-you-mean), value of the \
            wrong kind, unknown scope, duplicate service or parameter, implements collision, \
            unknown decorated or overridden service, undefined parameter, missing import and \
            import cycle. An environment variable read with ${NAME} that is unset and has no \
            default is a warning; with --config FILE, every ${key} is read from that JSON or YAML \
            file instead, and a key it lacks is an error (without it, dotted keys such as \
            ${http.port} are listed as configuration keys, not checked). Each context is also applied alone, and what only appears with \
            it is reported with the context named. With --catalog, factory keys are checked too.

            Exits 0 when there is no error (warnings allowed), 1 when there is any.

            Examples:
              wiring validate config/services.yaml
              wiring validate config/services.yaml --context staging --context mock-api
              wiring validate config/services.yaml --catalog factories.json --format json
              wiring validate config/services.yaml --config config/production.json
            """)

    /// What to check and how to print it.
    @OptionGroup package var options: ValidateOptions

    /// Creates the command; ArgumentParser fills in its arguments.
    package init() {}

    /// Validates each manifest and prints its diagnostics, then a summary.
    /// - Throws: `ExitCode(1)` when any diagnostic is an error.
    package func run() async throws {
        try await options.run()
    }
}
