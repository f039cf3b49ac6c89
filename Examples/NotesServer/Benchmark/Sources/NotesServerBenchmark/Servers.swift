import Hummingbird
import Logging
import NotesServerApp
import ServiceLifecycle
import Wiring

/// The notes server as it ships.
func wired(onServerRunning: @escaping @Sendable (Int) async -> Void) async throws -> ServiceGroup {
    let container = try NotesServerApp.makeContainer(contexts: .explicit("test"), environment: ["PORT": "0"])
    let group = try await NotesServerApp.makeServiceGroup(container: container, onServerRunning: onServerRunning)
    _ = try await container.resolve((any NoteStore).self).add(NewNote(title: "benchmark"))
    return group
}

/// The same route, with the services made by hand.
func byHand(onServerRunning: @escaping @Sendable (Int) async -> Void) async throws -> ServiceGroup {
    var logger = Logger(label: "notes-server")
    logger.logLevel = .warning
    let store = InMemoryNoteStore(log: logger)
    _ = await store.add(NewNote(title: "benchmark"))
    let counter = RequestCounter(logger: logger)
    let router = Router()
    router.get("/notes/:id") { _, context -> Note in
        counter.increment()
        let log = RequestLog(requestID: context.id, logger: context.logger)
        let unit = UnitOfWork(log: log)
        defer { unit.end() }
        let id = try context.parameters.require("id", as: Int.self)
        guard let note = try await NoteQueries(store: store, unit: unit, log: log).note(id: id) else {
            throw HTTPError(.notFound)
        }
        return note
    }
    let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0), serverName: "NotesServer"),
                          onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? 0) },
                          logger: logger)
    return ServiceGroup(services: [app], gracefulShutdownSignals: [], logger: logger)
}
