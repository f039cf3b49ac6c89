import Dispatch
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

/// WiringVapor on its own: applications made here, served on loopback.
@Suite("WiringVapor")
struct WiringVaporTests {
    static func container(_ registry: FactoryRegistry = Notes.registry()) throws -> Container {
        try Notes.makeContainer(contexts: .explicit("test"), environment: ["HTTP_PORT": "0"], registry: registry)
    }

    @Test func aRouteOutsideTheMiddlewareAnswersAServerErrorNotACrash() async throws {
        let app = try await Application.make(.testing)
        app.get("outside") { req async throws -> String in try await req.resolve(RequestLog.self).requestID }
        app.get("stream") { req async throws -> Response in Response(body: try .init(scopedStream: req) { _ in }) }
        try await Self.serve(app) { port in
            for path in ["/outside", "/stream"] {
                let (status, body) = try await get(port, path)
                #expect(status == 500)
                #expect(body.contains("no request scope: the route runs outside RequestScopeMiddleware"), "\(body)")
            }
        }
    }

    @Test func aSeedThatThrowsFailsTheRequestAndEndsItsScope() async throws {
        let (registry, units) = NotesScenarios.registryRecordingUnitsOfWork()
        let container = try Self.container(registry)
        let app = try await Application.make(.testing)
        struct NoUser: Error {}
        app.wiring.use(container) { scope, req in
            try scope.seed(RequestLog(requestID: req.id, logger: req.logger))
            // What the seed made before it failed ends with the scope.
            _ = try scope.resolve(UnitOfWork.self)
            guard req.headers.first(name: "X-User") != nil else { throw Abort(.unauthorized, reason: "who are you?") }
        }
        app.get("me") { req async throws -> String in try await req.resolve(RequestLog.self).requestID }
        try await Self.serve(app, booting: true) { port in
            let (status, body) = try await get(port, "/me")
            #expect(status == 401)
            #expect(body.contains("who are you?"))
            #expect(units.all.count == 1)
            #expect(units.all.allSatisfy { $0.hasEnded })
            let (answered, _) = try await get(port, "/me", headers: ["X-User": "ada"])
            #expect(answered == 200)
        }
    }

    @Test func aScopedStreamVaporNeverWritesStillEndsItsScope() async throws {
        // Vapor answers HEAD with the GET route and writes no body, nor for 204: the stream's
        // closure never runs, so the scope ends when the handler returns.
        let (registry, units) = NotesScenarios.registryRecordingUnitsOfWork()
        let app = try await Application.make(.testing)
        app.wiring.use(try Self.container(registry)) { scope, req in try scope.seed(RequestLog(requestID: req.id, logger: req.logger)) }
        app.get("export") { req async throws -> Response in
            let unit = try await req.resolve(UnitOfWork.self)
            return Response(body: try .init(scopedStream: req) { writer in try await writer.writeBuffer(ByteBuffer(string: unit.requestID)) })
        }
        app.get("empty") { req async throws -> Response in
            _ = try await req.resolve(UnitOfWork.self)
            return Response(status: .noContent, body: try .init(scopedStream: req) { _ in })
        }
        try await Self.serve(app, booting: true) { port in
            let (status, body) = try await get(port, "/export")
            #expect(status == 200 && !body.isEmpty)
            #expect(try await get(port, "/export", method: "HEAD").0 == 200)
            #expect(try await get(port, "/empty").0 == 204)
            let made = units.all
            #expect(made.count == 3)
            let deadline = ContinuousClock.now + .seconds(5)
            while !made.allSatisfy(\.hasEnded) && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
            #expect(made.map(\.hasEnded) == [true, true, true])
        }
    }

    /// A request's scope ends exactly once on every path, over loopback: a scoped stream
    /// written, a handler that throws, a scoped stream a later middleware replaced (so Vapor
    /// never writes it), and a client gone before the response was written.
    @Test func aRequestScopeEndsExactlyOnceOnEveryPath() async throws {
        let (registry, units) = NotesScenarios.registryRecordingUnitsOfWork()
        let app = try await Application.make(.testing)
        /// Answers `/replaced` with a response of its own, dropping the route's.
        struct Replacing: AsyncMiddleware {
            func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
                let response = try await next.respond(to: request)
                return request.url.path == "/replaced" ? Response(status: .ok, body: .init(string: "replaced")) : response
            }
        }
        app.middleware.use(Replacing())
        app.wiring.use(try Self.container(registry)) { scope, req in try scope.seed(RequestLog(requestID: req.url.path, logger: req.logger)) }
        @Sendable func streamed(_ req: Request) async throws -> Response {
            let unit = try await req.resolve(UnitOfWork.self)
            return Response(body: try .init(scopedStream: req) { writer in try await writer.writeBuffer(ByteBuffer(string: unit.requestID)) })
        }
        app.get("streamed") { req async throws -> Response in try await streamed(req) }
        app.get("replaced") { req async throws -> Response in try await streamed(req) }
        app.get("fails") { req async throws -> Response in
            _ = try await req.resolve(UnitOfWork.self)
            throw Abort(.badRequest)
        }
        app.get("slow") { req async throws -> Response in
            let response = try await streamed(req)
            // Waits without heeding cancellation: the response is made after the client left.
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { done.resume() }
            }
            return response
        }
        try await Self.serve(app, booting: true) { port in
            #expect(try await get(port, "/streamed") == (200, "/streamed"))
            #expect(try await units.settle(at: 1) == 1)
            #expect(try await get(port, "/fails").0 == 400)
            #expect(try await units.settle(at: 2) == 2)
            #expect(try await get(port, "/replaced") == (200, "replaced"))
            #expect(try await units.settle(at: 3) == 3)
            try HangingUpClient.get(port: port, path: "/slow")
            #expect(try await units.settle(at: 4) == 4)
        }
        #expect(units.all.count == 4 && units.all.allSatisfy(\.hasEnded))
    }

    @Test func theContainerStartsWhenTheApplicationBootsAndAFailureStopsTheBoot() async throws {
        struct DiskFull: Error {}
        let registry = Notes.registry()
        registry.factory("in-memory-note-store", overriding: true) { _ -> any NoteStore in throw DiskFull() }
        let container = try Self.container(registry)
        let app = try await Application.make(.testing)
        app.wiring.use(container)
        await #expect(throws: (any Error).self) { try await app.asyncBoot() }
        try await app.asyncShutdown()
        #expect(container.isShutDown)

        // Booted, the eager store is built before any request.
        let opened = Mutex(0)
        let counting = Notes.registry()
        counting.factory("in-memory-note-store", overriding: true) { r -> any NoteStore in
            opened.withLock { $0 += 1 }
            return InMemoryNoteStore(log: try r.arg("log", as: Logger.self))
        }
        let started = try Self.container(counting)
        let booted = try await Application.make(.testing)
        booted.wiring.use(started)
        #expect(opened.withLock { $0 } == 0)
        try await booted.asyncBoot()
        #expect(opened.withLock { $0 } == 1)
        try await booted.asyncShutdown()
        #expect(started.isShutDown)
    }

    @Test func useKeepsTheFirstContainer() async throws {
        let first = try Self.container(), second = try Self.container()
        let app = try await Application.make(.testing)
        app.wiring.use(first)
        app.wiring.use(second)
        #expect(app.wiring.container === first)
        try await app.asyncShutdown()
        #expect(first.isShutDown && !second.isShutDown)
    }

    /// Serves `app` on an ephemeral port of 127.0.0.1 (booting it first when `booting`), runs
    /// `body` with the port, and shuts the application down.
    @Test func aReloadingContainerGivesTheNextRequestTheEditedManifest() async throws {
        let config = try EditedConfig(replacing: "NOTES_ADMIN_TOKEN:-dev-token", with: "NOTES_ADMIN_TOKEN:-dev-token")
        let wiring = try ReloadingContainer(manifest: config.services.path, registry: Notes.registry(), contexts: .explicit("test"),
                                            options: .init(environment: ["http.port": "0"]), pollInterval: .milliseconds(20))
        let app = try await Application.make(.testing)
        app.wiring.use(wiring) { scope, req in try scope.seed(RequestLog(requestID: req.id, logger: req.logger)) }
        app.get("token") { req async throws -> String in
            try await req.resolve(AdminToken.self).allows("Bearer edited") ? "edited" : "original"
        }
        let first = wiring.container
        try await Self.serve(app, booting: true) { port in
            #expect(try await get(port, "/token").1 == "original")
            // Booting started the watch of the files.
            try config.edit(replacing: "NOTES_ADMIN_TOKEN:-dev-token", with: "NOTES_ADMIN_TOKEN:-edited")
            let deadline = ContinuousClock.now + .seconds(10)
            while wiring.reloads == 0 && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
            #expect(try await get(port, "/token").1 == "edited")
            #expect(app.wiring.container === wiring.container)
            #expect(wiring.container !== first)
        }
        #expect(first.isShutDown && wiring.container.isShutDown)
    }

    static func serve(_ app: Application, booting: Bool = false, _ body: (Int) async throws -> Void) async throws {
        app.http.server.configuration.hostname = "127.0.0.1"
        app.http.server.configuration.port = 0
        do {
            if booting { try await app.asyncBoot() }
            try await app.server.start(address: nil)
            try await body(try #require(app.http.server.shared.localAddress?.port))
        } catch {
            await app.server.shutdown()
            try await app.asyncShutdown()
            throw error
        }
        await app.server.shutdown()
        try await app.asyncShutdown()
    }

    private func get(_ port: Int, _ path: String, method: String = "GET", headers: [String: String] = [:]) async throws -> (Int, String) {
        let (status, body, _) = try await Self.fetch(port, path, method: method, headers: headers)
        return (status, body)
    }

    /// Sends a request to the application on `port`: its status, body and headers (names in
    /// lowercase).
    static func fetch(_ port: Int, _ path: String, method: String = "GET",
                      headers: [String: String] = [:]) async throws -> (Int, String, [String: String]) {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.timeoutInterval = 10
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        let fields = Dictionary(uniqueKeysWithValues: http.allHeaderFields.compactMap { key, value in
            (key as? String).map { ($0.lowercased(), "\(value)") }
        })
        return (http.statusCode, String(decoding: data, as: UTF8.self), fields)
    }
}
