import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NotesCore
import NotesServerTesting
import Testing
import Wiring

/// The built `notes-server`, run as a user runs it: start-up errors and signals.
@Suite("notes-server, the executable")
struct ExecutableTests {
    @Test func aBadManifestStopsStartUpWithThePositionedErrorAndExitStatus1() throws {
        try NotesScenarios.aBadManifestStopsStartUpWithThePositionedErrorAndExitStatus1(executable: "notes-server")
    }

    @Test func sigtermDrainsThenShutsTheContainerDownInReverseOrderAndExits0() async throws {
        try await NotesScenarios.sigtermDrainsThenShutsTheContainerDownInReverseOrderAndExits0(executable: "notes-server")
    }

    /// The settings file NOTES_SETTINGS names: the port comes from it, and an edit to its
    /// `log.level` changes the running server's level, as its log shows over loopback.
    @Test func anEditToTheSettingsFileChangesTheLogLevelLive() async throws {
        let folder = try FileManager.default.temporaryFolder("notes-settings")
        let settings = folder.appendingPathComponent("settings.json")
        try Data(#"{"log": {"level": "info"}}"#.utf8).write(to: settings)
        let server = try ServerProcess.start("notes-server", environment: [
            "APP_ENV": "development", "NOTES_DIR": folder.path, "NOTES_SETTINGS": settings.path, "NOTES_SETTINGS_POLL_MS": "100",
        ])
        let port = try server.waitForPort()
        func listNotes() async throws {
            let (_, response) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(port)/notes")!)
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
        }
        // At info, a request's unit of work logs nothing (it logs at debug).
        try await listNotes()
        try await Task.sleep(for: .milliseconds(200))
        #expect(!server.output.stderr.contains("unit of work ended"), "\(server.output.stderr)")

        try Data(#"{"log": {"level": "debug"}}"#.utf8).write(to: settings)
        // A modification time the poll cannot mistake for the first file's.
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(5)], ofItemAtPath: settings.path)
        let refreshed = try await server.waitForStandardError(containing: "refresh: service 'LogLevel'")
        #expect(refreshed, "\(server.output.stderr)")
        #expect(server.output.stderr.contains(
            "refresh: service 'LogLevel' reads configuration key 'log.level', which changed: its kept instance is dropped"))
        try await listNotes()
        #expect(try await server.waitForStandardError(containing: "unit of work ended"), "\(server.output.stderr)")

        server.process.terminate()  // SIGTERM
        let (status, output) = server.wait()
        #expect(status == 0, "\(output.stderr)")
    }

    @Test func thePortAndLevelComeFromTheSettingsFileWhenTheEnvironmentHasNone() async throws {
        let folder = try FileManager.default.temporaryFolder("notes-settings")
        let file = folder.appendingPathComponent("settings.json")
        try Data(#"{"http": {"port": 9123}, "log": {"level": "error"}}"#.utf8).write(to: file)
        let settings = try await NotesSettings.load(environment: ["NOTES_SETTINGS": file.path])
        let container = try Notes.makeContainer(contexts: .explicit("development"), environment: [:], settings: settings)
        try await container.start()
        #expect(try await container.resolve(ServerSettings.self).port == 9123)
        #expect(try await container.resolve(LogLevel.self).level == .error)
        // The environment comes first.
        let overridden = try await NotesSettings.load(environment: ["NOTES_SETTINGS": file.path, "HTTP_PORT": "9124"])
        let second = try Notes.makeContainer(contexts: .explicit("development"), environment: [:], settings: overridden)
        #expect(try await second.resolve(ServerSettings.self).port == 9124)
        try await container.shutdown()
    }

    @Test func inDevelopmentAnEditOfTheManifestsAppliesToTheNextRequest() async throws {
        try await NotesScenarios.inDevelopmentAnEditOfTheManifestsAppliesToTheNextRequest(executable: "notes-server")
    }
}
