/// What `FactoryRegistration.onShutdown` registered for a factory's instances.
@usableFromInline
package enum ShutdownHook: Sendable {
    /// A synchronous hook: it runs in place, in the task that shuts down, without a timeout.
    case immediate(@Sendable (Any) throws -> Void)
    /// An async hook: it runs in a task of its own, cancelled and reported when it overruns
    /// the service's shutdown timeout. The task and the timer cost about 4 µs per hook: the
    /// notes server example's request scope (a scope, NoteQueries and its three dependencies,
    /// the end) takes 9.1 µs with its unit of work's hook async and 5.2 µs with it synchronous
    /// (release build, 2-core Linux; `NotesBenchmark --in-process`), which is why
    /// synchronous hooks skip them.
    case timed(@Sendable (Any) async throws -> Void)

    /// Whether it is an async hook.
    var isTimed: Bool {
        if case .timed = self { return true }
        return false
    }
}
