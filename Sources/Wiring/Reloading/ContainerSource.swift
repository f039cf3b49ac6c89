/// Where a framework product takes its container from: one container, or the one a
/// ``ReloadingContainer`` has in force. WiringHummingbird's and WiringVapor's middleware make each
/// request's scope through it, and the lifecycle integrations start and shut it down.
package enum ContainerSource: Sendable {
    case fixed(Container)
    case reloading(ReloadingContainer)

    /// The container in force.
    package var container: Container {
        switch self {
        case .fixed(let container): container
        case .reloading(let reloading): reloading.container
        }
    }

    /// A new scope of the container in force.
    @inline(__always)
    package func makeScope() -> ContainerScope {
        switch self {
        case .fixed(let container): container.makeScope()
        case .reloading(let reloading): reloading.makeScope()
        }
    }

    /// Starts the container (and, for a reloading one, its watch of the files).
    package func start() async throws {
        switch self {
        case .fixed(let container): try await container.start()
        case .reloading(let reloading): try await reloading.start()
        }
    }

    /// Shuts the container down (for a reloading one, also those its reloads retired).
    package func shutdown() async throws {
        switch self {
        case .fixed(let container): try await container.shutdown()
        case .reloading(let reloading): try await reloading.shutdown()
        }
    }
}
