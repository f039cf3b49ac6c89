/// Resolving with `await`: async factories, and waits that suspend instead of blocking.
///
/// An async resolution holds frozen states (see ``ResolutionState``): one per level of the
/// path, never changed, so that an async factory may resolve from concurrent child tasks. A
/// service whose factory and decorators are all synchronous is built by the synchronous engine,
/// in a state forked from the frozen one.
extension Container {
    /// Resolves the service declared for `T`, awaiting its factory (and its dependencies') when
    /// they are async. Resolves of kept instances cost the same as the synchronous form, plus
    /// the call.
    ///
    /// ```swift
    /// let store = try await container.resolve(SQLStore.self)
    /// let replica: UserStore = try await container.resolve(name: "replica")
    /// ```
    ///
    /// - Throws: ``ResolutionError``, or `CancellationError` when the task is cancelled while
    ///   it waits for an instance another task is building (the build goes on for the others).
    @inlinable
    public func resolve<T>(_ type: T.Type = T.self, name: String? = nil, arguments: any Sendable...) async throws -> T {
        if name == nil, arguments.isEmpty, var kept = keptInstance(type), let typed = Self.cast(&kept, to: T.self) { return typed }
        var instance = try await resolveAsync(type, name: name, arguments: Arguments(arguments), scope: nil)
        guard let typed = Self.cast(&instance, to: T.self) else { throw typeMismatch(instance, expected: type, name: name) }
        return typed
    }

    /// Resolves a service by its key, as written in the manifest, awaiting it if needed.
    public func resolve(key: String, name: String? = nil, arguments: any Sendable...) async throws -> Any {
        try await withTopState(scope: nil) { top in try await resolveAsync(key: key, name: name, arguments: Arguments(arguments), from: top) }
    }

    /// Runs `body` with the first state of a top-level async resolution from `scope`, then
    /// recycles it (see ``ResolutionState/recycleTop(_:container:)``): so that a factory that
    /// keeps its context keeps this container too. `resolveAsync(_:name:arguments:scope:)`
    /// does the same in line.
    func withTopState<R>(scope: ContainerScope?, _ body: (ResolutionState) async throws -> R) async throws -> R {
        var top: ResolutionState? = ResolutionState.top(scope: scope)
        defer { ResolutionState.recycleTop(&top, container: self) }
        return try await body(top!)
    }

    /// Resolves the service declared for `T`, awaiting it if needed, or returns `nil` when none
    /// is declared.
    public func optional<T>(_ type: T.Type = T.self, name: String? = nil) async throws -> T? {
        guard isDeclared(type) else { return nil }
        return try await resolve(type, name: name)
    }

    // MARK: - The async engine

    /// A top-level async resolve of `type`, from the container or from `scope`.
    @usableFromInline
    func resolveAsync(_ type: Any.Type, name: String?, arguments: Arguments, scope: ContainerScope?) async throws -> Any {
        let registration = try registration(for: type, name: name, state: nil).takeUnretainedValue()
        try checkOpen(registration)
        guard registration.isAsync else {
            // Nothing to await: the synchronous engine, in a state of this thread's.
            let state = ResolutionState.acquire()
            state.scope = scope
            defer { ResolutionState.recycle(state, container: self) }
            return try resolveInstance(type, of: registration, name: name, arguments: arguments, state: state)
        }
        var root: ResolutionState? = ResolutionState.top(scope: scope)
        defer { ResolutionState.recycleTop(&root, container: self) }
        guard name == nil, registration.isCachedByType else {
            return try await instanceAsync(of: registration, arguments: arguments, from: root!)
        }
        let id = ObjectIdentifier(type)
        var generation = 0
        var kept: InstanceBox?
        typeCache.read { cache in
            kept = cache.pointee.instances[id]
            generation = cache.pointee.generation
        }
        if let kept { return kept.value }
        let built = try await instanceAsync(of: registration, arguments: arguments, from: root!)
        cacheByType(built, as: id, of: registration, generation: generation)
        return built
    }

    /// A dependency of an async factory (or any resolve through a context with `await`).
    @usableFromInline
    func resolveAsync(_ type: Any.Type, name: String?, arguments: Arguments, from state: ResolutionState) async throws -> Any {
        try checkOpen(kept: state)
        let registration = try registration(for: type, name: name, state: state).takeUnretainedValue()
        return try await dependencyAsync(registration, arguments: arguments, from: state)
    }

    func resolveAsync(key: String, name: String?, arguments: Arguments, from state: ResolutionState) async throws -> Any {
        try checkOpen(kept: state)
        guard let target = target(key: key) else { throw unknownService(key, state: state) }
        let registration = try registration(in: target, name: name, asked: key, state: state)
        if state.path.isEmpty { try checkOpen(registration) }
        return try await dependencyAsync(registration, arguments: arguments, from: state)
    }

    /// The instance of `registration`, a dependency awaited from the resolution in `state`:
    /// resolved by type or key, or the service a `!service` argument refers to.
    ///
    /// A synchronous service (its factory and decorators) is built here without awaiting, in
    /// a state forked from `state`'s frozen one: no async frame below this one. Its callers
    /// check a state kept past its resolution first (``checkOpen(kept:)``), before they look
    /// anything up, as a scope does.
    @inline(__always)
    func dependencyAsync(_ registration: Registration, arguments: Arguments, from state: ResolutionState) async throws -> Any {
        if edgeRecorder != nil { recordEdge(to: registration, state: state) }
        guard registration.isAsync else { return try synchronousInstance(of: registration, arguments: arguments, from: frozen(state)) }
        return try await instanceAsync(of: registration, arguments: arguments, from: frozen(state))
    }

    /// ``dependencyAsync(_:arguments:from:)``'s instance when it needs no `await`: a synchronous
    /// service, or an async one already built and kept. `nil` for an async service to build,
    /// and while edges are recorded (the async path records them).
    func dependencyWithoutAwaiting(_ registration: Registration, from state: ResolutionState) throws(ResolutionError) -> Any? {
        guard edgeRecorder == nil else { return nil }
        try checkOpen(kept: state)
        guard registration.isAsync else { return try synchronousInstance(of: registration, arguments: .none, from: frozen(state)) }
        return try currentInstance(of: registration, from: state)
    }

    /// `state` if it is frozen; else a frozen copy, for a synchronous factory's context used
    /// with `await` while its resolution builds on this thread or once it is over; else (used
    /// from another thread while its resolution is under way) the first state of a new
    /// resolution in its scope, as ``continuing(_:_:)`` does.
    private func frozen(_ state: ResolutionState) -> ResolutionState {
        if state.isFrozen { return state }
        return ResolutionState(frozenFrom: state.isBuildingHere || state.isKeptPastItsResolution ? state : nil, adding: nil, scope: state.scope)
    }

    /// The instance of `registration` in its scope, resolved from the frozen state `parent`.
    func instanceAsync(of registration: Registration, arguments: Arguments, from parent: ResolutionState) async throws -> Any {
        guard registration.isAsync else { return try synchronousInstance(of: registration, arguments: arguments, from: parent) }
        var hooks: [KeptInstances.Hook] = []
        switch try keptInstance(of: registration, state: parent) {
        case .built(let instance): return instance
        case .build(let place): return try await buildKept(registration, in: place, arguments: arguments, from: parent)
        case .notKept: break
        }
        guard case .graph = registration.keeping else {
            return try await produce(registration, arguments: arguments, at: try enter(registration, from: parent), hooks: &hooks)
        }
        let id = ObjectIdentifier(registration)
        if let shared = parent.sharedGraph, let instance = shared.withLock({ $0[id] }) { return instance }
        let built = try await produce(registration, arguments: arguments, at: try enter(registration, from: parent), hooks: &hooks)
        // Branches of one factory that built the same instance at once keep the first.
        return parent.makeSharedGraph().withLock { graph in
            if let first = graph[id] { return first }
            graph[id] = built
            return built
        }
    }

    /// The instance of the synchronous `registration`, built by the synchronous engine in a
    /// state forked from the frozen `parent`.
    private func synchronousInstance(of registration: Registration, arguments: Arguments, from parent: ResolutionState) throws(ResolutionError) -> Any {
        // Already built and kept: no state to fork (a fork is about 700 instructions).
        if let instance = try currentInstance(of: registration, from: parent) { return instance }
        return try ResolutionState.withFork(of: parent, container: self) { fork throws(ResolutionError) in
            try instance(of: registration, arguments: arguments, in: fork)
        }
    }

    /// The instance `registration` keeps for a resolution from `state`, if it is built.
    private func currentInstance(of registration: Registration, from state: ResolutionState) throws(ResolutionError) -> Any? {
        guard case .built(let instance) = try keptInstance(of: registration, state: state) else { return nil }
        return instance
    }

    /// The frozen state for building `registration` below `parent`, once its cycle and depth
    /// checks passed.
    private func enter(_ registration: Registration, from parent: ResolutionState) throws(ResolutionError) -> ResolutionState {
        // Property hooks are synchronous: an awaited resolve never comes back to an instance
        // whose hooks are running, so a registration met again here is a cycle.
        parent.encloseIfUnenteredTop()
        if try checkCycle(registration, state: parent) != nil, let start = parent.position(of: registration) {
            throw cycleError(registration, from: start, state: parent)
        }
        return parent.entering(PathEntry(registration: registration, decorator: -1))
    }

    private func buildKept(
        _ registration: Registration, in place: KeptPlace, arguments: Arguments, from parent: ResolutionState
    ) async throws -> Any {
        let level = try enter(registration, from: parent)
        while true {
            switch place.lookup(token: level.token, now: now) {
            case .instance(let instance):
                return instance
            case .ended:
                throw ResolutionError.scopeEnded(registration, path: level.steps)
            case .build:
                var hooks: [KeptInstances.Hook] = []
                do {
                    let instance = try await produce(registration, arguments: arguments, at: level, hooks: &hooks)
                    return place.keep(instance, of: registration, hooks: hooks, now: now)
                } catch {
                    place.slot.abandon()
                    throw error
                }
            case .wait(let build):
                try beginWaiting(registration, in: place.slot, state: level)
                defer { WaitGraph.endWaiting(level) }
                try await recordingWait(for: registration, state: level) { try await place.slot.wait(for: build) }
            }
        }
    }

    /// Runs the factory and the decorators around it; `level` has `registration` on its path.
    private func produce(
        _ registration: Registration, arguments: Arguments, at level: ResolutionState, hooks: inout [KeptInstances.Hook]
    ) async throws -> Any {
        guard _slowPath(reportsBuild(of: registration, state: level)) else {
            return try await runFactories(registration, arguments: arguments, at: level, hooks: &hooks)
        }
        let report = beginReport(of: registration, state: level)
        do {
            let instance = report.index == nil || observers.isEmpty
                ? try await runFactories(registration, arguments: arguments, at: level, hooks: &hooks)
                : try await observed(BuildStart(registration), by: observers[...]) {
                    try await runFactories(registration, arguments: arguments, at: level, hooks: &hooks)
                }
            endReport(report, of: registration, state: level, error: nil)
            return instance
        } catch {
            endReport(report, of: registration, state: level, error: error)
            throw error
        }
    }

    /// The factory, its property hooks and the decorators, at `level`. Inlined into `produce`:
    /// an async call of its own would take a frame of the task's on every async build.
    @inline(__always)
    private func runFactories(
        _ registration: Registration, arguments: Arguments, at level: ResolutionState, hooks: inout [KeptInstances.Hook]
    ) async throws -> Any {
        let context = FactoryContext(container: self, state: level, arguments: arguments, registration: registration)
        var instance = try await run(registration.makeAsync, or: registration.make, step: -1, context: context)
        try resolveProperties(of: instance, registration, context: context)
        if let hook = registration.shutdownHook { hooks.append(.init(run: hook, instance: instance)) }
        for index in registration.decorators.indices {
            let decorator = registration.decorators[index]
            let state = ResolutionState(frozenFrom: level, adding: PathEntry(registration: registration, decorator: index), scope: level.scope)
            instance = try await run(decorator.factory.makeAsync, or: decorator.make, step: index, context: FactoryContext(
                container: self, state: state, arguments: arguments, inner: instance, registration: registration, decorator: index))
            if let hook = decorator.factory.shutdown { hooks.append(.init(run: hook, instance: instance)) }
        }
        return instance
    }

    /// Runs one factory, async or not; what it throws is wrapped as a synchronous factory's
    /// is, but cancellation passes through as it is.
    private func run(
        _ makeAsync: (@Sendable (FactoryContext) async throws -> Any)?, or make: @Sendable (FactoryContext) throws -> Any,
        step: Int, context: FactoryContext
    ) async throws -> Any {
        do {
            if let makeAsync { return try await BuildingContainer.with(asyncContext: context) { try await makeAsync(context) } }
            return try asCurrent(building: context) { try make(context) }
        } catch {
            throw Self.wrapping(error, step: step, context: context)
        }
    }

    /// What `run` throws for `error`: cancellation as it is, anything else wrapped. Out of
    /// line: a `CancellationError` matched in the async function took a task allocation on
    /// every call, thrown or not.
    @inline(never)
    private static func wrapping(_ error: any Error, step: Int, context: FactoryContext) -> any Error {
        if error is CancellationError { return error }
        return context.container.factoryError(error, factoryKey: context.registration.factoryKey(ofStep: step), context: context)
    }
}
