import Foundation
import Testing
@testable import Wiring

extension Notebook {
    /// A child container as a test makes one: the spellings, exactly.
    @Suite("Child containers")
    struct ChildContainerTests {
        @Test func aClientOverridesOneServiceForOneTest() throws {
            let container = try Notebook.container()
            let child = try container.child { overrides in
                overrides.override(NoteStore.self) { r in InMemoryNoteStore(log: try r.resolve()) }
                overrides.override(Clock.self, with: FixedClock(at: .zero))      // an instance
                overrides.override(NoteStore.self, name: "archive") { _ in EmptyStore() }
                overrides.share(DatabasePool.self)                                // reuse the parent's instance
            }
            #expect(try child.resolve(NoteStore.self).label == "memory")
            #expect(try child.resolve(NoteStore.self, name: "archive").label == "empty")
            #expect(try child.resolve(Clock.self).now == .zero)
            #expect(try child.resolve(DatabasePool.self) === (try container.resolve(DatabasePool.self)))
            // The parent is untouched.
            #expect(try container.resolve(NoteStore.self).label == "sql")
            #expect(try container.resolve(NoteStore.self, name: "archive").label == "sql")
            #expect(try container.resolve(Clock.self).now == .seconds(1_000))
        }

        /// A shared service that takes runtime arguments gets the caller's, synchronously and awaited.
        @Test func aSharedServiceGetsTheCallersRuntimeArguments() async throws {
            final class Greeting: Sendable {
                let text: String
                init(_ text: String) { self.text = text }
            }
            let registry = FactoryRegistry()
            registry.factory("greeting") { r in Greeting(try r.argument(0, as: String.self)) }
            registry.factory("slow-greeting") { r in
                await Task.yield()
                return Greeting(try r.argument(0, as: String.self) + "!")
            }
            let container = try TypedFactoryFormsTests.container("""
                services:
                  Greeting: { factory: greeting, scope: unique }
                  Slow: { factory: slow-greeting, scope: unique, implements: [] }
                """, registry)
            let child = try container.child {
                $0.share(Greeting.self)
                $0.share(key: "Slow")
            }
            let synchronous: (Container) throws -> Greeting = { try $0.resolve(Greeting.self, arguments: "hello") }
            #expect(try synchronous(child).text == "hello")
            #expect(try await child.resolve(Greeting.self, arguments: "hi").text == "hi")
            #expect(try await (child.resolve(key: "Slow", arguments: "hey") as? Greeting)?.text == "hey!")
        }

        @Test func parentAndChildResolveDifferentInstancesOfAnOverriddenService() throws {
            let container = try Notebook.container()
            let child = try container.child { $0.override(NoteStore.self) { _ in EmptyStore() } }
            let inChild = try child.resolve(NoteStore.self)
            let inParent = try container.resolve(NoteStore.self)
            #expect(inChild !== inParent)
            // Kept as the service's scope says: a singleton of the child.
            #expect(try child.resolve(NoteStore.self) === inChild)
        }

        @Test func servicesDependingOnTheOverrideSeeItInTheChildOnly() throws {
            let container = try Notebook.container()
            let child = try container.child { $0.override(NoteStore.self) { _ in EmptyStore() } }
            // By `!service`, through another service, and by `r.resolve` in code.
            #expect(try child.resolve(NoteEditor.self).store.label == "empty")
            #expect(try child.resolve(Reports.self).editor.store.label == "empty")
            #expect(try child.resolve(NoteLister.self).store.label == "empty")
            #expect(try container.resolve(NoteEditor.self).store.label == "sql")
            #expect(try container.resolve(Reports.self).editor.store.label == "sql")
            #expect(try container.resolve(NoteLister.self).store.label == "sql")
            // Through a type the service implements, its key, and a tag.
            #expect(try child.resolve((any NoteReading).self).label == "empty")
            #expect((try child.resolve(key: "NoteStore") as? NoteStore)?.label == "empty")
            #expect(try child.resolve(Health.self).checks.map(\.label) == ["empty"])
            #expect(try container.resolve(Health.self).checks.map(\.label) == ["sql"])
        }

        @Test func overridingByKeyAndAsynchronously() async throws {
            let container = try Notebook.container()
            let child = try container.child { overrides in
                overrides.override(key: "NoteStore") { _ in EmptyStore() }
                overrides.override(key: "Clock") { _ async in FixedClock(at: .seconds(5)) }
            }
            #expect(try await child.resolve(NoteStore.self).label == "empty")
            #expect(try await child.resolve(Clock.self).now == .seconds(5))
            #expect(try await child.resolve(NoteEditor.self).clock.now == .seconds(5))
        }

        @Test func aChildKeepsFreshSingletonsUnlessShared() throws {
            let container = try Notebook.container()
            let pool = try container.resolve(DatabasePool.self)
            let first = try container.child()
            let second = try container.child()
            let firstPool = try first.resolve(DatabasePool.self)
            #expect(firstPool !== pool)
            #expect(try second.resolve(DatabasePool.self) !== firstPool)
            #expect(try first.resolve(DatabasePool.self) === firstPool)
            let sharing = try container.child { $0.share(DatabasePool.self) }
            #expect(try sharing.resolve(DatabasePool.self) === pool)
            // What depends on it in the child gets the parent's too.
            #expect((try sharing.resolve(NoteStore.self) as? SQLNoteStore)?.pool === pool)
        }

        @Test func aChildOfAChildOverridesWhatItsParentResolves() throws {
            let container = try Notebook.container()
            let child = try container.child { $0.override(NoteStore.self) { _ in EmptyStore() } }
            let grandchild = try child.child { overrides in
                overrides.override(Clock.self, with: FixedClock(at: .seconds(2)))
            }
            let editor = try grandchild.resolve(NoteEditor.self)
            #expect(editor.store.label == "empty")
            #expect(editor.clock.now == .seconds(2))
            #expect(try child.resolve(NoteEditor.self).clock.now == .seconds(1_000))
            // The grandchild overrides its parent's override in turn.
            let again = try child.child { r in r.override(NoteStore.self) { r in InMemoryNoteStore(log: try r.resolve()) } }
            #expect(try again.resolve(NoteEditor.self).store.label == "memory")
            #expect(try child.resolve(NoteEditor.self).store.label == "empty")
        }

        @Test func addingAServiceTheManifestLacks() throws {
            final class Recorder: Sendable {}
            let container = try Notebook.container()
            let child = try container.child { $0.add(Recorder.self) { _ in Recorder() } }
            let recorder = try child.resolve(Recorder.self)
            #expect(try child.resolve(Recorder.self) === recorder)
            #expect(throws: ResolutionError.self) { try container.resolve(Recorder.self) }
            let unique = try container.child { $0.add(Recorder.self, scope: .unique) { _ in Recorder() } }
            #expect(try unique.resolve(Recorder.self) !== (try unique.resolve(Recorder.self)))
            // A child of the child sees the added service, and may override it in turn.
            let inherited = try child.child()
            #expect(try inherited.resolve(Recorder.self) !== recorder)
            let replacement = Recorder()
            let overriding = try child.child { $0.override(Recorder.self, with: replacement) }
            #expect(try overriding.resolve(Recorder.self) === replacement)
            #expect(try child.resolve(Recorder.self) === recorder)
        }

        @Test func propertyWrappersResolveFromTheChildInsideUsing() throws {
            struct Screen {
                @Injected var store: NoteStore
            }
            let container = try Notebook.container()
            let child = try container.child { $0.override(NoteStore.self) { _ in EmptyStore() } }
            Container.using(child) {
                #expect(Screen().store.label == "empty")
                #expect(Container.current === child)
            }
            Container.using(container) {
                #expect(Screen().store.label == "sql")
            }
        }

        @Test func scopesAndSeedingWorkOnAChild() async throws {
            let container = try Notebook.container()
            let child = try container.child { $0.override(NoteStore.self) { _ in EmptyStore() } }
            let seeded = RequestLog()
            let (first, second) = try await child.withScope { scope in
                let first = try scope.resolve(RequestLog.self)
                return (first, try scope.resolve(RequestLog.self))
            }
            #expect(first === second)
            let scope = child.makeScope()
            try scope.seed(seeded)
            #expect(try await scope.resolve(RequestLog.self) === seeded)
            #expect(try await scope.resolve(NoteEditor.self).store.label == "empty")
            try await scope.end()
        }

        @Test func resettingAChildDropsOnlyItsInstances() throws {
            let container = try Notebook.container()
            let child = try container.child()
            let parentPool = try container.resolve(DatabasePool.self)
            let childPool = try child.resolve(DatabasePool.self)
            child.reset()
            #expect(try child.resolve(DatabasePool.self) !== childPool)
            #expect(try container.resolve(DatabasePool.self) === parentPool)
        }
    }
}
