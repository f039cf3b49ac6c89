import Hummingbird
import Logging
import NotesCore
import NotesServerApp
import ServiceLifecycle
import Wiring

/// The Hummingbird notes server as it ships.
func wired(onServerRunning: @escaping @Sendable (Int) async -> Void) async throws -> ServiceGroup {
    let container = try Notes.makeContainer(contexts: .explicit("test"), environment: ["HTTP_PORT": "0"])
    let group = try await NotesServerApp.makeServiceGroup(container: container, onServerRunning: onServerRunning)
    _ = try await container.resolve((any NoteStore).self).add(NewNote(title: "benchmark"))
    return group
}

/// The same server with the services made by hand: the same request context (with the
/// request's services where the notes server's has its scope), the same two middleware layers,
/// the same paths in the router, and the same handler for `GET /notes/:id`. What differs is
/// what the container does: the scope, the seeded request log, the resolves, the scope's end.
func byHand(onServerRunning: @escaping @Sendable (Int) async -> Void) async throws -> ServiceGroup {
    var logger = Logger(label: "notes-server")
    logger.logLevel = .warning
    let store = InMemoryNoteStore(log: logger)
    _ = await store.add(NewNote(title: "benchmark"))
    let router = Router(context: HandRequestContext.self)
    router.add(middleware: CountingByHand(counter: RequestCounter(logger: logger)))
    router.add(middleware: UnitOfWorkByHand())
    router.get("/notes/:id") { _, context -> Note in
        let id = try context.parameters.require("id", as: Int.self)
        guard let (log, unit) = context.work,
              let note = try await NoteQueries(store: store, unit: unit, log: log).note(id: id) else {
            throw HTTPError(.notFound)
        }
        return note
    }
    // The notes server's other paths, so that the router looks up among the same ones.
    for path in ["/notes", "/notes/export", "/health"] as [RouterPath] {
        router.get(path) { _, _ -> HTTPResponse.Status in .ok }
    }
    router.post("/notes") { _, _ -> HTTPResponse.Status in .created }
    router.delete("/notes/:id") { _, _ -> HTTPResponse.Status in .noContent }
    let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0), serverName: "NotesServer"),
                          onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? 0) },
                          logger: logger)
    return ServiceGroup(services: [app], gracefulShutdownSignals: [], logger: logger)
}

/// The request context of the server by hand: the request's log and unit of work, made by
/// ``UnitOfWorkByHand``.
struct HandRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    var work: (log: RequestLog, unit: UnitOfWork)?

    init(source: Source) {
        coreContext = .init(source: source)
        work = nil
    }
}

/// Counts requests, as the notes server's `RequestCountingMiddleware` does.
struct CountingByHand: RouterMiddleware {
    let counter: RequestCounter

    func handle(_ request: Request, context: HandRequestContext, next: (Request, HandRequestContext) async throws -> Response) async throws -> Response {
        counter.increment()
        return try await next(request, context)
    }
}

/// Makes each request's log and unit of work, and ends the unit after the handler, as the
/// notes server's middleware ends the request's scope for a body of known length.
struct UnitOfWorkByHand: RouterMiddleware {
    func handle(_ request: Request, context: HandRequestContext, next: (Request, HandRequestContext) async throws -> Response) async throws -> Response {
        let log = RequestLog(requestID: context.id, logger: context.logger)
        let unit = UnitOfWork(log: log)
        defer { unit.end() }
        var context = context
        context.work = (log, unit)
        return try await next(request, context)
    }
}
