import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NotesCore
import NotesServerTesting
import Synchronization
import Testing
import Vapor
import Wiring
import WiringVapor

/// WiringVapor's snapshot route on its own: applications made here, served on loopback.
@Suite("serveSnapshot on Vapor")
struct SnapshotRouteTests {
    @Test func theSnapshotAnswersAGetOfItsLiteralPathWithNoScopeAndNoSeed() async throws {
        let container = try WiringVaporTests.container()
        let seeds = Mutex(0)
        let app = try await Application.make(.testing)
        app.wiring.use(container) { scope, req in
            seeds.withLock { $0 += 1 }
            try scope.seed(RequestLog(requestID: req.id, logger: req.logger))
        }
        // Segments Vapor would read as a parameter and a wildcard, and two in one string.
        app.grouped("admin").serveSnapshot(of: container, at: ":x", "*", "wiring/snapshot")
        app.get("scoped") { req async throws -> String in try await req.resolve(RequestLog.self).requestID }
        try await WiringVaporTests.serve(app, booting: true) { port in
            let (status, body, headers) = try await WiringVaporTests.fetch(port, "/admin/:x/*/wiring/snapshot")
            #expect(status == 200)
            #expect(headers["cache-control"] == "no-store")
            #expect(headers["content-type"] == "application/json; charset=utf-8")
            let snapshot = try JSONDecoder.iso8601.decode(ContainerSnapshot.self, from: Data(body.utf8))
            #expect(snapshot.services.contains { $0.key == "NoteStore" })
            #expect(seeds.withLock { $0 } == 0)
            #expect(try await WiringVaporTests.fetch(port, "/scoped").0 == 200)
            #expect(seeds.withLock { $0 } == 1)
            // Literal segments; GET only. (Vapor answers what it does not route through the
            // application's middleware, so these get a scope.)
            for path in ["/admin/a/*/wiring/snapshot", "/admin/:x/b/wiring/snapshot"] {
                #expect(try await WiringVaporTests.fetch(port, path).0 == 404, "\(path)")
            }
            #expect(try await WiringVaporTests.fetch(port, "/admin/:x/*/wiring/snapshot", method: "POST").0 == 404)
        }
    }

    @Test func theRouteServesWhatAFailedReloadLeftWithoutTheErrorsText() async throws {
        let wiring = try await FailedReload.make()
        let app = try await Application.make(.testing)
        app.serveSnapshot(of: wiring, at: "snapshot")
        try await WiringVaporTests.serve(app) { port in
            let (status, body, _) = try await WiringVaporTests.fetch(port, "/snapshot")
            #expect(status == 200)
            #expect(body.contains(#""errorType" : "CouldNotConnect""#), "\(body)")
            #expect(!body.contains(FailedReload.secret) && !body.contains(FileManager.default.temporaryDirectory.path))
        }
        try await wiring.shutdown()
    }
}
