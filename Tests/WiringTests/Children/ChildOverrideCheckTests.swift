import Foundation
import Testing
@testable import Wiring

extension Notebook {
    /// What `child` reports about overrides that cannot be right, each at its line of code.
    @Suite("Child container checks")
    struct ChildOverrideCheckTests {
        /// The headlines of what making a child threw, with this file's path shortened.
        func problems(_ configure: (Container.Overrides) throws -> Void) throws -> [String] {
            let container = try Notebook.container()
            do {
                _ = try container.child(configure)
                return []
            } catch let error as ManifestError {
                return error.diagnostics.map { $0.headline.replacingOccurrences(of: "WiringTests/", with: "") }
            }
        }

        @Test func overridingAServiceTheManifestDoesNotDeclareSuggestsOne() throws {
            final class NoteStor: Sendable {}
            let line = #line + 1
            let found = try problems { $0.override(NoteStor.self) { _ in NoteStor() } }
            // The column is the call's: where its argument list opens, as `#column` gives it.
            #expect(found == [
                "ChildOverrideCheckTests.swift:\(line):51: error: NoteStor is not declared in the manifest; did you mean 'NoteStore'?; overrides.add adds a service",
            ])
            let byKey = try problems { $0.override(key: "Clok") { _ in Clock() } }
            #expect(byKey.first?.contains("Clok is not declared in the manifest; did you mean 'Clock'?") == true)
        }

        @Test func anUnknownNameListsTheServicesNames() throws {
            let found = try problems { $0.override(NoteStore.self, name: "archiv") { _ in EmptyStore() } }
            #expect(found.count == 1)
            #expect(found.first?.hasSuffix("error: service NoteStore has no variant named 'archiv'; did you mean 'archive'? (its names: archive)") == true)
        }

        @Test func sharingAServiceThatDependsOnAnOverrideNamesBoth() throws {
            let overrideLine = #line + 2
            let found = try problems { overrides in
                overrides.override(NoteStore.self) { _ in EmptyStore() }
                overrides.share(NoteEditor.self)
            }
            #expect(found == [
                "ChildOverrideCheckTests.swift:\(overrideLine + 1):1: error: cannot share NoteEditor: it depends on NoteStore, which this child overrides (NoteEditor → NoteStore), and the parent's instance holds the parent's; override NoteEditor too, or do not share it",
            ])
            // Through another service, and through a tag.
            let through = try problems { overrides in
                overrides.override(NoteStore.self) { _ in EmptyStore() }
                overrides.share(Reports.self)
                overrides.share(Health.self)
            }
            #expect(through.count == 2)
            #expect(through.first?.contains("(Reports → NoteEditor → NoteStore)") == true)
            #expect(through.last?.contains("cannot share Health: it depends on NoteStore") == true)
            // A shared service that does not reach the override is fine.
            #expect(try problems { overrides in
                overrides.override(Clock.self, with: Clock())
                overrides.share(DatabasePool.self)
                overrides.share(NoteStore.self)
            }.isEmpty)
        }

        @Test func theSharingErrorNotesWhereTheOverrideIs() throws {
            let container = try Notebook.container()
            // Not inside `#expect`: a macro's expansion gives `#line` its own line.
            var thrown: ManifestError?
            let line = #line + 3
            do {
                _ = try container.child { overrides in
                    overrides.override(NoteStore.self) { _ in EmptyStore() }
                    overrides.share(NoteEditor.self)
                }
            } catch let error as ManifestError {
                thrown = error
            }
            let note = try #require(thrown?.diagnostics.first?.notes.first)
            #expect(note.message == "NoteStore overridden here")
            #expect(note.location?.line == line)
        }

        @Test func changingAServiceTwiceAddingADeclaredOneAndAnUndeclaredScopeAreErrors() throws {
            final class Recorder: Sendable {}
            let found = try problems { overrides in
                overrides.override(NoteStore.self) { _ in EmptyStore() }
                overrides.share((any NoteReading).self)
                overrides.add(Clock.self) { _ in Clock() }
                overrides.add(Recorder.self, scope: Scope("sesion")) { _ in Recorder() }
            }
            #expect(found.count == 3)
            #expect(found[0].hasSuffix("error: NoteStore is changed twice in this child"))
            #expect(found[1].hasSuffix("error: Clock is declared already (service Clock); override it instead"))
            #expect(found[2].hasSuffix("error: scope 'sesion' is not declared in the manifest"))
        }

        @Test func aScopedServiceCannotBeShared() throws {
            let found = try problems { $0.share(RequestLog.self) }
            #expect(found.count == 1)
            #expect(found.first?.hasSuffix("error: cannot share RequestLog: it is scoped, and each scope has its own instance; override it, or resolve it from the child's scopes") == true)
        }

        @Test func everyProblemIsReportedAtOnce() throws {
            let found = try problems { overrides in
                overrides.override(key: "Nothing") { _ in 1 }
                overrides.share(key: "Nada")
            }
            #expect(found.count == 2)
        }

        @Test func aShutDownContainerMakesNoChild() async throws {
            let container = try Notebook.container()
            try await container.shutdown()
            #expect(throws: ResolutionError.self) { try container.child() }
        }
    }
}
