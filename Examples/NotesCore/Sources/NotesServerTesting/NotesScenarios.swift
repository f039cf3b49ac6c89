import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NotesCore
import Synchronization
import Testing
import Wiring

/// What a notes server does, whichever framework serves it: each example's tests call these
/// with their ``NotesServerUnderTest``, and with their executable's name.
public enum NotesScenarios {
    public static func everyRouteAnswers<Server: NotesServerUnderTest>(_: Server.Type) async throws {
        let server = try await Server.start()
        #expect(try await server.request("GET", "/notes").text == "[]")
        let created = try await server.request("POST", "/notes", json: #"{"title": "Ship it", "body": "on Friday"}"#)
        #expect(created.status == 201)
        #expect(try created.json(Note.self) == Note(id: 1, title: "Ship it", body: "on Friday"))
        #expect(try await server.request("GET", "/notes/1").json(Note.self).title == "Ship it")
        #expect(try await server.request("GET", "/notes").json([Note].self).count == 1)
        #expect(try await server.request("GET", "/notes/2").status == 404)
        #expect(try await server.request("POST", "/notes", json: #"{"title": ""}"#).status == 400)
        // DELETE needs the admin token, from NOTES_ADMIN_TOKEN or its default.
        #expect(try await server.request("DELETE", "/notes/1").status == 401)
        #expect(try await server.request("DELETE", "/notes/1", headers: ["Authorization": "Bearer dev-token"]).status == 204)
        #expect(try await server.request("GET", "/notes/1").status == 404)
        let health = try await server.request("GET", "/health")
        #expect(health.status == 200)
        #expect(health.text.contains(#""healthy":true"#))
        #expect(health.text.contains(#""store":true"#) && health.text.contains(#""uptime":true"#))
        try await server.shutDown()
    }

    public static func concurrentRequestsGetTheirOwnScopedInstancesAndShareTheSingleton<Server: NotesServerUnderTest>(_: Server.Type) async throws {
        // The test's registry records the units of work, and holds each request's queries
        // until both requests have theirs, so that both scopes are open at once.
        let (registry, units) = registryRecordingUnitsOfWork()
        let bothStarted = AsyncGate(count: 2)
        registry.factory("note-queries", overriding: true) { r in
            let queries = NoteQueries(store: try await r.resolve(), unit: try await r.resolve(), log: try await r.resolve())
            await bothStarted.arrive()
            return queries
        }
        let server = try await Server.start(registry: registry)
        async let first = server.request("GET", "/notes")
        async let second = server.request("GET", "/notes")
        let replies = try await [first, second]
        #expect(replies.map(\.status) == [200, 200], "\(replies.map(\.text))")
        let made = units.all
        try #require(made.count == 2)
        #expect(made[0] !== made[1])
        #expect(made[0].requestID != made[1].requestID)
        // Each request's scope ended once its response was written.
        #expect(made.allSatisfy { $0.hasEnded })
        // The singleton store is one instance for both.
        let store = try await server.container.resolve((any NoteStore).self)
        let posted = try await server.request("POST", "/notes", json: #"{"title": "shared"}"#)
        #expect(posted.status == 201, "\(posted.text)")
        let titles = try await store.all().map(\.title)
        #expect(titles == ["shared"])
        try await server.shutDown()
    }

    public static func aStreamedExportKeepsTheRequestScopeOpenUntilItsLastLine<Server: NotesServerUnderTest>(_: Server.Type) async throws {
        let (registry, units) = registryRecordingUnitsOfWork()
        let server = try await Server.start(registry: registry)
        for title in ["one", "two"] {
            #expect(try await server.request("POST", "/notes", json: #"{"title": "\#(title)"}"#).status == 201)
        }
        // Each line reads through the request's unit of work, which refuses work once ended.
        let export = try await server.request("GET", "/notes/export")
        #expect(export.status == 200, "\(export.text)")
        #expect(export.headers["content-type"] == "application/x-ndjson")
        let titles = try export.text.split(separator: "\n").map { try JSONDecoder().decode(Note.self, from: Data($0.utf8)).title }
        #expect(titles == ["one", "two"])
        // The scope ends right after the last byte is written, which may be just after the
        // client has it.
        let exportUnit = try #require(units.all.last)
        let deadline = ContinuousClock.now + .seconds(5)
        while !exportUnit.hasEnded && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(exportUnit.hasEnded)
        try await server.shutDown()
    }

    public static func theTestContextSwapsTheStore<Server: NotesServerUnderTest>(_: Server.Type) async throws {
        let test = try await Server.start()
        let memory = try await test.container.resolve((any NoteStore).self)
        #expect(memory is InMemoryNoteStore)
        try await test.shutDown()

        let folder = try FileManager.default.temporaryFolder("notes")
        let development = try await Server.start(contexts: .explicit("development"), environment: ["NOTES_DIR": folder.path])
        let file = try await development.container.resolve((any NoteStore).self)
        #expect(file is FileNoteStore)
        let posted = try await development.request("POST", "/notes", json: #"{"title": "on disk"}"#)
        #expect(posted.status == 201, "\(posted.text)")
        try await development.shutDown()
        let saved = try JSONDecoder().decode([Note].self, from: Data(contentsOf: folder.appendingPathComponent("notes.json")))
        #expect(saved.map(\.title) == ["on disk"])
    }

    /// The container's snapshot, at `/admin/wiring/snapshot` behind the admin token in every
    /// context: 401 without it, the JSON with it, never a value the app was given.
    public static func theSnapshotRouteAnswersBehindTheAdminToken<Server: NotesServerUnderTest>(_: Server.Type) async throws {
        let path = "/admin/wiring/snapshot"
        let folder = try FileManager.default.temporaryFolder("notes")
        let development = try await Server.start(contexts: .explicit("development"), environment: ["NOTES_DIR": folder.path])
        _ = try await development.request("POST", "/notes", json: #"{"title": "kept"}"#)
        #expect(try await development.request("GET", path).status == 401)
        #expect(try await development.request("GET", path, headers: ["Authorization": "Bearer wrong"]).status == 401)
        let reply = try await development.request("GET", path, headers: ["Authorization": "Bearer dev-token"])
        #expect(reply.status == 200, "\(reply.text)")
        #expect(reply.headers["content-type"]?.hasPrefix("application/json") == true)
        #expect(reply.headers["cache-control"] == "no-store")
        let snapshot = try JSONDecoder.iso8601.decode(ContainerSnapshot.self, from: reply.body)
        #expect(snapshot.contexts.map(\.name) == ["development"])
        let store = try #require(snapshot.services.first { $0.key == "NoteStore" })
        #expect(store.kept && store.builds == 1)
        #expect(snapshot.configuration.contains { $0.name == "NOTES_DIR" })
        // Names, never values: the notes folder is not in it.
        #expect(!reply.text.contains(folder.lastPathComponent))
        // GET only.
        #expect(try await development.request("POST", path, json: "{}", headers: ["Authorization": "Bearer dev-token"]).status != 200)
        try await development.shutDown()

        let production = try await Server.start(contexts: .explicit("production"),
                                                environment: ["NOTES_DIR": folder.path, "NOTES_ADMIN_TOKEN": "S3CRET-TOKEN"])
        #expect(try await production.request("GET", path, headers: ["Authorization": "Bearer dev-token"]).status == 401)
        let answered = try await production.request("GET", path, headers: ["Authorization": "Bearer S3CRET-TOKEN"])
        #expect(answered.status == 200)
        #expect(!answered.text.contains("S3CRET") && !answered.text.contains(folder.lastPathComponent))
        // The old development-only path is gone.
        #expect(try await production.request("GET", "/_wiring/snapshot").status == 404)
        try await production.shutDown()
    }

    public static func gracefulShutdownLetsARequestInFlightFinishBeforeTheStoreCloses<Server: NotesServerUnderTest>(_: Server.Type) async throws {
        // The request's queries wait, in the handler, until the test lets them go.
        let inHandler = AsyncGate(count: 2), release = AsyncGate(count: 2)
        let registry = Notes.registry()
        registry.factory("note-queries", overriding: true) { r in
            let queries = NoteQueries(store: try await r.resolve(), unit: try await r.resolve(), log: try await r.resolve())
            await inHandler.arrive()
            await release.arrive()
            return queries
        }
        let server = try await Server.start(registry: registry)
        let store = try await server.container.resolve((any NoteStore).self)
        async let reply = server.request("GET", "/notes")
        await inHandler.arrive()
        async let shutDown: Void = server.shutDown()
        try await Task.sleep(for: .milliseconds(300))
        #expect(await store.closeCount == 0, "the store stays open while a request is in flight")
        await release.arrive()
        #expect(try await reply.status == 200)
        try await shutDown
        #expect(await store.closeCount == 1)
    }

    public static func aRequestLogThatIsNotScopedStopsStartUp<Server: NotesServerUnderTest>(_: Server.Type) async throws {
        // The middleware seeds each request's scope with its RequestLog: a singleton cannot be.
        // Declared seeded, the manifest says so where it is written.
        let seeded = try EditedConfig(replacing: "scope: scoped, seeded: true", with: "scope: singleton, seeded: true")
        let manifestError = #expect(throws: ManifestError.self) {
            try Notes.makeContainer(config: seeded.folder.path, contexts: .explicit("test"), environment: ["HTTP_PORT": "0"])
        }
        let diagnostic = try #require(manifestError?.errors.first)
        #expect(diagnostic.formatted().hasPrefix("\(seeded.services.path):\(seeded.line):"), "\(diagnostic.formatted())")
        #expect(diagnostic.message.hasPrefix("'seeded: true' of service 'RequestLog' needs scope scoped"))

        // Built by a factory instead, as a singleton: the middleware's check at start-up.
        let built = try EditedConfig(replacing: "scope: scoped, seeded: true", with: "factory: app-logger, scope: singleton, args: { live: !service LiveLogLevel }")
        let container = try Notes.makeContainer(config: built.folder.path, contexts: .explicit("test"), environment: ["HTTP_PORT": "0"])
        let error = await #expect(throws: ResolutionError.self) { _ = try await Server.start(container: container) }
        #expect(error?.description == "service RequestLog (\(built.services.path):\(built.line):3) is singleton, not scoped: "
                + "only a scoped service can be seeded in a scope")
        try await container.shutdown()
    }

    public static func aMisspeltLevelOrABadPortStopsStartUpAtItsLine<Server: NotesServerUnderTest>(_: Server.Type) throws {
        let level = try EditedConfig(replacing: #"args: { level: "${log.level:-info}""#, with: #"args: { level: "${log.level:-infoo}""#)
        let error = #expect(throws: ManifestError.self) {
            try Notes.makeContainer(config: level.folder.path, contexts: .none, environment: ["HTTP_PORT": "0"])
        }
        #expect(error?.errors.map(\.headline) == [
            "\(level.services.path):\(level.line):\(level.column + 15): error: service LogLevel: argument 'level': 'infoo' is not a case of Level "
                + "(trace, debug, info, notice, warning, error, critical); did you mean 'info'?",
        ])
        // The port comes through swift-configuration (HTTP_PORT here): its key is named, its
        // value not shown.
        for port in ["eighty", "70000"] {
            let portError = #expect(throws: ManifestError.self) {
                try Notes.makeContainer(config: Notes.defaultConfig, contexts: .none, environment: ["HTTP_PORT": port])
            }
            #expect(portError?.errors.count == 1)
            #expect(portError?.errors.first?.message.hasPrefix("service ServerSettings: argument 'port': ") == true)
            #expect(portError?.errors.first?.message.contains("configuration key 'http.port'") == true, "\(portError?.description ?? "")")
            #expect(portError?.description.contains(port) == false)
        }
    }

    public static func gracefulShutdownClosesTheStoreExactlyOnce<Server: NotesServerUnderTest>(_: Server.Type) async throws {
        let server = try await Server.start()
        let store = try await server.container.resolve((any NoteStore).self)
        _ = try await server.request("GET", "/health")
        #expect(await store.closeCount == 0)
        try await server.shutDown()
        #expect(await store.closeCount == 1)
        #expect(server.container.isShutDown)
    }

    /// The real registry, with a unit-of-work factory that keeps each unit it makes.
    public static func registryRecordingUnitsOfWork() -> (FactoryRegistry, UnitsOfWork) {
        let units = UnitsOfWork()
        let registry = Notes.registry()
        registry.factory("unit-of-work", overriding: true) { r in
            let unit = UnitOfWork(log: try r.resolve())
            units.made.withLock { $0.append(unit) }
            return unit
        }
        .onShutdown { unit in
            units.ends.add(1, ordering: .relaxed)
            unit.end()
        }
        return (registry, units)
    }

    // MARK: - The executable

    public static func aBadManifestStopsStartUpWithThePositionedErrorAndExitStatus1(executable: String) throws {
        // The real config/, with a factory key misspelt in services.yaml.
        let config = try EditedConfig(replacing: "request-counter", with: "request-countr")
        let server = try ServerProcess.start(executable, environment: ["NOTES_CONFIG": config.folder.path])
        let (status, output) = server.wait()
        #expect(status == 1)
        #expect(output.stderr.contains("\(config.services.path):\(config.line):\(config.column): error: "), "\(output.stderr)")
        #expect(output.stderr.contains("'request-countr'") && output.stderr.contains("did you mean 'request-counter'"), "\(output.stderr)")
        #expect(!output.stdout.contains("listening"))
    }

    public static func sigtermDrainsThenShutsTheContainerDownInReverseOrderAndExits0(executable: String) async throws {
        let notes = try FileManager.default.temporaryFolder("notes-server")
        let server = try ServerProcess.start(executable, environment: ["APP_ENV": "development", "NOTES_DIR": notes.path])
        let port = try server.waitForPort()
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/notes")!)
        request.httpMethod = "POST"
        request.httpBody = Data(#"{"title": "before SIGTERM"}"#.utf8)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.timeoutInterval = 10
        let (_, response) = try await URLSession.shared.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 201)

        server.process.terminate()  // SIGTERM
        let (status, output) = server.wait()
        #expect(status == 0, "\(output.stderr)")
        // The two singletons with shutdown hooks close in the reverse order of their making
        // (which one a server makes first is its own affair); the store closes once, after
        // the request, and has written the note.
        let log = output.stderr  // swift-log writes to standard error
        let counterMade = try #require(log.range(of: "request counter ready"), "\(log)")
        let storeMade = try #require(log.range(of: "opened file note store"), "\(log)")
        let counter = try #require(log.range(of: "shutdown: request counter closed after 1 requests"), "\(log)")
        let store = try #require(log.range(of: "shutdown: file note store closed (1 notes"), "\(log)")
        #expect((counterMade.lowerBound < storeMade.lowerBound) == (store.lowerBound < counter.lowerBound), "\(log)")
        #expect(log.components(separatedBy: "file note store closed").count == 2)
        let saved = try String(contentsOf: notes.appendingPathComponent("notes.json"), encoding: .utf8)
        #expect(saved.contains("before SIGTERM"))
    }

    /// In development the server follows edits of its manifests: the next request gets a
    /// container built from the edited files, and an edit with errors is logged at its line
    /// while the server keeps serving.
    public static func inDevelopmentAnEditOfTheManifestsAppliesToTheNextRequest(executable: String) async throws {
        let folder = try FileManager.default.temporaryFolder("notes-reload")
        let config = try EditedConfig(replacing: "NOTES_ADMIN_TOKEN:-dev-token", with: "NOTES_ADMIN_TOKEN:-dev-token")
        let server = try ServerProcess.start(executable, environment: [
            "NOTES_DIR": folder.path, "NOTES_CONFIG": config.folder.path, "NOTES_RELOAD_POLL_MS": "50",
        ])
        let port = try server.waitForPort()
        func delete(token: String) async throws -> Int {
            var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/notes/99")!)
            request.httpMethod = "DELETE"
            request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
            let (_, response) = try await URLSession.shared.data(for: request)
            return try #require(response as? HTTPURLResponse).statusCode
        }
        #expect(try await delete(token: "edited-token") == 401)

        try config.edit(replacing: "NOTES_ADMIN_TOKEN:-dev-token", with: "NOTES_ADMIN_TOKEN:-edited-token")
        #expect(try await server.waitForStandardError(containing: "reload: the edited manifest is in force"), "\(server.output.stderr)")
        // The token is accepted (no note 99: 404, not 401).
        #expect(try await delete(token: "edited-token") == 404)

        try config.edit(replacing: "factory: request-counter", with: "factory: request-countr")
        #expect(try await server.waitForStandardError(containing: "reload: the edited manifest has errors"), "\(server.output.stderr)")
        #expect(server.output.stderr.contains("\(config.services.path):"), "\(server.output.stderr)")
        #expect(server.output.stderr.contains("did you mean 'request-counter'"))
        #expect(try await delete(token: "edited-token") == 404)

        server.process.terminate()  // SIGTERM
        let (status, output) = server.wait()
        #expect(status == 0, "\(output.stderr)")
    }
}

/// The scenarios of ``NotesScenarios`` run against a server in process, as the arguments of
/// one parameterized test: `@Test(arguments: NotesScenario.allCases)`.
public enum NotesScenario: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case everyRouteAnswers
    case concurrentRequestsGetTheirOwnScopedInstancesAndShareTheSingleton
    case aStreamedExportKeepsTheRequestScopeOpenUntilItsLastLine
    case theTestContextSwapsTheStore
    case theSnapshotRouteAnswersBehindTheAdminToken
    case gracefulShutdownLetsARequestInFlightFinishBeforeTheStoreCloses
    case aRequestLogThatIsNotScopedStopsStartUp
    case aMisspeltLevelOrABadPortStopsStartUpAtItsLine
    case gracefulShutdownClosesTheStoreExactlyOnce

    public var testDescription: String { rawValue }

    /// Runs the scenario against `Server`.
    public func run<Server: NotesServerUnderTest>(against _: Server.Type) async throws {
        switch self {
        case .everyRouteAnswers: try await NotesScenarios.everyRouteAnswers(Server.self)
        case .concurrentRequestsGetTheirOwnScopedInstancesAndShareTheSingleton: try await NotesScenarios.concurrentRequestsGetTheirOwnScopedInstancesAndShareTheSingleton(Server.self)
        case .aStreamedExportKeepsTheRequestScopeOpenUntilItsLastLine: try await NotesScenarios.aStreamedExportKeepsTheRequestScopeOpenUntilItsLastLine(Server.self)
        case .theTestContextSwapsTheStore: try await NotesScenarios.theTestContextSwapsTheStore(Server.self)
        case .theSnapshotRouteAnswersBehindTheAdminToken: try await NotesScenarios.theSnapshotRouteAnswersBehindTheAdminToken(Server.self)
        case .gracefulShutdownLetsARequestInFlightFinishBeforeTheStoreCloses: try await NotesScenarios.gracefulShutdownLetsARequestInFlightFinishBeforeTheStoreCloses(Server.self)
        case .aRequestLogThatIsNotScopedStopsStartUp: try await NotesScenarios.aRequestLogThatIsNotScopedStopsStartUp(Server.self)
        case .aMisspeltLevelOrABadPortStopsStartUpAtItsLine: try NotesScenarios.aMisspeltLevelOrABadPortStopsStartUpAtItsLine(Server.self)
        case .gracefulShutdownClosesTheStoreExactlyOnce: try await NotesScenarios.gracefulShutdownClosesTheStoreExactlyOnce(Server.self)
        }
    }
}

/// The units of work a test's factory made, in order.
public final class UnitsOfWork: Sendable {
    let made = Mutex<[UnitOfWork]>([])
    /// How many times a unit's shutdown hook ran: once per scope that made one, however it ended.
    let ends = Atomic(0)
    public var all: [UnitOfWork] { made.withLock { $0 } }
    public var endCount: Int { ends.load(ordering: .relaxed) }

    /// Waits (up to ten seconds) until `count` units' hooks ran, then a moment more, so that a
    /// hook run twice would show; the count then.
    public func settle(at count: Int) async throws -> Int {
        let deadline = ContinuousClock.now + .seconds(10)
        while endCount < count && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        try await Task.sleep(for: .milliseconds(100))
        return endCount
    }
}

extension FileManager {
    /// A new, empty folder, its name starting with `prefix`, in this process's scratch folder
    /// under the temporary directory, which is removed when the process exits.
    public func temporaryFolder(_ prefix: String) throws -> URL {
        let folder = scenarioScratch.appendingPathComponent("\(prefix)-\(UUID())")
        try createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }
}

/// The folder every ``Foundation/FileManager/temporaryFolder(_:)`` of this process is made in.
private let scenarioScratch: URL = {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("notes-tests-\(UUID())")
    atexit {
        // Best effort at exit: a folder left behind in the temporary directory harms nothing.
        try? FileManager.default.removeItem(at: scenarioScratch)
    }
    return folder
}()

extension JSONDecoder {
    /// A decoder of the dates a ``ContainerSnapshot`` writes.
    public static var iso8601: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}
