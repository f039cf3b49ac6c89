import Logging
import NotesCore
import Vapor
import Wiring
import WiringVapor

/// The container's work for one Vapor request, in this process, without HTTP: a `Request`
/// made as Vapor's server makes one, run through WiringVapor's `RequestScopeMiddleware` (the
/// scope kept in the request's storage, seeded with the request log) to a responder that
/// resolves NoteQueries with `req.resolve`; against the same request through a middleware that
/// makes those services by hand (the by-hand server's), and the scope work through the
/// container's API alone. The difference from the by-hand path is the container's work; from
/// the API alone, what the middleware adds.
func vaporInProcess(coolingMiB: Int) async throws {
    let container = try Notes.makeContainer(contexts: .explicit("test"), environment: ["HTTP_PORT": "0"])
    try await container.start()
    var logger = Logger(label: "notes-server")
    logger.logLevel = .warning
    let app = try await Application.make(.testing, logger: logger)
    let eventLoop = app.eventLoopGroup.next()
    let store = try await container.resolve((any NoteStore).self)
    let between = CacheCooler(bytes: coolingMiB << 20)
    let middleware = RequestScopeMiddleware(container: container) { scope, req in
        try scope.seed(RequestLog(requestID: req.id, logger: req.logger))
    }
    let resolving = Resolving(), byHand = ByHand(store: store), unitByHand = VaporUnitOfWorkByHand()
    func request() -> Request {
        Request(application: app, method: .GET, url: "/notes/1", logger: logger, on: eventLoop)
    }
    for (cool, iterations) in [(false, 100_000), (true, max(20_000 / coolingMiB, 2_000))] {
        let cooling = cool ? between : nil
        let wired = try await perCall(iterations, cooling: cooling) {
            _ = try await middleware.respond(to: request(), chainingTo: resolving)
        }
        let hand = try await perCall(iterations, cooling: cooling) {
            _ = try await unitByHand.respond(to: request(), chainingTo: byHand)
        }
        let scopeAPI = try await perCall(iterations, cooling: cooling) {
            let req = request()
            let scope = container.makeScope()
            try scope.seed(RequestLog(requestID: req.id, logger: req.logger))
            _ = try await scope.resolve(NoteQueries.self)
            try await scope.end()
            _ = Response(status: .ok)
        }
        print(String(format: "Vapor in process, %@: through WiringVapor's middleware %.2f µs, by hand %.2f µs, the container's API alone "
                     + "%.2f µs per request; the container's work %.2f µs, the middleware's beyond the API %.2f µs (best of 5 × %d)",
                     cool ? "\(coolingMiB) MiB read between requests" : "back to back",
                     wired, hand, scopeAPI, wired - hand, wired - scopeAPI, iterations))
    }
    if between.checksum == 1 { print("") }
    try await app.asyncShutdown()
    try await container.shutdown()
}

/// The wired server's handler, reduced to its container work: resolves the request's queries.
private struct Resolving: AsyncResponder {
    func respond(to request: Request) async throws -> Response {
        _ = try await request.resolve(NoteQueries.self)
        return Response(status: .ok)
    }
}

/// The by-hand server's handler, reduced the same way: its queries from the request's storage.
private struct ByHand: AsyncResponder {
    let store: any NoteStore

    func respond(to request: Request) async throws -> Response {
        guard let work = request.storage[VaporUnitOfWorkByHand.Key.self] else { throw Abort(.internalServerError) }
        _ = NoteQueries(store: store, unit: work.unit, log: work.log)
        return Response(status: .ok)
    }
}
