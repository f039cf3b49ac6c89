#if Vapor
internal import Logging
public import Vapor
public import Wiring

/// Starts a container when the application boots and shuts it down with the application:
/// what ``Vapor/Application/ContainerWiring/use(_:seed:)`` registers.
///
/// Vapor shuts its lifecycle handlers down before it stops the server (the server's shutdown
/// is in the application's storage, which is cleared after them). The container must outlive
/// the requests that resolve from it, so this handler first shuts the server down (it stops
/// accepting and finishes the requests in flight, within the server's `shutdownTimeout`),
/// then the container. Vapor's own shutdown of the server then finds it stopped.
public struct ContainerLifecycle: LifecycleHandler {
    private let source: any ContainerProvider

    /// The container this handler starts and shuts down: for a ``Wiring/ReloadingContainer``,
    /// the one in force.
    public var container: Container { source.container }

    /// A handler for `container`; register it with `app.lifecycle.use(_:)`, or let
    /// `app.wiring.use(_:)` do it. For a ``Wiring/ReloadingContainer``, it starts it with its
    /// watch of the files and shuts down the container in force and those a reload retired.
    public init(container: any ContainerProvider) {
        source = container
    }


    /// Vapor's synchronous boot (`boot()`, `run()`) cannot start an asynchronous container.
    ///
    /// - Throws: ``ContainerLifecycleError/synchronousLifecycle``.
    public func willBoot(_ application: Application) throws {
        throw ContainerLifecycleError.synchronousLifecycle
    }

    /// Starts the container: its `eager` services are built before the server listens.
    public func willBootAsync(_ application: Application) async throws {
        try await source.start()
    }

    /// Vapor's synchronous shutdown cannot wait for the container's hooks: logs that they did
    /// not run.
    public func shutdown(_ application: Application) {
        application.logger.error("\(ContainerLifecycleError.synchronousLifecycle)")
    }

    /// Stops the server, letting the requests in flight finish, then shuts the container down;
    /// a hook that fails or times out is logged.
    public func shutdownAsync(_ application: Application) async {
        await application.server.shutdown()
        do {
            try await source.shutdown()
        } catch {
            application.logger.error("shutting down the container: \(error)")
        }
    }
}

/// Why ``ContainerLifecycle`` could not run.
public enum ContainerLifecycleError: Error, CustomStringConvertible {
    /// The application booted or shut down through Vapor's synchronous API.
    case synchronousLifecycle

    /// What went wrong and what to call instead.
    public var description: String {
        switch self {
        case .synchronousLifecycle:
            "WiringVapor starts and shuts down its container asynchronously: make the application with "
                + "`Application.make`, run it with `execute()`, or call `asyncBoot()` and `asyncShutdown()`"
        }
    }
}
#endif
