import NotesServerTesting
import Testing

/// The scenarios every notes server passes (NotesCore's NotesServerTesting), against the
/// Vapor server over loopback.
@Suite("NotesServerVapor over loopback")
struct NotesServerVaporTests {
    @Test(arguments: NotesScenario.allCases)
    func scenario(_ scenario: NotesScenario) async throws {
        try await scenario.run(against: TestServer.self)
    }
}
