import Foundation
import NotesServerTesting
import Testing

/// The scenarios every notes server passes (NotesCore's NotesServerTesting), against the
/// Hummingbird server over loopback.
@Suite("NotesServer over loopback")
struct NotesServerTests {
    @Test func everyRouteAnswers() async throws { try await NotesScenarios.everyRouteAnswers(TestServer.self) }
    @Test func concurrentRequestsGetTheirOwnScopedInstancesAndShareTheSingleton() async throws { try await NotesScenarios.concurrentRequestsGetTheirOwnScopedInstancesAndShareTheSingleton(TestServer.self) }
    @Test func aStreamedExportKeepsTheRequestScopeOpenUntilItsLastLine() async throws { try await NotesScenarios.aStreamedExportKeepsTheRequestScopeOpenUntilItsLastLine(TestServer.self) }
    @Test func theTestContextSwapsTheStore() async throws { try await NotesScenarios.theTestContextSwapsTheStore(TestServer.self) }
    @Test func gracefulShutdownLetsARequestInFlightFinishBeforeTheStoreCloses() async throws { try await NotesScenarios.gracefulShutdownLetsARequestInFlightFinishBeforeTheStoreCloses(TestServer.self) }
    @Test func aRequestLogThatIsNotScopedStopsStartUp() async throws { try await NotesScenarios.aRequestLogThatIsNotScopedStopsStartUp(TestServer.self) }
    @Test func aMisspeltLevelOrABadPortStopsStartUpAtItsLine() throws { try NotesScenarios.aMisspeltLevelOrABadPortStopsStartUpAtItsLine(TestServer.self) }
    @Test func gracefulShutdownClosesTheStoreExactlyOnce() async throws { try await NotesScenarios.gracefulShutdownClosesTheStoreExactlyOnce(TestServer.self) }
}
