#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reads a manifest and the files it imports, and checks them, reporting every problem at its
/// source in one pass.
///
/// ```swift
/// let loader = ManifestLoader()
/// let manifest = try loader.load("config/services.yaml")        // throws ManifestError
///
/// let check = loader.validate("config/services.yaml")           // never throws
/// for diagnostic in check.diagnostics { print(diagnostic) }
/// ```
///
/// An environment variable that a value reads with `${NAME}` and no default is a warning here;
/// building a container from the manifest makes it an error.
public struct ManifestLoader: Sendable {
    /// The environment `${NAME}` references are checked against.
    public var environment: [String: String]
    /// Where `${key}` references are read instead, when set (`wiring validate --config FILE`,
    /// or a container's configuration source): a key it lacks, with no default, is an error.
    public var configuration: (any ConfigurationSource)?
    /// Bounds on file size, nesting and alias expansion.
    public var limits: YAMLLimits

    /// The deepest chain of imports accepted.
    static let maxImportDepth = 64

    /// Creates a loader.
    /// - Parameters:
    ///   - environment: The environment to check `${NAME}` against; the process's by default.
    ///   - limits: Bounds on what the YAML reader accepts.
    public init(environment: [String: String]? = nil, limits: YAMLLimits = .default) {
        self.environment = environment ?? ProcessInfo.processInfo.environment
        self.limits = limits
    }

    /// What `${…}` references are checked against.
    var values: ExternalValues { ExternalValues(environment: environment, configuration: configuration) }

    /// Loads the manifest at `path` with its imports.
    ///
    /// - Parameter path: The root manifest; imports are resolved relative to the file naming them.
    /// - Returns: The validated model; its ``Manifest/diagnostics`` hold any warnings.
    /// - Throws: ``ManifestError`` with every diagnostic when any of them is an error.
    public func load(_ path: String) throws(ManifestError) -> Manifest {
        // Contexts are checked when they are applied (a container applies its own), so loading
        // does not check each one the way `validate` does.
        let result = finishCheck(read(path), values: values, eachContext: false)
        guard let manifest = result.manifest else { throw ManifestError(result.diagnostics) }
        return manifest
    }

    /// Loads and checks the manifest at `path`, collecting every diagnostic instead of throwing.
    ///
    /// Diagnostics come in a stable order: files in the order they were read, then by line
    /// and column.
    ///
    /// Besides the manifest as written, it applies each context in turn and reports the
    /// problems that only appear with it (an `implements` collision, a decorator of a service
    /// the context switches off), each with the context named in a note.
    public func validate(_ path: String) -> ManifestValidation {
        validate(path, options: ValidationOptions())
    }

    /// Loads and checks the manifest at `path` as `options` say: with contexts applied, with
    /// every context checked alone, against the factory keys an app registers.
    public func validate(_ path: String, options: ValidationOptions) -> ManifestValidation {
        finishCheck(read(path), values: values, eachContext: options.eachContext, applying: options.contexts, factoryKeys: options.factoryKeys,
                    autowired: options.autowired, arguments: options.arguments)
    }

    /// What reading and assembling the files produced, before the checks that span the
    /// manifest: ``finishCheck(_:values:eachContext:applying:factoryKeys:autowired:arguments:)`` makes those.
    struct ReadManifest: Sendable {
        /// The manifest as assembled, not yet validated.
        let manifest: Manifest
        /// What reading and assembling reported.
        let diagnostics: [Diagnostic]
        /// Each file's bytes and where its secrets are, for the source line under a diagnostic.
        let sources: [String: SourceBytes]
        /// The configuration keys the files read with no default, when a configuration is given.
        let configurationReads: [ConfigurationRead]
    }

    /// Reads the manifest at `path` with its imports and overlay files, and assembles them.
    func read(_ path: String) -> ReadManifest {
        var reader = ImportReader(limits: limits, values: values)
        reader.visit(path, importedAt: nil, chain: [])
        let overlays = reader.overlays(of: path)
        var assembler = ManifestAssembler()
        // The files are handed over, so that their services are taken, not copied.
        let files = reader.files
        reader.files = []
        let configurationReads = files.flatMap(\.configurationReads) + reader.overlayConfigurationReads
        let manifest = assembler.assemble(consume files, overlays: overlays, overlayFiles: reader.overlayFiles)
        return ReadManifest(manifest: manifest, diagnostics: reader.diagnostics + assembler.diagnostics, sources: reader.sources,
                            configurationReads: configurationReads)
    }

    /// The checks of a read manifest, and its diagnostics in order, each with its source line;
    /// `${…}` read from `values` (a configuration source is asked for each key once, as the type
    /// `values` gives it).
    func finishCheck(
        _ read: ReadManifest, values: ExternalValues, eachContext: Bool, applying contexts: [String] = [],
        factoryKeys: Set<String>? = nil, autowired: [String: [AutowiredDependency]] = [:],
        arguments checkArguments: (Manifest, ExternalValues) -> [Diagnostic] = { _, _ in [] }
    ) -> ManifestValidation {
        var manifest = read.manifest
        manifest.autowired = autowired
        var diagnostics = read.diagnostics + read.configurationReads.compactMap { $0.problem(in: values) }
        var validator = ManifestValidator(manifest: manifest)
        validator.run()
        diagnostics += validator.diagnostics
        // Problems that only appear with a context applied (an implements collision, a
        // decorator of a service the context switches off), each reported with its context.
        if let factoryKeys {
            diagnostics += manifest.factoryKeyDiagnostics(registered: factoryKeys)
        }
        if !diagnostics.containsErrors {
            // Warnings a context brings into the declared graph (a captive dependency through a
            // reference it adds), and problems of the arguments it sets, are reported with it;
            // those of the manifest as written, once.
            let arguments = checkArguments(manifest, values)
            diagnostics += arguments
            let seen = Set(diagnostics.map { "\($0.location.map(String.init(describing:)) ?? ""): \($0.message)" })
            func check(_ names: [String]) {
                do {
                    let applied = try manifest.applying(contexts: names)
                    let found = ReferenceChecks(manifest: applied).diagnostics().filter { $0.severity == .warning }
                        + checkArguments(applied, values)
                    for var diagnostic in found {
                        guard !seen.contains("\(diagnostic.location.map(String.init(describing:)) ?? ""): \(diagnostic.message)") else { continue }
                        diagnostic.context = names.joined(separator: ",")
                        diagnostic.notes.append(Diagnostic.Note("with context\(names.count == 1 ? "" : "s") \(names.joined(separator: ", ")) applied"))
                        diagnostics.append(diagnostic)
                    }
                } catch {
                    diagnostics += error.diagnostics
                }
            }
            if !contexts.isEmpty { check(contexts) }
            if eachContext {
                for context in manifest.contexts where !contexts.contains(context.name) { check([context.name]) }
            }
        }

        diagnostics = diagnostics.inManifestOrder(files: manifest.files, bySeverity: false, unplacedFirst: true)
        // Only a file with something to show is decoded and split into lines, once.
        var texts: [String: SourceText] = [:]
        for index in diagnostics.indices {
            guard let location = diagnostics[index].location, let source = read.sources[location.file] else { continue }
            let text = texts[location.file] ?? SourceText(bytes: source.bytes, secrets: source.secrets)
            texts[location.file] = text
            if let shown = text.line(location.line, column: location.column) {
                diagnostics[index].sourceLine = shown.text
                diagnostics[index].sourceColumn = shown.column
            }
        }
        let failed = diagnostics.containsErrors
        return ManifestValidation(
            manifest: failed ? nil : manifest.with(diagnostics: diagnostics),
            diagnostics: diagnostics,
            contextNames: manifest.contexts.map(\.name),
            assembled: manifest)
    }
}

/// What ``ManifestLoader/validate(_:options:)`` checks besides the manifest as written.
public struct ValidationOptions: Sendable {
    /// Contexts to apply, in order; the manifest with them applied is checked.
    public var contexts: [String]
    /// Whether to also apply each defined context alone and report what only appears with it
    /// (on, unless a tool asks for named contexts only).
    package var eachContext = true
    /// The factory keys an app registers (from its registry or its catalog file); every
    /// factory key the manifest names is checked against them, with a did-you-mean.
    public var factoryKeys: Set<String>?

    /// What typed factories read (from an app's registry or its catalog file), by factory
    /// key: every service's `args` are checked against their factory's, at their positions.
    package var argumentSchemas: [String: ArgumentSchema]
    /// An app's registry, whose typed factories' arguments are checked as a container checks
    /// them (decoded, without running a factory); `argumentSchemas` for the keys it lacks.
    package var argumentRegistry: FactoryRegistry?
    /// The dependency types of each autowired factory (from an app's registry or its catalog),
    /// by factory key: the services they build depend on a service of each type.
    package var autowired: [String: [AutowiredDependency]] = [:]

    /// The argument checks these options ask for.
    var arguments: (Manifest, ExternalValues) -> [Diagnostic] {
        let (schemas, registry) = (argumentSchemas, argumentRegistry)
        return { manifest, values in
            guard let registry else { return manifest.argumentDiagnostics(schemas: schemas, values: values) }
            let others = schemas.filter { registry.entry($0.key)?.arguments == nil }
            return manifest.argumentDiagnostics(registry: registry, values: values)
                + manifest.argumentDiagnostics(schemas: others, values: values)
        }
    }

    /// Creates options: the manifest with `contexts` applied is checked, and each context it
    /// defines alone; factory keys when `factoryKeys` is given.
    public init(contexts: [String] = [], factoryKeys: Set<String>? = nil) {
        self.contexts = contexts
        self.factoryKeys = factoryKeys
        argumentSchemas = [:]
    }

    /// Options for the tools: each context alone or not, typed arguments checked against
    /// schemas (a catalog's).
    package init(contexts: [String] = [], eachContext: Bool, factoryKeys: Set<String>? = nil,
                 argumentSchemas: [String: ArgumentSchema] = [:]) {
        self.init(contexts: contexts, factoryKeys: factoryKeys)
        self.eachContext = eachContext
        self.argumentSchemas = argumentSchemas
    }
}

/// The outcome of ``ManifestLoader/validate(_:)``.
public struct ManifestValidation: Sendable {
    /// The model, when no diagnostic is an error.
    public let manifest: Manifest?
    /// Every diagnostic, in a stable order.
    public let diagnostics: [Diagnostic]
    /// The contexts the manifest defines, found even when it has errors (for the tools' reports).
    package let contextNames: [String]
    /// The manifest as read and assembled, also when it has errors: what a tool can still
    /// learn from a broken manifest (its files, the factory keys it names).
    package let assembled: Manifest

    /// Whether no diagnostic is an error (warnings allowed).
    public var succeeded: Bool { !diagnostics.containsErrors }
    /// The error diagnostics.
    public var errors: [Diagnostic] { diagnostics.filter { $0.severity == .error } }
    /// The warning diagnostics.
    public var warnings: [Diagnostic] { diagnostics.filter { $0.severity == .warning } }
}

extension ManifestLoader {
    /// Reads and decodes `bytes`, the file at `path`; returns the reader's problems, then the
    /// decoder's, the file (empty when the reader found nothing to decode), and where its
    /// secrets are written.
    package static func readFile(
        _ bytes: [UInt8], path: String, limits: YAMLLimits, values: ExternalValues
    ) -> (diagnostics: [Diagnostic], file: ManifestFile, secrets: [SourceSpan]) {
        let yaml = YAMLReader.read(bytes, file: path, limits: limits)
        if yaml.document == nil && yaml.diagnostics.containsErrors {
            return (yaml.diagnostics, ManifestFile(path: path), yaml.secrets)
        }
        var decoder = ManifestFileDecoder(file: path, values: values)
        let file = decoder.decode(yaml.document)
        return (yaml.diagnostics + decoder.diagnostics, file, yaml.secrets)
    }
}

/// Reads a file and, depth first, the files it imports, each once.
private struct ImportReader {
    let limits: YAMLLimits
    let values: ExternalValues
    var files: [ManifestFile] = []
    var overlayFiles: [String] = []
    /// The configuration keys the overlay files read with no default.
    var overlayConfigurationReads: [ConfigurationRead] = []
    var sources: [String: SourceBytes] = [:]
    var diagnostics: [Diagnostic] = []
    private var loaded: Set<String> = []

    init(limits: YAMLLimits, values: ExternalValues) {
        self.limits = limits
        self.values = values
    }

    /// Reads the overlay files beside the root manifest: `services.staging.yaml` beside
    /// `services.yaml` is the `staging` context. Each is read like a manifest and decoded as the
    /// body of its context.
    mutating func overlays(of root: String) -> [ContextDefinition] {
        let slash = root.lastIndex(of: "/")
        let folder = slash.map { String(root[..<$0]) } ?? "."
        let fileName = slash.map { String(root[root.index(after: $0)...]) } ?? root
        guard let dot = fileName.lastIndex(of: ".") else { return [] }
        let stem = fileName[..<dot], suffix = fileName[dot...]
        let names: [String]
        do {
            names = try SourceFiles.names(in: folder)
        } catch {
            // A root that could not be read was reported, and its folder may be missing too. A
            // folder that holds a root that was read but cannot be listed (no read permission
            // on it) may hide contexts: said, not skipped.
            guard sources[root] != nil else { return [] }
            let reason = error.reason(limit: limits.maxFileSize)
            diagnostics.append(.warning(
                "cannot list folder '\(folder)' to find the overlay files of '\(fileName)': \(reason); contexts in overlay files are not read",
                at: nil))
            return []
        }
        var contexts: [ContextDefinition] = []
        // Sorted once filtered: the folder may hold many other files (a temporary directory).
        let prefix = stem + "."
        let overlayNames = names.filter { $0.hasPrefix(prefix) && $0.hasSuffix(suffix) && $0 != fileName }
        for name in overlayNames.sorted() {
            let context = String(name.dropFirst(stem.count + 1).dropLast(suffix.count))
            guard !context.isEmpty, !context.contains("."), context != "schema" else { continue }
            let path = slash == nil ? name : folder + "/" + name
            let bytes: [UInt8]
            do {
                bytes = try SourceFiles.read(path, limit: limits.maxFileSize)
            } catch {
                diagnostics.append(.error(
                    "cannot read overlay file '\(path)' of context '\(context)': \(error.reason(limit: limits.maxFileSize))", at: nil))
                continue
            }
            let yaml = YAMLReader.read(bytes, file: path, limits: limits)
            sources[path] = SourceBytes(bytes: bytes, secrets: yaml.secrets)
            diagnostics += yaml.diagnostics
            if yaml.document == nil && yaml.diagnostics.containsErrors { continue }
            var decoder = ManifestFileDecoder(file: path, values: values)
            let overlay = decoder.decodeOverlay(yaml.document, context: context)
            diagnostics += decoder.diagnostics
            overlayConfigurationReads += decoder.configurationReads
            overlayFiles.append(path)
            contexts.append(overlay.context)
        }
        return contexts
    }

    mutating func visit(_ path: String, importedAt: Located<String>?, chain: [(canonical: String, shown: String)]) {
        let canonical = SourceFiles.canonical(path)
        if let start = chain.firstIndex(where: { $0.canonical == canonical }) {
            let cycle = chain[start...].map(\.shown) + [path]
            diagnostics.append(.error("import cycle: " + cycle.joined(separator: " → "), at: importedAt?.location))
            return
        }
        guard !loaded.contains(canonical) else { return }
        guard chain.count < ManifestLoader.maxImportDepth else {
            diagnostics.append(.error(
                "imports nest deeper than \(ManifestLoader.maxImportDepth) files", at: importedAt?.location))
            return
        }
        loaded.insert(canonical)
        let bytes: [UInt8]
        do {
            bytes = try SourceFiles.read(path, limit: limits.maxFileSize)
        } catch {
            let reason = error.reason(limit: limits.maxFileSize)
            if let importedAt {
                let resolved = path == importedAt.value ? "" : " (\(path))"
                diagnostics.append(.error("cannot read import '\(importedAt.value)'\(resolved): \(reason)", at: importedAt.location))
            } else {
                diagnostics.append(.error("cannot read manifest '\(path)': \(reason)", at: nil))
            }
            return
        }
        let (problems, file, secrets) = ManifestLoader.readFile(bytes, path: path, limits: limits, values: values)
        sources[path] = SourceBytes(bytes: bytes, secrets: secrets)
        diagnostics += problems
        files.append(file)
        for entry in file.imports {
            visit(SourceFiles.resolve(entry.value, relativeTo: path), importedAt: entry,
                  chain: chain + [(canonical, path)])
        }
    }
}
