#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
public import Logging
import Synchronization

/// The container: a manifest bound to a registry's factories, resolving services by type,
/// name or key, in their scopes.
///
/// ```swift
/// let registry = FactoryRegistry()
/// registry.factory("console-logger") { r in ConsoleLogger(level: try r.arg("level")) }
/// let container = try Container(manifest: "config/services.yaml", registry: registry)
///
/// let logger: Logger = try container.resolve()
/// let replica = try container.resolve(UserStore.self, name: "replica")
/// ```
///
/// Building a container checks that every service's factory is registered and that every
/// environment variable a value reads is set, and throws ``ManifestError`` with every problem
/// at its manifest position. Resolving throws ``ResolutionError``; nothing a user writes makes
/// the container stop the process. Resolving from many threads at once is safe, and a kept
/// instance is built exactly once.
public final class Container: Sendable {
    /// Settings of a container that are not in the manifest.
    public struct Options: Sendable {
        /// The environment `${NAME}` references read; the process's when `nil`.
        public var environment: [String: String]?
        /// Where `${key}` references read instead of the environment, when set: the
        /// `WiringConfiguration` product sets a swift-configuration reader here
        /// (`Container(manifest:registry:contexts:options:configuration:)`).
        public var configuration: (any ConfigurationSource)?
        /// The clock time-to-live is measured on; inject one in tests.
        public var now: @Sendable () -> ContinuousClock.Instant
        /// Where the container logs: the active contexts at info level, failed resolves of the
        /// property wrappers and of `bootstrap` at error level, and every resolution (service,
        /// scope, kept or built, time) at trace level. Nothing is logged when `nil`.
        public var logger: Logger?
        /// How long each shutdown hook may run, unless its service sets `shutdownTimeout:`.
        public var shutdownTimeout: Duration
        /// Whether the container records which services each factory resolves in code, for
        /// `Container.resolvedEdges` (an app's `graph --instantiate`), property wrappers of the
        /// instances synchronous factories build included. Off unless the tool sets it; when on,
        /// warm singleton resolves take the slower path so that each one is recorded.
        package var recordsResolvedEdges = false
        /// What is told about the container's builds, start, shutdown, refreshes and reloads
        /// (see ``ContainerObserver``): `[ContainerTracing(), ContainerMetrics()]` from
        /// `WiringObservability`, or observers of the app's own. Children of the container tell
        /// the same observers.
        public var observers: [any ContainerObserver]

        /// Creates options.
        public init(environment: [String: String]? = nil,
                    now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now },
                    logger: Logger? = nil, shutdownTimeout: Duration = .seconds(30),
                    configuration: (any ConfigurationSource)? = nil, observers: [any ContainerObserver] = []) {
            self.observers = observers
            self.environment = environment
            self.configuration = configuration
            self.now = now
            self.logger = logger
            self.shutdownTimeout = shutdownTimeout
        }
    }

    /// What it shares with its children: the bound manifest and the settings of its options.
    let core: Core
    /// The manifest the container was built from, with its active contexts applied.
    public var manifest: Manifest { core.manifest }
    /// The contexts applied, in order, each with where its name came from.
    public var activeContexts: [ActiveContext] { core.activeContexts }
    /// Remarks from building the container: factories no service uses (info), warnings.
    public var diagnostics: [Diagnostic] { core.diagnostics }

    var targets: TargetMap { core.targets }
    /// Every registration: each service's, then its named variants', in manifest order.
    var registrations: [Registration] { core.registrations }
    /// The registrations with each tag, in manifest order.
    var taggedRegistrations: [String: [Registration]] { core.taggedRegistrations }
    var now: @Sendable () -> ContinuousClock.Instant { core.now }
    /// The logger, when one was given.
    var logger: Logger? { core.logger }
    /// The logger when it logs at trace level: the resolve path checks only this.
    var traceLogger: Logger? { core.traceLogger }
    /// Whether a factory's dependency may take the one-step path (see ``Core``).
    var usesFastDependencyPath: Bool { core.usesFastDependencyPath }
    /// Whether there are observers: what a build checks.
    var observesBuilds: Bool { core.observesBuilds }
    /// Whether `${name}` reads a configuration source rather than the environment.
    var readsConfigurationSource: Bool { core.readsConfigurationSource }

    /// What each Swift type resolves to, found once per type and read without a lock.
    let targetTable = TargetTable()
    /// For a kept instance that never expires, the instance itself, by the type it was resolved
    /// as, so that resolving it again is one lookup under this thread's stripe.
    let typeCache: ReadMostly<TypeCache>
    /// Its kept instances with hooks, whether it is closed, its start and shutdown, its
    /// children's lives.
    let life: ContainerLife
    /// The kept instances with shutdown hooks, in construction order (its life's).
    var kept: KeptInstances { life.kept }
    /// How long a shutdown hook may run unless its service says otherwise (its life's).
    var shutdownTimeout: Duration { life.shutdownTimeout }
    /// Told about builds, start, shutdown, refreshes and reloads (its life's).
    var observers: [any ContainerObserver] { life.observers }
    /// What factories resolved in code, when ``Options/recordsResolvedEdges`` is set.
    let edgeRecorder: Locked<Set<ResolvedEdge>>?
    /// How many registrations are `scoped`: what a scope's table is sized for.
    let scopedCount: Int
    /// How many registrations the container keeps (singleton, cached, shared, custom scopes):
    /// what a child's table of slots is sized for.
    let keptCount: Int
    /// For a child container, what it resolves differently from its root (see ``ChildLayer``);
    /// `nil` for a container built from a manifest.
    let layer: ChildLayer?
    /// With a configuration source whose keys arguments read: what a started container does
    /// when their values change. `nil` for a child, whose kept instances a change does not drop.
    let configurationWatch: ConfigurationWatch?

    struct TypeCache {
        /// Kept instances that never expire, by the type they were resolved as.
        var instances = TypeTable<InstanceBox>()
        /// Bumped by every reset, so a build that raced a reset does not cache its instance.
        var generation = 0
    }

    /// Loads the manifest at `path` (with its imports and overlay files) and builds a container
    /// from it with the chosen contexts applied, on the caller's thread.
    ///
    /// - Throws: ``ManifestError`` with every problem of the manifest, of the contexts or of
    ///   binding it.
    public convenience init(
        manifest path: String, registry: FactoryRegistry, contexts: ContextSelection = .launch(),
        options: Options = Options()
    ) throws(ManifestError) {
        let bound = Self.bind(manifest: path, registry: registry, contexts: contexts, options: options).bound
        self.init(bound: try bound.get(), options: options)
    }

    /// Loads, checks and binds the manifest at `path` as a container built with `options` does:
    /// what the container is made of, and the files read (the root and its imports, also when
    /// they have errors).
    ///
    /// One ``ExternalValues`` serves checking the files and binding: a configuration source is
    /// asked for each key once, as the type the manifest with `contexts` applied needs it as.
    static func bind(
        manifest path: String, registry: FactoryRegistry, contexts: ContextSelection, options: Options
    ) -> (bound: Result<Bound, ManifestError>, files: [String]) {
        var loader = ManifestLoader(environment: options.environment)
        loader.configuration = options.configuration
        let read = loader.read(path)
        var values = loader.values
        if values.configuration != nil {
            // The error of contexts that do not apply is dropped here only: `Bound` applies them
            // again below and throws it with every other problem. Until then no type is known,
            // and the files' keys are read untyped (the build fails either way).
            if let applied = try? read.manifest.applying(contexts: contexts.chosen(for: read.manifest).known.map(\.name)) {
                values.types = applied.configurationTypes(schemas: registry.argumentSchemas)
            }
        }
        let validation = loader.finishCheck(read, values: values, eachContext: false)
        guard let manifest = validation.manifest else { return (.failure(ManifestError(validation.diagnostics)), read.manifest.files) }
        return (Result { () throws(ManifestError) in try Bound(manifest, registry: registry, contexts: contexts, values: values) },
                read.manifest.files)
    }

    /// A manifest bound to a registry with its contexts applied: what a container is made of.
    struct Bound: Sendable {
        var manifest: Manifest
        let activeContexts: [ActiveContext]
        let diagnostics: [Diagnostic]
        let targets: TargetMap
        let registrations: [Registration]
        let configurationReaders: [ConfigurationReader]
        let configurationValues: [String: ExternalValues.Lookup]
        /// How many registrations are `scoped`, and how many the container keeps (binding's).
        let scopedCount: Int
        let keptCount: Int
        /// The type each configuration key is read as, where its readers say.
        let configurationTypes: [String: ConfigurationType]
        /// What `${NAME}` reads when there is no configuration source.
        let environment: [String: String]

        /// Applies `contexts` to `loaded` and binds it.
        init(
            _ loaded: Manifest, registry: FactoryRegistry, contexts: ContextSelection, values: ExternalValues
        ) throws(ManifestError) {
            // An unknown context is reported with everything binding the others finds.
            let (active, unknown) = contexts.chosen(for: loaded)
            // An autowired factory's parameters are edges of the graph the checks below see.
            var loaded = loaded
            loaded.autowired = registry.autowiredDependencies
            manifest = try loaded.applying(contexts: active.map(\.name))
            var values = values
            // A source is asked for each key as the type its typed readers need; `bind` worked
            // them out already, before the files' keys were read, for the same applied manifest.
            if values.configuration != nil, values.types.isEmpty {
                values.types = manifest.configurationTypes(schemas: registry.argumentSchemas)
            }
            configurationTypes = values.types
            environment = values.environment
            var binder = Binder(manifest: manifest, registry: registry, values: values)
            let table = binder.bind()
            // The declared graph, as applied: captive dependencies are the container's warnings.
            let graph = ReferenceChecks(manifest: manifest).diagnostics()
            if !unknown.diagnostics.isEmpty || binder.diagnostics.containsErrors || graph.containsErrors {
                throw ManifestError(unknown.diagnostics + (binder.diagnostics + graph).filter { $0.severity != .info })
            }
            activeContexts = active
            diagnostics = binder.diagnostics + graph
            targets = table.targets
            registrations = table.registrations
            configurationReaders = binder.configurationReaders
            configurationValues = binder.configurationValues
            scopedCount = binder.scopedCount
            keptCount = binder.keptCount
        }
    }

    /// Builds a container from a loaded manifest and a registry, on the caller's thread.
    ///
    /// - Throws: ``ManifestError`` listing, each at its position, every factory key that is not
    ///   registered (with a did-you-mean), every environment variable that is unset with no
    ///   default, and every factory registered twice.
    ///
    /// The contexts are applied once, here: the container is a plain table, so resolving costs
    /// the same with contexts as without. To switch contexts, build another container.
    public convenience init(
        manifest loaded: Manifest, registry: FactoryRegistry, contexts: ContextSelection = .launch(),
        options: Options = Options()
    ) throws(ManifestError) {
        let values = ExternalValues(environment: options.environment ?? ProcessInfo.processInfo.environment,
                                    configuration: options.configuration)
        self.init(bound: try Bound(loaded, registry: registry, contexts: contexts, values: values), options: options)
    }

    /// The one initializer: a root passes the core it bound and its configuration watch, a
    /// child its parent's core, its layer and its own counts.
    private init(core: Core, layer: ChildLayer?, keptCount: Int, scopedCount: Int, configurationWatch: ConfigurationWatch?) {
        self.core = core
        let typeCache = ReadMostly(TypeCache())
        self.typeCache = typeCache
        life = ContainerLife(shutdownTimeout: core.shutdownTimeout, logger: core.logger, observers: core.observers,
                             instances: layer.map { (typeCache, $0.slots) })
        edgeRecorder = core.recordsResolvedEdges ? Locked([]) : nil
        self.keptCount = keptCount
        self.scopedCount = scopedCount
        self.layer = layer
        self.configurationWatch = configurationWatch
    }

    convenience init(bound: Bound, options: Options) {
        let core = Core(bound: bound, options: options)
        self.init(core: core, layer: nil, keptCount: bound.keptCount, scopedCount: bound.scopedCount,
                  configurationWatch: ConfigurationWatch(
                    source: options.configuration, readers: bound.configurationReaders, values: bound.configurationValues,
                    types: bound.configurationTypes, manifest: bound.manifest, environment: bound.environment))
        options.logger?.info("\(contextSummary)")
    }

    /// A child of `parent`, resolving through `layer`: it shares its parent's core (the bound
    /// table, the settings), and keeps its own instances.
    convenience init(childOf parent: Container, layer: ChildLayer, keptCount: Int, scopedCount: Int) {
        self.init(core: parent.core, layer: layer, keptCount: keptCount, scopedCount: scopedCount, configurationWatch: nil)
    }

    deinit {
        if let lineage = layer?.lineage { lineage.parent.life.children.withLock { $0.remove(lineage.number) } }
    }

    /// `contexts: staging (WIRING_CONTEXT), test (automatic)`, or `contexts: none`: what the
    /// container logs when it is built (``activeContexts`` is the public spelling).
    package var contextSummary: String {
        "contexts: " + (activeContexts.isEmpty ? "none" : activeContexts.map(\.description).joined(separator: ", "))
    }
}
