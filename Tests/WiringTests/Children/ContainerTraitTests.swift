import Foundation
import Testing
import WiringTesting
@testable import Wiring

extension Notebook {
    /// The container the trait tests make children of: built once, as a test suite would.
    static let suiteBase: Container = {
        do { return try Notebook.container() } catch { fatalError("\(error)") }
    }()

    /// Pools each test of the suite resolved, by their ids: a test that saw another's child
    /// would find its pool here.
    static let poolsSeen = Locked<Set<UUID>>([])

    /// The Swift Testing trait: each test with a child of its own, as the task's container.
    @Suite(.container(Notebook.suiteBase))
    struct ContainerTraitTests {
        struct Screen {
            @Injected var store: NoteStore
            @Injected var editor: NoteEditor
        }

        @Test(.container { $0.override(NoteStore.self) { _ in EmptyStore() } })
        func aTestsOverrideReachesThePropertyWrappers() throws {
            #expect(Screen().store.label == "empty")
            #expect(Screen().editor.store.label == "empty")
            // A child of the suite's child of the base: the base is untouched.
            let current = try #require(Container.current)
            #expect(current.lineage?.parent.lineage?.parent === Notebook.suiteBase)
            #expect(try Notebook.suiteBase.resolve(NoteStore.self).label == "sql")
            try remember(current.resolve(DatabasePool.self))
        }

        @Test func eachTestHasAChildOfItsOwn() throws {
            let current = try #require(Container.current)
            #expect(current.lineage?.parent === Notebook.suiteBase)
            #expect(Screen().store.label == "sql")
            try remember(current.resolve(DatabasePool.self))
        }

        @Test(arguments: [1, 2]) func eachCaseOfAParameterizedTestToo(_ round: Int) throws {
            try remember(#require(Container.current).resolve(DatabasePool.self))
        }

        /// Records the pool; fails when another test's child built it.
        func remember(_ pool: DatabasePool) throws {
            let isNew = Notebook.poolsSeen.withLock { $0.insert(pool.id).inserted }
            #expect(isNew)
            #expect(pool !== (try Notebook.suiteBase.resolve(DatabasePool.self)))
        }
    }
}
