public import ArgumentParser
import Wiring

/// `validate`: checks manifests and their imports, printing every problem in one pass.
///
/// Add it to your own tool, or run it as `wiring validate`:
///
/// ```swift
/// @main struct MyTool: ParsableCommand {
///     static let configuration = CommandConfiguration(subcommands: [ValidateCommand.self])
/// }
/// ```
///
/// Exits 0 when no diagnostic is an error (warnings allowed) and 1 otherwise.
public struct ValidateCommand: ParsableCommand {
    /// The command's name and help.
    public static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check manifests and everything they import, reporting every problem at once.",
        discussion: """
            Reads each manifest with its imports and reports, as path:line:col: error: message, \
            every unknown key (with a did-you-mean), value of the wrong kind, unknown scope, \
            duplicate service or parameter, implements collision, unknown decorated or overridden \
            service, undefined parameter, missing import and import cycle. An environment variable \
            read with ${NAME} that is unset and has no default is a warning.

            Exits 0 when there is no error (warnings allowed), 1 when there is any.

            Example:
              wiring validate config/services.yaml
            """)

    /// The manifests to check.
    @Argument(help: "The root manifests to check; imports are followed.")
    public var paths: [String]

    /// Creates the command; ArgumentParser fills in its arguments.
    public init() {}

    /// Validates each manifest and prints its diagnostics, then a summary.
    /// - Throws: `ExitCode(1)` when any diagnostic is an error.
    public func run() throws {
        let loader = ManifestLoader()
        var errors = 0, warnings = 0
        for path in paths {
            let result = loader.validate(path)
            for diagnostic in result.diagnostics {
                print(diagnostic.formatted())
            }
            errors += result.errors.count
            warnings += result.warnings.count
            if let manifest = result.manifest {
                print("\(path): \(manifest.services.count) services, \(manifest.contexts.count) contexts, \(manifest.files.count) files")
            }
        }
        print("\(count(errors, "error")), \(count(warnings, "warning")) in \(count(paths.count, "manifest"))")
        if errors > 0 { throw ExitCode(1) }
    }

    private func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}
