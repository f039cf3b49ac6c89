import Logging
import NotesCore
import NotesServerVaporApp
import Vapor
import Wiring

/// The Vapor notes server as it ships (WiringVapor: `app.wiring.use`).
func vaporWired() async throws -> Application {
    let container = try Notes.makeContainer(contexts: .explicit("test"), environment: ["HTTP_PORT": "0"])
    _ = try await container.resolve((any NoteStore).self).add(NewNote(title: "benchmark"))
    return try await NotesVaporApp.makeApplication(container: container)
}

/// The same Vapor server with the services made by hand: the same middleware (Vapor's own,
/// the request counter, one that makes the request's log and unit of work where WiringVapor's
/// makes the scope), the same routes, and the same handler for `GET /notes/:id`.
func vaporByHand() async throws -> Application {
    var logger = Logger(label: "notes-server")
    logger.logLevel = .warning
    let store = InMemoryNoteStore(log: logger)
    _ = await store.add(NewNote(title: "benchmark"))
    let app = try await Application.make(Environment(name: "production", arguments: [CommandLine.arguments[0]]), logger: logger)
    app.middleware.use(VaporCountingByHand(counter: RequestCounter(logger: logger)))
    app.middleware.use(VaporUnitOfWorkByHand())
    app.get("notes", ":id") { req async throws -> Note in
        guard let id = req.parameters.get("id", as: Int.self), let work = req.storage[VaporUnitOfWorkByHand.Key.self],
              let note = try await NoteQueries(store: store, unit: work.unit, log: work.log).note(id: id) else {
            throw Abort(.notFound)
        }
        return note
    }
    // The notes server's other routes, so that the router looks up among the same ones.
    app.get("notes") { _ in HTTPStatus.ok }
    app.get("notes", "export") { _ in HTTPStatus.ok }
    app.get("health") { _ in HTTPStatus.ok }
    app.post("notes") { _ in HTTPStatus.created }
    app.delete("notes", ":id") { _ in HTTPStatus.noContent }
    return app
}

/// Counts requests, as the Vapor notes server's `RequestCountingMiddleware` does.
struct VaporCountingByHand: AsyncMiddleware {
    let counter: RequestCounter

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        counter.increment()
        return try await next.respond(to: request)
    }
}

/// Makes each request's log and unit of work, kept in the request's storage, and ends the unit
/// after the handler, as WiringVapor's middleware ends the request's scope.
struct VaporUnitOfWorkByHand: AsyncMiddleware {
    struct Key: StorageKey {
        typealias Value = Work
    }

    final class Work: Sendable {
        let log: RequestLog
        let unit: UnitOfWork
        init(log: RequestLog, unit: UnitOfWork) {
            self.log = log
            self.unit = unit
        }
    }

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        let log = RequestLog(requestID: request.id, logger: request.logger)
        let work = Work(log: log, unit: UnitOfWork(log: log))
        request.storage[Key.self] = work
        defer { work.unit.end() }
        return try await next.respond(to: request)
    }
}
