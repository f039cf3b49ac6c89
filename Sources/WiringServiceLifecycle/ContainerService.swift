public import ServiceLifecycle
public import Wiring

/// A container as a service of a swift-service-lifecycle `ServiceGroup`: it starts the
/// container, waits for the group's graceful shutdown (SIGTERM, SIGINT, or
/// `triggerGracefulShutdown()`), then shuts the container down.
///
/// A group shuts its services down in the reverse of their order, each after the one after
/// it has finished, so list the container first: the HTTP server drains its requests, then
/// the container closes what the requests used.
///
/// ```swift
/// let container = try Container(manifest: "config/services.yaml", registry: registry)
/// try await container.start()        // eager services are ready before the server listens
/// let group = ServiceGroup(configuration: .init(
///     services: [ContainerService(container), server],
///     gracefulShutdownSignals: [.sigterm, .sigint],
///     logger: logger))
/// try await group.run()
/// ```
///
/// Starting the container before the group, as above, is the usual way; `run()` starts it
/// too (`start()` does nothing the second time), for apps with nothing that needs it first.
public struct ContainerService: Service {
    private let source: any ContainerProvider

    /// The container the service starts and shuts down: for a ``Wiring/ReloadingContainer``,
    /// the one in force.
    public var container: Container { source.container }

    /// A service for `container`: a ``Wiring/Container``, or a ``Wiring/ReloadingContainer``,
    /// which it starts with its watch of the files, and at graceful shutdown stops the watch and
    /// shuts down the container in force and those a reload retired.
    public init(_ container: any ContainerProvider) {
        source = container
    }

    /// Starts the container, waits for graceful shutdown or cancellation, then shuts the
    /// container down (also after a cancellation).
    ///
    /// - Throws: What ``Wiring/Container/start()`` throws, or a ``Wiring/ShutdownError``.
    public func run() async throws {
        try await source.start()
        // Throws `CancellationError` when the group cancels the service: shut down all the same.
        try? await gracefulShutdown()
        try await source.shutdown()
    }
}
