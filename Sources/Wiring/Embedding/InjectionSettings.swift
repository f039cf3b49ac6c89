/// What a lazy wrapper resolves from, settable until its first read: the projected value of
/// ``LazyInjected`` and ``WeakLazyInjected``.
///
/// ```swift
/// final class Report {
///     @LazyInjected var store: NoteStore
///     init(archived: Bool) { if archived { $store.name = "archive" } }
/// }
/// ```
///
/// Setting `name` or `container` after the first read would change nothing, since the value is
/// kept: it stops the program with a message saying so, as a failed injection does.
public final class InjectionSettings: @unchecked Sendable {
    private struct State {
        var name: String?
        /// Held weakly: a kept instance's wrapper would otherwise keep the container that keeps
        /// the instance, and neither would ever be freed (nor a child leave its parent's list).
        weak var container: Container?
        /// Whether a container was chosen: one released since cannot be resolved from.
        var choseContainer: Bool
        var isResolved = false

        init(name: String?, container: Container?) {
            self.name = name
            self.container = container
            choseContainer = container != nil
        }
    }

    private let state: Locked<State>

    @usableFromInline
    init(name: String?, container: Container?) {
        state = Locked(State(name: name, container: container))
    }

    /// The named variant to resolve.
    public var name: String? {
        get { state.withLock { $0.name } }
        set { change("name") { $0.name = newValue } }
    }

    /// The container to resolve from. Unless set, the container current when the wrapper was
    /// made (the one building its owner, else the task's, else the shared one), so that a read
    /// long after, from another task, resolves where the owner was built; `nil` when there was
    /// none then, and the first read resolves from ``Container/current``.
    ///
    /// Held weakly: a wrapper does not keep its container alive. A first read after the
    /// container was released stops the program with a message saying so, as a failed
    /// injection does.
    public var container: Container? {
        get { state.withLock { $0.container } }
        set {
            change("container") { state in
                state.container = newValue
                state.choseContainer = newValue != nil
            }
        }
    }

    /// Whether the wrapper has resolved its value.
    public var isResolved: Bool { state.withLock { $0.isResolved } }

    private func change(_ setting: String, _ update: (inout State) -> Void) {
        let refused = state.withLock { state -> Bool in
            guard !state.isResolved else { return true }
            update(&state)
            return false
        }
        if refused {
            preconditionFailure("Wiring: '\(setting)' of a lazily injected property was set after its first read; set it before the property is read (in init)")
        }
    }

    /// The settings to resolve with; from now on they are fixed. `released` when the container
    /// chosen has been freed since.
    func fix() -> (name: String?, container: Container?, released: Bool) {
        state.withLock { state in
            state.isResolved = true
            return (state.name, state.container, state.choseContainer && state.container == nil)
        }
    }
}
