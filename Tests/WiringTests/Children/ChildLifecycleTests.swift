import Foundation
import Testing
@testable import Wiring

extension Notebook {
    /// A child's start, shutdown, decorators and life beside its parent.
    @Suite("Child container lifecycle")
    struct ChildLifecycleTests {
        @Test func shuttingAChildDownClosesOnlyItsInstances() async throws {
            let journal = Journal()
            let container = try Notebook.container(journal)
            let parentStore = try container.resolveSynchronously(NoteStore.self)
            let child = try container.child()
            _ = try child.resolveSynchronously(NoteEditor.self)
            try await child.shutdown()
            #expect(journal.all == ["close editor", "close sql store", "close pool"])
            #expect(child.isShutDown)
            #expect(throws: ResolutionError.self) { try child.resolveSynchronously(NoteEditor.self) }
            // The parent keeps its instances, and closes them when it shuts down.
            #expect(try container.resolveSynchronously(NoteStore.self) === parentStore)
            try await container.shutdown()
            #expect(journal.all.suffix(2) == ["close sql store", "close pool"])
        }

        /// A parent shut down while a child is being made: the child is refused, never left
        /// running beside a parent that no longer shuts it down.
        @Test func aParentShutDownWhileAChildIsMadeLeavesNoChildRunning() async throws {
            let container = try Notebook.container(Journal())
            // Made on a thread of its own: it waits for a task, which needs the cooperative pool.
            let outcome = await TestSupport.onThreadOfItsOwn { () -> Result<Container, any Error> in
                Result {
                    try container.child { _ in
                        let done = DispatchSemaphore(value: 0)
                        Task {
                            try await container.shutdown()
                            done.signal()
                        }
                        done.wait()
                    }
                }
            }
            guard case .failure(let error) = outcome else {
                Issue.record("the child was made")
                return
            }
            #expect({ if case .shutDown? = (error as? ResolutionError)?.kind { true } else { false } }())
        }

        @Test func shuttingTheParentDownShutsItsChildrenDownFirst() async throws {
            let journal = Journal()
            let container = try Notebook.container(journal)
            _ = try container.resolveSynchronously(DatabasePool.self)
            let child = try container.child { $0.override(Clock.self, with: FixedClock(at: .zero)) }
            let grandchild = try child.child()
            _ = try child.resolveSynchronously(NoteEditor.self)
            _ = try grandchild.resolveSynchronously(DatabasePool.self)
            try await container.shutdown()
            // The grandchild's pool, then the child's editor, store and pool, then the parent's pool.
            #expect(journal.all == ["close pool", "close editor", "close sql store", "close pool", "close pool"])
            #expect(child.isShutDown && grandchild.isShutDown)
            let error = #expect(throws: ResolutionError.self) { try child.resolveSynchronously(NoteEditor.self) }
            #expect(error.map { if case .shutDown = $0.kind { true } else { false } } == true)
        }

        @Test func aChildStartsItsOwnEagerServicesAndSharesTheParentsAsyncOnes() async throws {
            let registry = FactoryRegistry()
            registry.factory("pool") { _ in try await Pool.connect(delay: .milliseconds(1)) }
            registry.factory("store") { r in SQLStore(pool: try await r.resolve(Pool.self)) }
            let container = try AsyncFixture.container("""
                services:
                  Pool: { factory: pool, scope: singleton, eager: true }
                  SQLStore: { factory: store, scope: singleton, eager: true }
                """, registry: registry)
            try await container.start()
            let pool = try container.resolveSynchronously(Pool.self)
            let own = try container.child()
            try await own.start()
            #expect(try own.resolveSynchronously(Pool.self) !== pool)
            #expect(try own.resolveSynchronously(SQLStore.self).pool === (try own.resolveSynchronously(Pool.self)))
            // A shared async service the parent built resolves synchronously in the child.
            let sharing = try container.child { $0.share(Pool.self) }
            #expect(try sharing.resolveSynchronously(Pool.self) === pool)
            try await sharing.start()
            #expect(try sharing.resolveSynchronously(SQLStore.self).pool === pool)
        }

        @Test func decoratorsWrapAnOverrideUnlessItSaysOtherwise() throws {
            final class Traced: NoteStore, @unchecked Sendable {
                let inner: NoteStore
                init(inner: NoteStore) { self.inner = inner }
                override var label: String { "traced(\(inner.label))" }
            }
            let registry = Notebook.registry()
            registry.factory("traced") { r in Traced(inner: try r.decorated(NoteStore.self)) }
            let container = try Notebook.container(manifest: Notebook.manifest + "\n  TracedNoteStore: { factory: traced, decorates: NoteStore }",
                                                   registry: registry)
            #expect(try container.resolveSynchronously(NoteStore.self).label == "traced(sql)")
            let decorated = try container.child { $0.override(NoteStore.self) { _ in EmptyStore() } }
            #expect(try decorated.resolve(NoteStore.self).label == "traced(empty)")
            let bare = try container.child { $0.override(NoteStore.self, decorated: false) { _ in EmptyStore() } }
            #expect(try bare.resolve(NoteStore.self).label == "empty")
            #expect(try bare.resolve(NoteEditor.self).store.label == "empty")
        }

        @Test func anOverrideReadsTheServicesArguments() throws {
            final class Named: Sendable {
                let name: String
                init(name: String) { self.name = name }
            }
            let registry = FactoryRegistry()
            registry.factory("named") { r in Named(name: try r.arg("name")) }
            let container = try AsyncFixture.container("services:\n  Named: { factory: named, args: { name: production } }", registry: registry)
            let child = try container.child { $0.override(Named.self) { r in Named(name: "test " + (try r.arg("name") as String)) } }
            #expect(try child.resolveSynchronously(Named.self).name == "test production")
        }

        @Test func childrenMadeAndDroppedLeaveNothingBehind() throws {
            let container = try Notebook.container()
            _ = try container.resolveSynchronously(NoteEditor.self)
            weak var lastChild: Container?
            weak var lastStore: NoteStore?
            for _ in 0..<1_000 {
                let child = try container.child { $0.override(NoteStore.self) { _ in EmptyStore() } }
                let store = try child.resolveSynchronously(NoteEditor.self).store
                lastChild = child
                lastStore = store
            }
            #expect(lastChild == nil)
            #expect(lastStore == nil)
            #expect(container.life.children.withLock { $0.alive.isEmpty })
        }

        @Test func manyChildrenMadeUsedAndShutDownFromManyTasksAtOnce() async throws {
            let container = try Notebook.container()
            let pool = try container.resolveSynchronously(DatabasePool.self)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for task in 0..<8 {
                    group.addTask {
                        for round in 0..<50 {
                            let child = try container.child { overrides in
                                overrides.override(Clock.self, with: FixedClock(at: .seconds(task)))
                                overrides.share(DatabasePool.self)
                            }
                            // Two threads resolve the same child's singleton: one instance.
                            async let first = child.resolve(NoteEditor.self)
                            let second = try child.resolveSynchronously(NoteEditor.self)
                            let editor = try await first
                            #expect(editor === second)
                            #expect(editor.clock.now == .seconds(task))
                            #expect((editor.store as? SQLNoteStore)?.pool === pool)
                            try await child.withScope { scope in _ = try await scope.resolve(RequestLog.self) }
                            if round.isMultiple(of: 2) { try await child.shutdown() }
                        }
                    }
                }
                try await group.waitForAll()
            }
            #expect(try container.resolveSynchronously(Clock.self).now == .seconds(1_000))
        }
    }
}
