import Dispatch
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import NotesCore
import NotesServerApp
import NotesServerTesting
import Testing
import Wiring
import WiringHummingbird

/// WiringHummingbird's middleware on its own, in process (Hummingbird's router test client).
@Suite("RequestScopeMiddleware")
struct RequestScopeMiddlewareTests {
    static func container() throws -> Container {
        try Notes.makeContainer(contexts: .explicit("development"), environment: [:])
    }

    @Test func aRouteOutsideTheMiddlewareAnswersAServerErrorNotACrash() async throws {
        let router = Router(context: BasicWiringRequestContext.self)
        router.get("/outside") { _, context -> String in
            _ = try await context.resolve(RequestLog.self)
            return "unreachable"
        }
        try await Application(router: router).test(.router) { client in
            try await client.execute(uri: "/outside", method: .get) { response in
                #expect(response.status == .internalServerError)
            }
        }
    }

    @Test func aSeedThatThrowsFailsTheRequestAndEndsTheScope() async throws {
        let container = try Self.container()
        let router = Router(context: BasicWiringRequestContext.self)
        router.add(middleware: RequestScopeMiddleware(container: container) { _, request, _ in
            if request.uri.path == "/refused" { throw HTTPError(.forbidden) }
        })
        router.get("/refused") { _, _ in "unreachable" }
        router.get("/allowed") { _, context -> String in
            _ = try context.requestScope()
            return "in scope"
        }
        try await Application(router: router).test(.router) { client in
            try await client.execute(uri: "/refused", method: .get) { response in
                #expect(response.status == .forbidden)
            }
            try await client.execute(uri: "/allowed", method: .get) { response in
                #expect(String(buffer: response.body) == "in scope")
            }
        }
        try await container.shutdown()
    }

    /// A router with the middleware over the test context's container, each request's log
    /// seeded with its path, and the units of work its requests make, recorded.
    static func recordingRouter() throws -> (Container, Router<BasicWiringRequestContext>, UnitsOfWork) {
        let (registry, units) = NotesScenarios.registryRecordingUnitsOfWork()
        let container = try Notes.makeContainer(contexts: .explicit("test"), environment: ["HTTP_PORT": "0"], registry: registry)
        let router = Router(context: BasicWiringRequestContext.self)
        router.add(middleware: RequestScopeMiddleware(container: container) { scope, request, _ in
            try scope.seed(RequestLog(requestID: request.uri.path, logger: Logger(label: "test")))
        })
        return (container, router, units)
    }

    /// A request's scope ends exactly once on every path, over loopback: a streamed body
    /// written, a handler that throws, and a streamed response Hummingbird drops unwritten
    /// because its client went away before the head was sent.
    @Test func aRequestScopeEndsExactlyOnceOnEveryPath() async throws {
        let (container, router, units) = try Self.recordingRouter()
        @Sendable func streamed(_ unit: UnitOfWork) -> Response {
            Response(status: .ok, body: ResponseBody { writer in
                try await writer.write(ByteBuffer(string: unit.requestID))
                try await writer.finish(nil)
            })
        }
        router.get("/streamed") { _, context -> Response in streamed(try await context.resolve(UnitOfWork.self)) }
        router.get("/fails") { _, context -> Response in
            _ = try await context.resolve(UnitOfWork.self)
            throw HTTPError(.badRequest)
        }
        router.get("/slow") { _, context -> Response in
            let unit = try await context.resolve(UnitOfWork.self)
            // Waits without heeding cancellation, so that the response is made after the client
            // left: the path where it is dropped unwritten.
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { done.resume() }
            }
            return streamed(unit)
        }
        try await Application(router: router).test(.live) { client in
            try await client.execute(uri: "/streamed", method: .get) { response in
                #expect(String(buffer: response.body) == "/streamed")
            }
            #expect(try await units.settle(at: 1) == 1)
            try await client.execute(uri: "/fails", method: .get) { response in
                #expect(response.status == .badRequest)
            }
            #expect(try await units.settle(at: 2) == 2)
            let port = try #require(client.port)
            try HangingUpClient.get(port: port, path: "/slow")
            #expect(try await units.settle(at: 3) == 3)
        }
        #expect(units.all.count == 3 && units.all.allSatisfy(\.hasEnded))
        try await container.shutdown()
    }

    /// A request whose task is cancelled while its handler runs ends its scope too, once.
    @Test func aCancelledRequestEndsItsScopeOnce() async throws {
        let (container, router, units) = try Self.recordingRouter()
        router.get("/waits") { _, context -> String in
            _ = try await context.resolve(UnitOfWork.self)
            try await Task.sleep(for: .seconds(30))
            return "unreachable"
        }
        try await Application(router: router).test(.router) { client in
            let request = Task { try await client.execute(uri: "/waits", method: .get) { _ in } }
            let deadline = ContinuousClock.now + .seconds(10)
            while units.all.isEmpty && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
            request.cancel()
            _ = await request.result
            #expect(try await units.settle(at: 1) == 1)
        }
        try await container.shutdown()
    }
}
