package import ArgumentParser
import Foundation
package import Wiring

/// How `validate` prints what it found.
package enum OutputFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
    /// `path:line:col: error: message`, the source line, a caret; then a summary line.
    case text
    /// One JSON document: every manifest with its diagnostics, and the totals.
    case json
}

/// The arguments `validate` takes, shared by `wiring validate` and an app's embedded command.
package struct ValidateOptions: ParsableArguments {
    /// The manifests to check.
    @Argument(help: "The root manifests to check; their imports and overlay files are followed.")
    package var paths: [String]

    /// Contexts to apply before checking.
    @Option(name: .customLong("context"), help: "Check with this context applied (repeat for several, applied in order).")
    package var contexts: [String] = []

    /// Whether to check the manifest alone and then each context alone.
    @Flag(help: "Check the manifest as written and each context alone, naming the context of each problem.")
    package var allContexts = false

    /// Whether warnings count as errors.
    @Flag(help: "Treat warnings (a captive dependency, an unknown tag, an unset environment variable) as errors.")
    package var strict = false

    /// A factory catalog to check factory keys and typed arguments against.
    @Option(help: ArgumentHelp("Check factory keys and typed factories' arguments against the catalog an app exports (its 'catalog' command).", valueName: "file"))
    package var catalog: String?

    /// A configuration file whose keys `${key}` references read.
    @Option(help: ArgumentHelp(
        "Check ${key} references against this JSON or YAML file (nested keys are dotted: http.port), as the app's configuration reader will read them.",
        valueName: "file"))
    package var config: String?

    /// Whether the paths may include imports and overlay files, to be checked through their roots.
    @Flag(help: ArgumentHelp("Check only the roots among the paths: skip a file another one imports or overlays.", visibility: .hidden))
    package var rootsOnly = false

    /// The output format.
    @Option(help: "text or json.")
    package var format: OutputFormat = .text

    /// Creates options; ArgumentParser fills them in.
    package init() {}

    /// Validates every path and prints the result.
    /// - Parameters:
    ///   - factoryKeys: Keys to check factories against (an app's registry); `--catalog` adds to them.
    ///   - registry: An app's registry: its typed factories' arguments are checked as building a
    ///     container checks them, without running a factory.
    ///   - extra: More checks for a manifest that validated (an app's `--instantiate`).
    /// - Throws: `ExitCode(1)` when any diagnostic is an error.
    package func run(factoryKeys: Set<String>? = nil, registry: FactoryRegistry? = nil,
                    extra: ((Manifest) async -> [Diagnostic])? = nil) async throws {
        try await run(factoryKeys: factoryKeys, registry: registry, extraReading: extra.map { extra in { manifest, _ in await extra(manifest) } })
    }

    /// ``run(factoryKeys:registry:extra:)``, with `extraReading` given the configuration
    /// `--config` named, as read for the validation (an app's `--instantiate` builds its
    /// container over it).
    func run(factoryKeys: Set<String>?, registry: FactoryRegistry?,
             extraReading: ((Manifest, (any ConfigurationSource)?) async -> [Diagnostic])?) async throws {
        var keys = factoryKeys
        var schemas: [String: ArgumentSchema] = [:]
        var autowired = registry?.autowiredDependencies ?? [:]
        var reports: [Report] = []
        if let catalog {
            do {
                let read = try FactoryCatalog(contentsOf: catalog)
                keys = (keys ?? []).union(read.factories)
                schemas = read.arguments
                autowired.merge(read.autowiredDependencies) { fromRegistry, _ in fromRegistry }
            } catch {
                reports.append(Report(path: catalog, manifest: nil, diagnostics: error.diagnostics, contextNames: []))
            }
        }
        var loader = ManifestLoader()
        if let config {
            do {
                loader.configuration = try ConfigurationFile(path: config)
            } catch {
                reports.append(Report(path: config, manifest: nil, diagnostics: error.diagnostics, contextNames: []))
            }
        }
        var options = ValidationOptions(contexts: contexts, eachContext: allContexts || contexts.isEmpty, factoryKeys: keys,
                                        argumentSchemas: schemas)
        options.argumentRegistry = registry
        options.autowired = autowired
        let validate = { (path: String) in loader.validate(path, options: options) }
        let roots = rootsOnly ? ManifestRoots.roots(among: paths, validate: validate) : nil
        if reports.isEmpty {
            for (path, result) in roots ?? paths.map({ ($0, validate($0)) }) {
                var diagnostics = result.diagnostics
                if let manifest = result.manifest, let extraReading { diagnostics += await extraReading(manifest, loader.configuration) }
                if strict { diagnostics.treatWarningsAsErrors() }
                reports.append(Report(path: path, manifest: result.manifest, diagnostics: diagnostics, contextNames: result.contextNames))
            }
        }
        switch format {
        case .text: printText(reports, manifests: roots?.count ?? paths.count)
        case .json: printJSON(reports)
        }
        if reports.contains(where: { $0.diagnostics.containsErrors }) { throw ExitCode(1) }
    }

    private struct Report {
        let path: String
        let manifest: Manifest?
        let diagnostics: [Diagnostic]
        let contextNames: [String]
    }


    private func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }

    private func printText(_ reports: [Report], manifests: Int) {
        var errors = 0, warnings = 0
        for report in reports {
            for diagnostic in report.diagnostics { print(diagnostic.formatted()) }
            errors += report.diagnostics.filter { $0.severity == .error }.count
            warnings += report.diagnostics.filter { $0.severity == .warning }.count
            if let manifest = report.manifest, !report.diagnostics.containsErrors {
                print("\(report.path): \(count(manifest.services.count, "service")), \(count(manifest.contexts.count, "context")), \(count(manifest.files.count, "file"))")
            }
        }
        var summary = "\(count(errors, "error")), \(count(warnings, "warning")) in \(count(manifests, "manifest"))"
        if !contexts.isEmpty { summary += " with context\(contexts.count == 1 ? "" : "s") \(contexts.joined(separator: ", "))" }
        if allContexts || contexts.isEmpty {
            let names = Set(reports.flatMap(\.contextNames)).sorted()
            if !names.isEmpty { summary += "; each context checked: \(names.joined(separator: ", "))" }
        }
        print(summary)
    }

    private func printJSON(_ reports: [Report]) {
        struct Output: Encodable {
            struct Manifest: Encodable {
                let path: String
                let services: Int?
                let contexts: [String]?
                let diagnostics: [DiagnosticJSON]
            }
            let manifests: [Manifest]
            let errors: Int
            let warnings: Int
        }
        let all = reports.flatMap(\.diagnostics)
        let output = Output(
            manifests: reports.map {
                Output.Manifest(path: $0.path, services: $0.manifest?.services.count,
                                contexts: $0.contextNames, diagnostics: $0.diagnostics.map(DiagnosticJSON.init))
            },
            errors: all.filter { $0.severity == .error }.count,
            warnings: all.filter { $0.severity == .warning }.count)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Strings, integers and optionals only: JSONEncoder cannot fail on them.
        if let data = try? encoder.encode(output) { print(String(decoding: data, as: UTF8.self)) }
    }
}
