internal import Logging

extension Container {
    /// What a container shares with its children: the manifest bound to the registry's
    /// factories, and the settings from its options that decide how it resolves and reports.
    ///
    /// A root container makes it from what it bound; a child takes its parent's unchanged, so
    /// that the two differ only by the child's ``ChildLayer`` (what it resolves differently,
    /// where it keeps its instances). Stored in the container itself, not behind a reference:
    /// reading a setting on the resolve path is one load, as a field of the container's is.
    struct Core: Sendable {
        let manifest: Manifest
        let activeContexts: [ActiveContext]
        let diagnostics: [Diagnostic]
        let targets: TargetMap
        /// Every registration: each service's, then its named variants', in manifest order.
        let registrations: [Registration]
        /// The registrations with each tag, in manifest order.
        let taggedRegistrations: [String: [Registration]]
        let now: @Sendable () -> ContinuousClock.Instant
        let logger: Logger?
        /// The logger when it logs at trace level: the resolve path checks only this.
        let traceLogger: Logger?
        let shutdownTimeout: Duration
        let observers: [any ContainerObserver]
        /// Whether a factory's dependency may take the one-step path: not when every resolve is
        /// traced or recorded.
        let usesFastDependencyPath: Bool
        /// Whether there are observers: what a build checks.
        let observesBuilds: Bool
        /// Whether `${name}` reads a configuration source rather than the environment.
        let readsConfigurationSource: Bool
        /// Whether each container of the family records what its factories resolve in code.
        let recordsResolvedEdges: Bool

        init(bound: Bound, options: Options) {
            manifest = bound.manifest
            activeContexts = bound.activeContexts
            diagnostics = bound.diagnostics
            targets = bound.targets
            registrations = bound.registrations
            var tagged: [String: [Registration]] = [:]
            for registration in bound.registrations {
                for tag in registration.tags { tagged[tag, default: []].append(registration) }
            }
            taggedRegistrations = tagged
            now = options.now
            logger = options.logger
            traceLogger = options.logger.flatMap { $0.logLevel <= .trace ? $0 : nil }
            shutdownTimeout = options.shutdownTimeout
            observers = options.observers
            usesFastDependencyPath = options.recordsResolvedEdges == false && (options.logger.map { $0.logLevel > .trace } ?? true)
            observesBuilds = !options.observers.isEmpty
            readsConfigurationSource = options.configuration != nil
            recordsResolvedEdges = options.recordsResolvedEdges
        }
    }
}
