import NotesServerTesting
import Testing

/// The scenarios every notes server passes (NotesCore's NotesServerTesting), against the
/// Hummingbird server over loopback.
@Suite("NotesServer over loopback")
struct NotesServerTests {
    @Test(arguments: NotesScenario.allCases)
    func scenario(_ scenario: NotesScenario) async throws {
        try await scenario.run(against: TestServer.self)
    }
}
