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
        var container: Container?
        var isResolved = false
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
    public var container: Container? {
        get { state.withLock { $0.container } }
        set { change("container") { $0.container = newValue } }
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

    /// The settings to resolve with; from now on they are fixed.
    func fix() -> (name: String?, container: Container?) {
        state.withLock { state in
            state.isResolved = true
            return (state.name, state.container)
        }
    }
}
