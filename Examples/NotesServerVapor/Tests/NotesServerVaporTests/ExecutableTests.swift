import NotesServerTesting
import Testing

/// The built `notes-server-vapor`, run as a user runs it: start-up errors and signals.
@Suite("notes-server-vapor, the executable")
struct ExecutableTests {
    @Test func aBadManifestStopsStartUpWithThePositionedErrorAndExitStatus1() throws {
        try NotesScenarios.aBadManifestStopsStartUpWithThePositionedErrorAndExitStatus1(executable: "notes-server-vapor")
    }

    @Test func sigtermDrainsThenShutsTheContainerDownInReverseOrderAndExits0() async throws {
        try await NotesScenarios.sigtermDrainsThenShutsTheContainerDownInReverseOrderAndExits0(executable: "notes-server-vapor")
    }

    @Test func inDevelopmentAnEditOfTheManifestsAppliesToTheNextRequest() async throws {
        try await NotesScenarios.inDevelopmentAnEditOfTheManifestsAppliesToTheNextRequest(executable: "notes-server-vapor")
    }
}
