import NotesServerApp
import NotesServerTesting
import ServiceLifecycle
import Wiring

/// The Hummingbird server on an ephemeral port of 127.0.0.1, in this process, run in its
/// service group as `notes-server` runs it.
struct TestServer: NotesServerUnderTest {
    let container: Container
    let port: Int
    private let group: ServiceGroup
    private let running: Task<Void, any Error>

    static func start(container: Container) async throws -> TestServer {
        let (ports, listening) = AsyncStream<Int>.makeStream()
        let group = try await NotesServerApp.makeServiceGroup(container: container) { port in listening.yield(port) }
        let running = Task { try await group.run() }
        var port: Int?
        for await bound in ports {
            port = bound
            break
        }
        guard let port else { throw CancellationError() }
        return TestServer(container: container, port: port, group: group, running: running)
    }

    func shutDown() async throws {
        await group.triggerGracefulShutdown()
        try await running.value
    }
}
