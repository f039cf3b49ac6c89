import Foundation
import Hummingbird
import HummingbirdTesting
import NotesCore
import NotesServerApp
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
}
