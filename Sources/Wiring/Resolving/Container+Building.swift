import Dispatch
internal import Logging

/// Building an instance where its registration keeps it: scopes, cycles, waits across
/// threads, and resets.
extension Container {
    // MARK: - Scopes

    func instance(of registration: Registration, arguments: Arguments, state: ResolutionState?) throws(ResolutionError) -> Any {
        if let state { return try instance(of: registration, arguments: arguments, in: state) }
        if case .kept(let timeToLive, _, let slot, let place) = registration.keeping,
           let instance = current(in: slot, at: place, now: Expiry.now(now, expiring: timeToLive)) {
            return instance
        }
        try checkOpen(registration)
        let state = ResolutionState.acquire()
        defer { ResolutionState.recycle(state, container: self) }
        return try instance(of: registration, arguments: arguments, in: state)
    }

    func instance(of registration: Registration, arguments: Arguments, in state: ResolutionState) throws(ResolutionError) -> Any {
        switch try keptInstance(of: registration, state: state) {
        case .built(let instance): return instance
        case .build(let place): return try buildKept(registration, in: place, arguments: arguments, state: state)
        case .notKept: break
        }
        guard case .graph = registration.keeping else { return try produce(registration, arguments: arguments, state: state) }
        let id = ObjectIdentifier(registration)
        if let instance = state.graph[id] { return instance }
        let instance = try produce(registration, arguments: arguments, state: state)
        // Still on the path, it was handed back to a hook that came back to it: the factory's
        // instance, not the graph's yet (its decorators have not run). Only a registration with
        // hooks is handed back to them before its own build stores what it built.
        if registration.propertyHooks.isEmpty || state.position(of: registration) == nil { state.graph[id] = instance }
        return instance
    }

    private func buildKept(
        _ registration: Registration, in place: KeptPlace, arguments: Arguments, state: ResolutionState
    ) throws(ResolutionError) -> Any {
        // Checked once the slot is found without an instance: a built one is handed out as
        // `current` would, and a cycle leaves the slot building, so it is never found built.
        /// The instance being built when its property hooks resolve back to it, else `nil`.
        func checkBuildable() throws(ResolutionError) -> Any? {
            if let instance = try checkCycle(registration, state: state) { return instance }
            // An async service is never waited for, nor built, synchronously.
            if registration.isAsync { throw awaitRequired(registration, state: state) }
            return nil
        }
        while true {
            switch place.lookup(token: state.token, now: now) {
            case .instance(let instance):
                return instance
            case .ended:
                throw ResolutionError.scopeEnded(registration, path: state.steps + [registration.step])
            case .build:
                var hooks: [KeptInstances.Hook] = []
                do {
                    // The slot was free: nothing of this registration is being built here.
                    _ = try checkBuildable()
                    let instance = try produce(registration, arguments: arguments, state: state, hooks: &hooks)
                    // Its property hooks wait for a factory below it, or it holds (or may hold)
                    // an instance whose hooks wait: it is kept once they ran.
                    if !state.waiting.isEmpty {
                        if let index = state.waiting.lastIndex(where: { $0.registration === registration && $0.place == nil }) {
                            state.waiting[index].place = place
                            state.waiting[index].kept = instance
                            state.waiting[index].hooks = hooks
                            return instance
                        }
                        if state.path.hasRunningFactory(from: state.inherited, to: state.path.count) {
                            state.waiting.append(.init(registration: registration, instance: instance, arguments: arguments,
                                                       place: place, kept: instance, hooks: hooks))
                            return instance
                        }
                    }
                    return place.keep(instance, of: registration, hooks: hooks, now: now)
                } catch {
                    place.slot.abandon()
                    throw error
                }
            case .wait(let build):
                if let instance = try checkBuildable() { return instance }
                // Built in this resolution, its hooks running or waiting: it is not kept yet.
                if let instance = state.instanceInBuild(of: registration) { return instance }
                if !WaitGraph.beginWaiting(state, for: place.slot) {
                    // A cycle across threads: when it goes through builds whose property hooks
                    // are running, their instances handed over break it.
                    guard WaitGraph.handOverOffers(from: place.slot), WaitGraph.beginWaiting(state, for: place.slot) else {
                        throw waitCycle(registration, in: place.slot, state: state)
                    }
                }
                recordingWait(for: registration, state: state) { place.slot.waitSynchronously(for: build) }
                WaitGraph.endWaiting(state)
            }
        }
    }

    /// Records that `state` waits for `slot`, or throws when that closes a cycle.
    func beginWaiting(_ registration: Registration, in slot: InstanceSlot, state: ResolutionState) throws(ResolutionError) {
        guard WaitGraph.beginWaiting(state, for: slot) else { throw waitCycle(registration, in: slot, state: state) }
    }

    /// The error of a wait for `slot` that would never end: its build waits for `state`, from
    /// another thread or task, or from below on this thread or in this task (a factory that
    /// resolved through a container instead of its context started `state`, whose path cannot
    /// show the cycle).
    @inline(never)
    private func waitCycle(_ registration: Registration, in slot: InstanceSlot, state: ResolutionState) -> ResolutionError {
        if let (trail, start) = state.enclosedPosition(of: registration) {
            return enclosedCycle(registration, from: start, trail: trail, state: state)
        }
        let steps = Self.steps(to: registration, in: state)
        let path = steps.map(\.description).joined(separator: " → ")
        let message = if let builder = slot.builder, state.waitsBelow(builder) {
            "circular dependency: \(path) is being built, on this thread or in this task, by a factory that waits for this resolve "
                + "(it resolved through a container, not through its context, so the cycle's path starts here)"
        } else {
            "circular dependency across threads: \(path) is being built by a resolution that waits for this one"
        }
        return ResolutionError(.circularDependency, message: message, path: steps)
    }

    /// The path of `state` to `registration`: an awaited build waits in a state whose path
    /// ends with it already.
    private static func steps(to registration: Registration, in state: ResolutionState) -> [ResolutionError.Step] {
        if let last = state.path.last, last.registration === registration, last.decorator < 0 { return state.steps }
        return state.steps + [registration.step]
    }

    /// Throws when `registration` is on the path already (a cycle) or the path is too deep;
    /// returns the instance being built instead when the registration met again is one whose
    /// property hooks are running (a `graph` or kept service: see ``metAgain(_:from:state:)``).
    func checkCycle(_ registration: Registration, state: ResolutionState) throws(ResolutionError) -> Any? {
        if let start = state.position(of: registration) { return try metAgain(registration, from: start, state: state) }
        if _slowPath(state.enclosing != nil) { try checkEnclosed(registration, state: state) }
        if state.path.count >= ResolutionState.maxDepth {
            throw tooDeepError(registration, state: state, forItsStack: false)
        }
        // Checked at every level: under AddressSanitizer or in a debug build, a few levels of
        // frames can already take more than the guard's margin.
        if !state.hasStackRoom {
            throw tooDeepError(registration, state: state, forItsStack: true)
        }
        return nil
    }

    /// `registration`, met again on the path from `start`: the instance being built when its
    /// factory has returned and its `resolvingProperties` hooks are running in this resolution
    /// (how a hook closes a cycle, as Swinject's `initCompleted` does), unless the service is
    /// `unique`, which has no one instance per resolution to hand back; else a cycle.
    @inline(never)
    private func metAgain(_ registration: Registration, from start: Int, state: ResolutionState) throws(ResolutionError) -> Any {
        if case .unique = registration.keeping {} else if let instance = state.partialInstance(of: registration) { return instance }
        throw cycleError(registration, from: start, state: state)
    }

    /// The error for `registration` met again on the path, from position `start`.
    ///
    /// This and the other errors of the resolve path are built out of line: the temporaries of
    /// their messages would otherwise take room in the frame of every resolve, which passes
    /// the checks (``checkCycle(_:state:)``'s frame: 496 bytes with the messages in it, 24
    /// without).
    @inline(never)
    func cycleError(_ registration: Registration, from start: Int, state: ResolutionState) -> ResolutionError {
        let cycle = state.path.map(from: start) { $0.step } + [registration.step]
        return ResolutionError(
            .circularDependency,
            message: "circular dependency: " + cycle.map(\.description).joined(separator: " → "),
            path: state.steps + [registration.step])
    }

    /// For the first build of a resolution that a factory started through a container: throws
    /// when it is a `unique` or `graph` service on the path of a resolution below, which waits
    /// for this one. Building it would start the same resolution again, and again, until the
    /// stack (or, awaited, memory) ran out. Checked only there, not at each level: every such
    /// cycle goes through a resolution started through a container, so its first build meets
    /// one below it again within one more turn, and the builds of dependencies pay nothing. A
    /// kept service needs no check: its slot, being built below, is waited for, and the wait
    /// is the cycle's error (``waitCycle(_:in:state:)``).
    @inline(never)
    func checkEnclosed(_ registration: Registration, state: ResolutionState) throws(ResolutionError) {
        switch registration.keeping {
        case .unique, .graph: break
        case .kept, .scoped: return
        }
        guard state.path.isEmpty, let (trail, start) = state.enclosedPosition(of: registration) else { return }
        throw enclosedCycle(registration, from: start, trail: trail, state: state)
    }

    /// The error for `registration` met from position `start` on the path of the last of
    /// `trail`, resolutions that wait for this one on its thread or in its task, the nearest
    /// first: the cycle runs from there through the paths of the others and this one, each
    /// started by a factory through a container.
    @inline(never)
    func enclosedCycle(_ registration: Registration, from start: Int, trail: [ResolutionState], state: ResolutionState) -> ResolutionError {
        let steps = Self.steps(to: registration, in: state)
        let cycle = trail[trail.count - 1].path.map(from: start) { $0.step } + trail.dropLast().reversed().flatMap(\.steps) + steps
        return ResolutionError(
            .circularDependency,
            message: "circular dependency: " + cycle.map(\.description).joined(separator: " → ")
                + " (through a resolve that a factory on it started through a container, not through its context)",
            path: steps)
    }

    /// The error for a path as deep as the container allows, or as the thread's stack does.
    @inline(never)
    private func tooDeepError(_ registration: Registration, state: ResolutionState, forItsStack: Bool) -> ResolutionError {
        let reason = forItsStack
            ? "too deep for this thread's stack (\(state.path.count) services)"
            : "deeper than \(ResolutionState.maxDepth) services"
        return ResolutionError(
            .circularDependency,
            message: "resolution is \(reason); is there a cycle through named variants or arguments?",
            path: state.steps + [registration.step])
    }

    /// Runs the factory and the decorators around it, with `registration` on the path.
    private func produce(_ registration: Registration, arguments: Arguments, state: ResolutionState) throws(ResolutionError) -> Any {
        if let instance = try checkCycle(registration, state: state) { return instance }
        var hooks: [KeptInstances.Hook] = []
        return try produce(registration, arguments: arguments, state: state, hooks: &hooks)
    }

    /// `produce`, adding to `hooks` each built layer's shutdown hook, once `registration` has
    /// passed ``checkCycle(_:state:)``.
    private func produce(
        _ registration: Registration, arguments: Arguments, state: ResolutionState, hooks: inout [KeptInstances.Hook]
    ) throws(ResolutionError) -> Any {
        guard _slowPath(reportsBuild(of: registration, state: state)) else {
            return try runFactories(registration, arguments: arguments, state: state, hooks: &hooks)
        }
        return try reportingBuild(of: registration, state: state) { () throws(ResolutionError) -> Any in
            try runFactories(registration, arguments: arguments, state: state, hooks: &hooks)
        }
    }

    /// The factory, its property hooks and the decorators, with `registration` on the path.
    @inline(__always)
    private func runFactories(
        _ registration: Registration, arguments: Arguments, state: ResolutionState, hooks: inout [KeptInstances.Hook]
    ) throws(ResolutionError) -> Any {
        state.path.push(PathEntry(registration: registration, decorator: -1))
        defer { state.path.pop() }
        let context = FactoryContext(container: self, state: state, arguments: arguments, registration: registration)
        let built = try run(registration.make, factoryKey: registration.factoryKey, context: context)
        // Only with hooks, decorators (which may build what waits) or hooks waiting: most builds
        // have none, and skip the scan of the path.
        if !registration.propertyHooks.isEmpty || !registration.decorators.isEmpty || !state.waiting.isEmpty {
            state.path.markLastReturned()
            if state.isOutermostBuild {
                try runWaitingHooks(state, returned: registration, built)
                try resolveProperties(of: built, registration, context: context)
            } else if !registration.propertyHooks.isEmpty {
                state.waiting.append(.init(registration: registration, instance: built, arguments: arguments))
            }
        }
        if let hook = registration.shutdownHook { hooks.append(.init(run: hook, instance: built)) }
        var instance = built
        for index in registration.decorators.indices {
            state.path.push(PathEntry(registration: registration, decorator: index))
            defer { state.path.pop() }
            instance = try run(registration.decorators[index].make, factoryKey: registration.decorators[index].factoryKey,
                               context: FactoryContext(container: self, state: state, arguments: arguments, inner: instance,
                                                       registration: registration, decorator: index))
            if !state.waiting.isEmpty, state.isOutermostBuild {
                try runWaitingHooks(state, returned: registration, built)
            }
            if let hook = registration.decorators[index].factory.shutdown { hooks.append(.init(run: hook, instance: instance)) }
        }
        return instance
    }

    /// The instance of the plain `scoped` `registration` in the scope of `state`, in one step:
    /// looked up, and built by ``produceNested(_:state:)`` when it is not there. `nil` when the
    /// scope has ended or another resolution is building it: the general path says so, or
    /// waits. A request's scoped dependencies are built this way, in about 3 % fewer
    /// instructions than through the general path (`WiringBenchmarks --profile-requests N
    /// served`). It keeps the instance as ``KeptPlace/keep(_:of:hooks:now:)`` keeps a scope's,
    /// with no list of hooks to make: a plain build has the factory's hook alone.
    ///
    /// Never inlined: a request's top-level scoped service and its scoped dependencies run one
    /// copy of it, not one each, which keeps the request's code in fewer cache lines.
    @inline(never)
    func buildScopedDependency(_ registration: Registration, at place: Int, state: ResolutionState) throws(ResolutionError) -> Any? {
        let slot = try scopeSlot(of: registration, at: place, state: state)
        switch slot.lookup(token: state.token, now: nil) {
        case .instance(let instance): return instance
        case .ended, .wait: return nil
        case .build: break
        }
        let instance: Any
        do throws(ResolutionError) {
            if registration.isAsync { throw awaitRequired(registration, state: state) }
            instance = try produceNested(registration, state: state)
        } catch {
            slot.abandon()
            throw error
        }
        slot.finish(scoped: instance, of: registration, layers: nil)
        return instance
    }

    /// `produce` for the nested fast path: no decorators, no runtime arguments, and the thread
    /// already building with this container.
    ///
    /// Inlined into its callers: a request's scoped service then builds in one frame, not two,
    /// at each level of its dependencies.
    @inline(__always)
    func produceNested(_ registration: Registration, state: ResolutionState) throws(ResolutionError) -> Any {
        // Met again, a plain registration is a cycle, which `checkCycle` throws, unless its
        // factory returned and the property hooks that waited for it run (it is then handed
        // back). Checked in line first: the call and its optional result cost a nested build
        // about a tenth of its instructions.
        if _slowPath(!state.mayEnter(registration)), let instance = try checkCycle(registration, state: state) { return instance }
        if _slowPath(reportsBuild(of: registration, state: state)) { return try reportedNested(registration, state: state) }
        return try runNested(registration, state: state)
    }

    /// ``runNested(_:state:)``, reported: out of line, so that the path that reports nothing
    /// keeps its frame and its registers.
    @inline(never)
    private func reportedNested(_ registration: Registration, state: ResolutionState) throws(ResolutionError) -> Any {
        try reportingBuild(of: registration, state: state) { () throws(ResolutionError) -> Any in
            try runNested(registration, state: state)
        }
    }

    /// The plain factory of `registration`, with it on the path.
    @inline(__always)
    private func runNested(_ registration: Registration, state: ResolutionState) throws(ResolutionError) -> Any {
        state.path.push(PathEntry(registration: registration, decorator: -1))
        defer { state.path.pop() }
        // The context is made again for the error, not kept in a variable: one used after the
        // factory's call is counted for it (two atomic operations a build; see
        // `FactoryContext.Holder`).
        do {
            let instance = try registration.make(FactoryContext(container: self, state: state, registration: registration))
            if _slowPath(!state.waiting.isEmpty) {
                state.path.markLastReturned()
                if state.isOutermostBuild {
                    try runWaitingHooks(state, returned: registration, instance)
                }
            }
            return instance
        } catch {
            throw factoryError(error, factoryKey: registration.factoryKey,
                               context: FactoryContext(container: self, state: state, registration: registration))
        }
    }

    private func run(
        _ make: @Sendable (FactoryContext) throws -> Any, factoryKey: String, context: FactoryContext
    ) throws(ResolutionError) -> Any {
        do {
            return try asCurrent(building: context) { try make(context) }
        } catch {
            throw factoryError(error, factoryKey: factoryKey, context: context)
        }
    }

    /// Runs the registration's `resolvingProperties` hooks on the instance its factory built.
    /// While they run, a resolve in this resolution that comes back to `registration` gets
    /// `instance` (the factory's, before any decorator) instead of a cycle error.
    ///
    /// They run as the factory did, with this container the one building on the thread, so that
    /// what they resolve builds (and injects its own wrappers) in this resolution. Below an
    /// async factory, in a state of this thread's that continues its frozen one: tasks the
    /// factory started may still read that one, so it is not changed.
    func resolveProperties(of instance: Any, _ registration: Registration, context: FactoryContext) throws(ResolutionError) {
        guard !registration.propertyHooks.isEmpty else { return }
        guard context.state.isFrozen else {
            return try BuildingContainer.with(self, state: context.state) { () throws(ResolutionError) in
                try runPropertyHooks(of: instance, registration, context: context)
            }
        }
        try ResolutionState.withFork(of: context.state, container: self) { fork throws(ResolutionError) in
            try BuildingContainer.with(self, state: fork) { () throws(ResolutionError) in
                try runPropertyHooks(of: instance, registration, context: context.continued(in: fork))
            }
        }
    }

    /// Runs the property hooks that waited in `state`, now that `registration`'s factory, the
    /// outermost one running in the resolution, returned with `instance`: in build order, each
    /// while a resolve that comes back to its instance (or to `instance`) gets it, and each kept
    /// instance is kept once its hooks ran, so that no other thread sees it before.
    ///
    /// This is how a cycle closes through a hook below an initializer, as Swinject's
    /// `initCompleted` runs once the graph's outermost factory returned: `A(b)`, `B(c)`, `C(d)`
    /// built by initializers, `C`'s hook resolving `A`, gets the `A` whose factory returned.
    /// When a hook fails, the kept instances still waiting are given up, and the next resolve
    /// builds them again.
    func runWaitingHooks(_ state: ResolutionState, returned registration: Registration, _ instance: Any) throws(ResolutionError) {
        guard !state.waiting.isEmpty else { return }
        state.partial.append((ObjectIdentifier(registration), instance))
        defer { state.partial.removeLast() }
        // Taken from the front until none is left: hooks may build more that waits, and a build
        // in a hook whose factory is then the outermost runs what is left itself. The one taken
        // is found through `partial` while its hooks run.
        while !state.waiting.isEmpty {
            let next = state.waiting.removeFirst()
            do throws(ResolutionError) {
                try resolveProperties(of: next.instance, next.registration,
                                      context: FactoryContext(container: self, state: state, arguments: next.arguments,
                                                              registration: next.registration))
            } catch {
                next.place?.slot.abandon()
                state.abandonWaiting()
                throw error
            }
            if let place = next.place { _ = place.keep(next.kept ?? next.instance, of: next.registration, hooks: next.hooks, now: now) }
        }
    }

    /// ``resolveProperties(of:_:context:)``'s hooks, in the state of `context`, which this
    /// thread builds in.
    private func runPropertyHooks(of instance: Any, _ registration: Registration, context: FactoryContext) throws(ResolutionError) {
        let state = context.state
        state.partial.append((ObjectIdentifier(registration), instance))
        // Offered on its slot too, for a resolution on another thread whose wait closes a cycle.
        let slot: InstanceSlot? = switch registration.keeping {
        case .kept(_, _, let own, let place): keptSlot(own, at: place)
        case .scoped(let place): state.scope?.slot(at: place)
        case .graph, .unique: nil
        }
        let builder = slot == nil ? [] : Set(state.lineage)
        slot?.offer(instance, by: builder)
        defer {
            slot?.offer(nil, by: builder)
            state.partial.removeLast()
        }
        for hook in registration.propertyHooks {
            do {
                try hook(context, instance)
            } catch {
                throw factoryError(error, factoryKey: registration.factoryKey, context: context)
            }
        }
    }

    /// What a factory threw, as a ``ResolutionError``: its own resolution errors pass through,
    /// anything else is wrapped with the factory and the path.
    func factoryError(_ error: any Error, factoryKey: String, context: FactoryContext) -> ResolutionError {
        if let error = error as? ResolutionError { return error }
        let steps = context.state.steps
        let at = steps.last?.location.map { " (\($0))" } ?? ""
        return ResolutionError(
            .factoryFailed(error),
            message: "factory '\(factoryKey)' of service \(context.serviceKey)\(at) threw: \(error)",
            path: steps)
    }

    // MARK: - Resets

    /// Drops every kept instance: the next resolves build anew.
    public func reset() {
        reset { _ in true }
    }

    /// Drops the instances kept by one scope (a built-in one, or a custom scope by name).
    public func reset(scope: Scope) {
        reset { $0.scope == scope }
    }

    /// Drops the kept instances of one service (and its named variants), by key.
    public func reset(service key: String) {
        reset { $0.key == key }
    }

    /// Slots first, then the type cache: a resolve that read an old instance from a slot began
    /// before the generation moved on, so it cannot cache that instance again.
    private func reset(where matches: (Registration) -> Bool) {
        for registration in resolvableRegistrations where matches(registration) {
            if case .kept(_, _, let slot, let place) = registration.keeping { keptSlot(slot, at: place).reset() }
        }
        typeCache.write { cache in
            cache.generation += 1
            for id in cache.instances.identifiers {
                if case .target(let target) = targetTable.lookup(id), let registration = target.takeUnretainedValue().unnamed,
                   matches(registration) {
                    cache.instances[id] = nil
                }
            }
        }
    }

    /// Drops the kept instances of the service declared for `T`.
    public func reset<T>(_ type: T.Type) {
        guard let target = target(for: type) else { return }
        reset(service: target.serviceKey)
    }
}
