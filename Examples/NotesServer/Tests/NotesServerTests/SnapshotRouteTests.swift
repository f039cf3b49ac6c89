import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import NotesCore
import NotesServerTesting
import Synchronization
import Testing
import Wiring
import WiringHummingbird

/// WiringHummingbird's snapshot route on its own, in process (Hummingbird's router test client).
@Suite("serveSnapshot on Hummingbird")
struct SnapshotRouteTests {
    @Test func theSnapshotAnswersAGetOfItsLiteralPathWithNoScopeAndNoSeed() async throws {
        let container = try Notes.makeContainer(contexts: .explicit("test"), environment: ["HTTP_PORT": "0"])
        let seeds = Mutex(0)
        let router = Router(context: BasicWiringRequestContext.self)
        // Segments Hummingbird would read as a parameter, a capture and a wildcard.
        router.group("admin").serveSnapshot(of: container, at: ":x/{y}/*")
        router.add(middleware: RequestScopeMiddleware(container: container) { scope, request, _ in
            seeds.withLock { $0 += 1 }
            try scope.seed(RequestLog(requestID: request.uri.path, logger: Logger(label: "test")))
        })
        router.get("/scoped") { _, context -> String in
            _ = try context.requestScope()
            return "scoped"
        }
        try await Application(router: router).test(.router) { client in
            try await client.execute(uri: "/admin/:x/{y}/*", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.cacheControl] == "no-store")
                #expect(response.headers[.contentType] == "application/json; charset=utf-8")
                let snapshot = try JSONDecoder.iso8601.decode(ContainerSnapshot.self, from: Data(buffer: response.body))
                #expect(snapshot.services.contains { $0.key == "NoteStore" })
            }
            for path in ["/admin/a/{y}/*", "/admin/:x/b/*", "/admin/:x/{y}/c"] {
                try await client.execute(uri: path, method: .get) { response in #expect(response.status == .notFound, "\(path)") }
            }
            #expect(seeds.withLock { $0 } == 0)
            try await client.execute(uri: "/scoped", method: .get) { response in #expect(String(buffer: response.body) == "scoped") }
            #expect(seeds.withLock { $0 } == 1)
            // GET only (Hummingbird answers another method as a path it does not know).
            try await client.execute(uri: "/admin/:x/{y}/*", method: .post) { response in #expect(response.status == .notFound) }
        }
        try await container.shutdown()
    }

    @Test func theRouteServesWhatAFailedReloadLeftWithoutTheErrorsText() async throws {
        let wiring = try await FailedReload.make()
        let router = Router(context: BasicWiringRequestContext.self)
        router.serveSnapshot(of: wiring, at: "snapshot")
        try await Application(router: router).test(.router) { client in
            try await client.execute(uri: "/snapshot", method: .get) { response in
                let body = String(buffer: response.body)
                #expect(response.status == .ok)
                #expect(body.contains(#""errorType" : "CouldNotConnect""#), "\(body)")
                #expect(!body.contains(FailedReload.secret) && !body.contains(FileManager.default.temporaryDirectory.path))
            }
        }
        try await wiring.shutdown()
    }
}
