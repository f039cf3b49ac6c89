import Foundation
import Testing
import WiringTesting
@testable import Wiring
@testable import WiringExample

/// The example app's own code, in process, with the services a test replaces: the trait gives
/// each test a child of the app's container, and `NotesApp`'s property wrappers resolve from it.
@Suite(.container(ExampleApp.container))
struct ExampleAppContainerTests {
    static let noon = Date(timeIntervalSince1970: 1_700_000_000)

    @Test(.container { overrides in
        overrides.override(WiringExample.NoteStore.self) { _ in WiringExample.InMemoryNoteStore() }
        overrides.override((any WiringExample.Clock).self, with: WiringExample.FixedClock(now: ExampleAppContainerTests.noon))
        overrides.override((any Notifier).self) { _ in RecordingNotifier() }
    })
    func addingANoteSavesItThroughTheAuditedStore() async throws {
        // As the app does: its eager journal opens at start (in the test's child).
        try await Container.shared.start()
        let app = NotesApp()
        try app.add(title: "Hello", body: "from a test")
        let saved = try app.list()
        #expect(saved == [Note(title: "Hello", body: "from a test", created: Self.noon)])
        // The manifest's decorator still wraps the in-memory store.
        let store = try await Container.shared.resolve(WiringExample.NoteStore.self)
        #expect((store as? AuditedNoteStore)?.inner is WiringExample.InMemoryNoteStore)
    }

    @Test func anotherTestHasAContainerOfItsOwn() throws {
        let store = try Container.shared.resolve(WiringExample.NoteStore.self)
        #expect(store is AuditedNoteStore)
        #expect(try ExampleApp.container.resolve(WiringExample.NoteStore.self) !== store)
    }
}

/// The example app's container, built once.
enum ExampleApp {
    /// As the app runs with no context, its files in a folder of the tests'.
    static let container: Container = {
        do {
            let folder = try ExampleRun.temporaryFolder()
            return try Container(manifest: ExampleRun.repositoryRoot + "/config-examples/services.yaml", registry: NotesRegistry.makeRegistry(),
                                 contexts: .none, options: .init(environment: ["NOTES_DIR": folder]))
        } catch {
            fatalError("\(error)")
        }
    }()
}
