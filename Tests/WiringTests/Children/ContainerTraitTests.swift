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

/// The trait around a test that throws: the child is shut down all the same, and a hook of it
/// that fails is an issue of the test too.
@Suite("Container trait, failing tests")
struct ContainerTraitFailureTests {
    final class Resource: Sendable {}
    struct TestFailed: Error {}
    struct HookFailed: Error {}
    final class Seen: Sendable {
        let comments = Locked<[String]>([])
    }

    /// With no container named, none current and none bootstrapped, the trait does not run the
    /// test: it throws, saying what to do.
    @Test func withNoContainerTheTraitSaysWhatToDo() async throws {
        let trait = ContainerTrait.container { _ in }
        let test = try #require(Test.current)
        let ran = Locked(false)
        await #expect {
            try await trait.provideScope(for: test, testCase: Test.Case.current) { ran.withLock { $0 = true } }
        } throws: { error in
            "\(error)" == "no container to make the test's child of: name one, .container(base) { … }, or bootstrap one"
        }
        #expect(!ran.withLock { $0 })
    }

    @Test func aThrowingTestsFailingHookIsRecordedAgainstTheTest() async throws {
        let registry = FactoryRegistry()
        registry.factory("resource") { _ in Resource() }.onShutdown { _ in throw HookFailed() }
        let base = try TypedFactoryFormsTests.container("services:\n  Resource: { factory: resource, scope: singleton }\n", registry)
        let trait = ContainerTrait.container(base)
        let seen = Seen()
        let test = try #require(Test.current)
        try await withKnownIssue {
            try await trait.provideScope(for: test, testCase: Test.Case.current) {
                _ = try Container.current?.resolve(Resource.self)
                throw TestFailed()
            }
        } matching: { issue in
            seen.comments.withLock { $0.append(issue.comments.map(\.rawValue).joined() + "|" + "\(issue.error.map { "\($0)" } ?? "")") }
            return true
        }
        let comments = seen.comments.withLock { $0 }
        #expect(comments.contains { $0.contains("shutting the test's child container down after the test threw") && $0.contains("HookFailed") })
        #expect(comments.contains { $0.contains("TestFailed") })
    }
}
