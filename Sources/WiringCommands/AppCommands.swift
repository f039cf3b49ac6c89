public import ArgumentParser
public import Wiring

/// An app that embeds Wiring's commands gives them its registry through this protocol.
///
/// ```swift
/// enum NotesApp: WiringApp {
///     static func makeRegistry() -> FactoryRegistry { Registrations.all() }
/// }
///
/// @main struct NotesTool: ParsableCommand {
///     static let configuration = CommandConfiguration(subcommands: [
///         Run.self,
///         AppValidateCommand<NotesApp>.self,
///         AppCatalogCommand<NotesApp>.self,
///         ExplainCommand.self,
///     ])
/// }
/// ```
public protocol WiringApp {
    /// The app's registry, with every factory registered.
    static func makeRegistry() -> FactoryRegistry

    /// The keys the `WiringValidate` build plugin generated for the app's manifests
    /// (`WiringFactoryKeys.self`): `validate --instantiate` reports each one the registry lacks,
    /// also those of manifests and contexts it was not given. `nil` (the default) skips that.
    static var factoryKeys: (any FactoryKeySet.Type)? { get }
}

extension WiringApp {
    /// No generated keys to check.
    public static var factoryKeys: (any FactoryKeySet.Type)? { nil }
}

/// `validate` inside an app: everything `wiring validate` checks, plus the app's factory keys,
/// and with `--instantiate` a dry run that resolves every service once.
///
/// The dry run awaits async factories, so the app's root command must be an
/// `AsyncParsableCommand`.
public struct AppValidateCommand<App: WiringApp>: AsyncParsableCommand {
    /// The command's name and help.
    public static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "validate",
            abstract: "Check manifests against this app's factories; optionally build every service once.",
            discussion: """
                Does everything 'wiring validate' does, and checks every factory key against the \
                factories this app registers, with a did-you-mean, and every service's args against \
                what its typed factory reads, without running any factory. With --instantiate it builds a \
                container in the given contexts and resolves every service and named variant once, \
                reporting each failure with its resolution path.

                Example:
                  myapp validate config/services.yaml --context staging --instantiate
                """)
    }

    /// What to check and how to print it.
    @OptionGroup package var options: ValidateOptions

    /// Whether to build every service once.
    @Flag(help: "Build a container in the given contexts and resolve every service once.")
    package var instantiate = false

    /// Creates the command; ArgumentParser fills in its arguments.
    public init() {}

    /// Validates, checks factory keys against the app's registry, and dry-runs when asked.
    /// - Throws: `ExitCode(1)` when any diagnostic is an error.
    public func run() async throws {
        let registry = App.makeRegistry()
        let contexts = options.contexts
        try await options.run(factoryKeys: Set(registry.keys), registry: registry, extraReading: instantiate ? { manifest, configuration in
            do {
                let container = try Container(
                    manifest: manifest, registry: registry,
                    contexts: ContextSelection(contexts: contexts, environmentVariable: nil, launchArgument: nil, detectsTests: false),
                    options: .init(configuration: configuration))
                var diagnostics = (App.factoryKeys?.missing(in: registry) ?? []).map { key in
                    Diagnostic.error("factory '\(key)', which the app's manifests name (WiringFactoryKeys), is not registered", at: nil)
                }
                diagnostics += await container.instantiateAll()
                // What the dry run opened is closed again: every kept instance's shutdown hooks.
                do {
                    try await container.shutdown()
                } catch {
                    diagnostics.append(.error("\(error)", at: nil))
                }
                return diagnostics
            } catch let error as ManifestError {
                return error.diagnostics
            } catch {
                return [.error("\(error)", at: nil)]
            }
        } : nil)
    }
}

/// `graph` inside an app: what `wiring graph` draws and, with `--instantiate`, the dependencies
/// the app's factories resolve in code, found by building every service once, drawn dashed.
public struct AppGraphCommand<App: WiringApp>: AsyncParsableCommand {
    /// The command's name and help.
    public static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "graph",
            abstract: "Draw the wiring; with --instantiate, also what factories resolve in code.",
            discussion: """
                Example:
                  myapp graph config/services.yaml --context staging --instantiate | dot -Tsvg > wiring.svg
                """)
    }

    /// What to draw and how.
    @OptionGroup package var options: GraphOptions

    /// Whether to build every service once and draw what factories resolve in code.
    @Flag(help: "Build every service once and draw the dependencies factories resolve in code (dashed).")
    package var instantiate = false

    /// Creates the command; ArgumentParser fills in its arguments.
    public init() {}

    /// Prints the graph, or the problems that stop it.
    public func run() async throws {
        do {
            let loaded = try ManifestLoader().load(options.path)
            var manifest = try loaded.applying(contexts: options.contexts)
            manifest.autowired = App.makeRegistry().autowiredDependencies
            var resolved: [ResolvedEdge] = []
            if instantiate {
                var recording = Container.Options()
                recording.recordsResolvedEdges = true
                let container = try Container(
                    manifest: loaded, registry: App.makeRegistry(),
                    contexts: ContextSelection(contexts: options.contexts, environmentVariable: nil, launchArgument: nil, detectsTests: false),
                    options: recording)
                _ = await container.instantiateAll()
                // The graph is drawn from what was built; a failing shutdown hook has no edge to add.
                try? await container.shutdown()
                resolved = container.resolvedEdges
            }
            print(manifest.graph(format: options.format, resolvedEdges: resolved))
        } catch {
            for diagnostic in error.diagnostics { print(diagnostic.formatted()) }
            throw ExitCode(1)
        }
    }
}

/// `catalog` inside an app: prints the app's factory keys and its typed factories' argument
/// schemas as the JSON `wiring validate --catalog` and `wiring schema --catalog` read.
public struct AppCatalogCommand<App: WiringApp>: ParsableCommand {
    /// The command's name and help.
    public static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "catalog",
            abstract: "Print this app's factory keys and typed arguments as JSON, for 'wiring validate --catalog'.",
            discussion: """
                Example:
                  myapp catalog > factories.json
                  wiring validate config/services.yaml --catalog factories.json
                """)
    }

    /// Creates the command.
    public init() {}

    /// Prints the catalog.
    public func run() throws {
        print(String(decoding: try FactoryCatalog(registry: App.makeRegistry()).jsonData(), as: UTF8.self))
    }
}
