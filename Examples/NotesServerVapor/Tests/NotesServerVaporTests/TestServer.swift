import NotesServerTesting
import NotesServerVaporApp
import Vapor
import Testing
import Wiring

/// The Vapor server on an ephemeral port of 127.0.0.1, in this process: booted (which starts
/// the container) and serving, as `execute()` does.
struct TestServer: NotesServerUnderTest {
    let app: Application
    let container: Container
    let port: Int

    static func start(container: Container) async throws -> TestServer {
        let app = try await NotesVaporApp.makeApplication(container: container)
        do {
            try await app.asyncBoot()
            try await app.server.start(address: nil)
            let port = try #require(app.http.server.shared.localAddress?.port)
            return TestServer(app: app, container: container, port: port)
        } catch {
            try? await app.asyncShutdown()
            throw error
        }
    }

    /// Shuts down as the `serve` command does on SIGTERM: the server drains, then the container
    /// shuts down.
    func shutDown() async throws {
        try await app.asyncShutdown()
    }
}
