public import Testing
public import Wiring

/// A Swift Testing trait that runs a test, or each test of a suite, with a child container of
/// its own as the task's current container: the property wrappers and `Container.current`
/// resolve from it, and its overrides are the test's alone.
///
/// ```swift
/// @Test(.container { $0.override(NoteStore.self) { _ in InMemoryNoteStore() } })
/// func savingANoteKeepsIt() throws {
///     let editor = NoteEditor()              // its @Injected store is the in-memory one
///     try editor.save("hello")
/// }
///
/// enum TestApp {                           // outside the suite: its attribute cannot read the suite's own statics
///     static let base = try! Container(manifest: "services.yaml", registry: .notes, contexts: .explicit("test"))
/// }
///
/// @Suite(.container(TestApp.base))          // each test: a child of the test context's container
/// struct NotesTests { … }
/// ```
///
/// The child is a child of the container the trait names, or of `Container.current` (the one an
/// enclosing suite's trait set, or the bootstrapped one). It is made before the test runs (a
/// mistake in the overrides fails the test at the override's line) and shut down after it,
/// whatever the test did: a shutdown hook that fails is an issue of the test. Traits nest: a
/// test's `.container { … }` inside a suite's makes a child of the suite's child.
public struct ContainerTrait: TestTrait, SuiteTrait, TestScoping {
    let base: @Sendable () throws -> Container?
    let overrides: @Sendable (Container.Overrides) throws -> Void

    /// Each test of a suite gets a child of its own.
    public var isRecursive: Bool { true }

    /// Runs `function` with a new child container as the task's current one, then shuts the
    /// child down.
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        guard let parent = try base() else { throw NoContainer() }
        let child = try parent.child(overrides)
        do {
            try await Container.using(child) { try await function() }
        } catch {
            // The test's error is thrown; a hook that fails too is an issue of the test as well.
            do {
                try await child.shutdown()
            } catch let failure {
                Issue.record(failure, "shutting the test's child container down after the test threw")
            }
            throw error
        }
        try await child.shutdown()
    }

    /// What the trait throws when there is no container to make a child of.
    struct NoContainer: Error, CustomStringConvertible {
        var description: String {
            "no container to make the test's child of: name one, .container(base) { … }, or bootstrap one"
        }
    }
}

extension Trait where Self == ContainerTrait {
    /// Runs the test (each test of a suite) with a child of the current container, with the
    /// overrides `overrides` writes.
    public static func container(_ overrides: @escaping @Sendable (Container.Overrides) throws -> Void) -> Self {
        ContainerTrait(base: { Container.current }, overrides: overrides)
    }

    /// Runs the test (each test of a suite) with a child of `base`, with the overrides
    /// `overrides` writes (none by default). `base` is evaluated for each test: a static
    /// container is read once, a container built in the expression is built for each.
    public static func container(
        _ base: @autoclosure @escaping @Sendable () throws -> Container,
        _ overrides: @escaping @Sendable (Container.Overrides) throws -> Void = { _ in }
    ) -> Self {
        ContainerTrait(base: { try base() }, overrides: overrides)
    }
}
