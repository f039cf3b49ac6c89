/// The container running a factory on this thread, if any, and the resolution it runs in:
/// factories run synchronously on the resolving thread, so thread-local pointers say which
/// container the property wrappers of the instance being built must use, and which resolution
/// their resolves join (its `graph` instances, its path for cycles). Cheaper than binding a
/// task-local for every build. An async factory, which may move between threads, is bound to
/// its task instead (``TaskBinding``), in the one task-local `Container.using` binds, so that a
/// wrapper made outside any resolution reads one task-local: with a task-local of its own, an
/// `@Injected` made outside a resolution took 270 ns against 207 before async factories were
/// bound (`WiringBenchmarks resolution --only @`).
enum BuildingContainer {
    /// What a task binds: the container ``Container/using(_:operation:)-swift.type.method``
    /// makes current, or the context of the async factory the task runs (whose container is then
    /// current).
    struct TaskBinding: @unchecked Sendable {
        let container: Container
        /// The resolution of the async factory running, which its wrappers join; frozen, so
        /// that resolving through it from any thread is safe.
        let state: ResolutionState?
        /// The task that runs that factory, by its hash: tasks it starts inherit the binding
        /// but not this, and only in this task does the factory wait for what runs here (see
        /// ``waitingInThisTask``). A hash, not the `UnsafeCurrentTask`, whose layout is
        /// resilient: holding one made every copy of a binding go through its type's witnesses
        /// (an `@Injected` made outside a resolution, which reads the binding, went from 131 to
        /// 165 ns).
        var task: Int? = nil
    }

    @TaskLocal static var task: TaskBinding?

    /// The container building on this thread and the resolution it builds in, if any.
    @inline(__always)
    static var building: (container: Container, state: ResolutionState)? {
        ThreadState.withCurrent { thread in
            guard let container = thread.building, let state = thread.buildingState else { return nil }
            return (Unmanaged<Container>.fromOpaque(container).takeUnretainedValue(),
                    Unmanaged<ResolutionState>.fromOpaque(state).takeUnretainedValue())
        }
    }

    /// Runs `body` with `container` as the building container of this thread, building in the
    /// resolution `state` (both unretained: the caller holds them while `body` runs).
    static func with<R, Failure: Error>(
        _ container: Container, state: ResolutionState, _ body: () throws(Failure) -> R
    ) throws(Failure) -> R {
        let previous = ThreadState.withCurrent { $0.startBuilding(container, in: state) }
        if previous.container == Unmanaged.passUnretained(container).toOpaque(),
           previous.state == Unmanaged.passUnretained(state).toOpaque() {
            return try body()
        }
        defer { ThreadState.withCurrent { $0.restoreBuilding(previous) } }
        return try body()
    }

    /// Runs the async factory call `body` with `context` bound to the task: the property
    /// wrappers of what it builds resolve from its container, in its resolution.
    static func with<R>(
        asyncContext context: FactoryContext, isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> R
    ) async throws -> R {
        let binding = TaskBinding(container: context.container, state: context.state, task: withUnsafeCurrentTask { $0?.hashValue })
        return try await $task.withValue(binding, operation: body, isolation: isolation)
    }

    /// The resolution of the async factory that runs in this task below the caller and waits
    /// for it to return; `nil` when there is none. A resolution started here through a
    /// container, not the factory's context, has a path that cannot show a cycle through that
    /// factory: a wait for its build, or a build of what its path builds, is a cycle all the
    /// same (see ``ResolutionState/enclosing``). Read when a top-level async resolution enters
    /// its first build or wait, not on the way to an instance already kept.
    static var waitingInThisTask: ResolutionState? {
        guard let binding = task, let state = binding.state, let owner = binding.task,
              withUnsafeCurrentTask(body: { $0?.hashValue }) == owner else { return nil }
        return state
    }
}
