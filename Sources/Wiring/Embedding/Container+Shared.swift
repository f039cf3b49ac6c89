import Logging

extension Container {
    private static let bootstrapped = ReadMostly<Container?>(nil)

    /// What ``bootstrap(manifest:registry:contexts:checking:options:)`` checks before it returns.
    public enum LaunchCheck: Sendable {
        /// Binding only: factory keys and environment variables (always done).
        case binding
        /// Also resolve every service once and throw if any fails, so the property wrappers
        /// cannot meet a failure later.
        case instantiate
    }

    /// The container the property wrappers use: the one building the instance (while a
    /// factory runs, async ones included), else the one set with `using(_:operation:)` for the current task, else the
    /// one set by ``bootstrap(_:)``, else `nil`.
    public static var current: Container? {
        target(for: nil)?.container
    }

    /// The shared container.
    ///
    /// Stops the program with a message that says what to do when no container was
    /// bootstrapped: a missing bootstrap is a programming error, not bad input.
    public static var shared: Container {
        guard let container = current else { preconditionFailure(noContainer) }
        return container
    }

    /// Loads a manifest, builds a container with the contexts chosen at launch, and makes it
    /// the shared container the property wrappers use.
    ///
    /// ```swift
    /// @main struct NotesApp {
    ///     static func main() throws {
    ///         try Container.bootstrap(manifest: "config/services.yaml", registry: .notes, checking: .instantiate)
    ///         try NotesCommand.main()
    ///     }
    /// }
    /// ```
    ///
    /// With `.instantiate`, a failed dry run throws before anything is bootstrapped, and the
    /// container is dropped: the singletons it built are released without their shutdown hooks,
    /// which a synchronous launch cannot await. When they must run, build the container, await
    /// `instantiateAll()` (its async form), call ``shutdown()`` if it reports an error, then
    /// ``bootstrap(_:)`` it.
    ///
    /// - Throws: ``ManifestError`` for any problem of the manifest, the contexts, binding or,
    ///   with `.instantiate`, building a service.
    @discardableResult
    public static func bootstrap(
        manifest path: String, registry: FactoryRegistry, contexts: ContextSelection = .launch(),
        checking: LaunchCheck = .binding, options: Options = Options()
    ) throws(ManifestError) -> Container {
        let container = try Container(manifest: path, registry: registry, contexts: contexts, options: options)
        if checking == .instantiate {
            let problems = container.instantiateAll().filter { $0.severity == .error }
            if !problems.isEmpty {
                for problem in problems { options.logger?.error("\(problem.headline)") }
                throw ManifestError(problems)
            }
        }
        bootstrap(container)
        return container
    }

    /// Makes `container` the shared container.
    public static func bootstrap(_ container: Container) {
        bootstrapped.write { $0 = container }
    }

    /// Runs the factory of `context` with this container as the current one and its resolution
    /// as the one property wrappers join, so the wrappers of the instance it builds resolve from
    /// the container building it, sharing its `graph` instances and its path (and, when edges
    /// are recorded, count as its dependencies).
    @inline(__always)
    func asCurrent<R>(building context: FactoryContext, _ body: () throws -> R) rethrows -> R {
        try BuildingContainer.with(self, state: context.state, body)
    }

    /// Runs `operation` with `container` as the current container for this task and the tasks
    /// it creates: tests running in parallel each see their own. (Threads started another way,
    /// such as a `DispatchQueue`, do not inherit it.)
    ///
    /// ```swift
    /// @Test func savesANote() throws {
    ///     let container = try Container(manifest: "services.yaml", registry: .notes, contexts: .explicit("test"))
    ///     try Container.using(container) {
    ///         let editor = NoteEditor()          // its @Injected properties resolve from `container`
    ///         try editor.save("hello")
    ///     }
    /// }
    /// ```
    public static func using<R>(_ container: Container, operation: () throws -> R) rethrows -> R {
        try BuildingContainer.$task.withValue(.init(container: container, state: nil), operation: operation)
    }

    /// Runs the async `operation` with `container` as the current container for this task.
    public static func using<R>(
        _ container: Container, isolation: isolated (any Actor)? = #isolation, operation: () async throws -> R
    ) async rethrows -> R {
        try await BuildingContainer.$task.withValue(.init(container: container, state: nil), operation: operation, isolation: isolation)
    }

    /// Resolves for a property wrapper: from `container`, else the current container; stops
    /// with the error's message when resolving fails, since a wrapper cannot throw.
    @usableFromInline
    static func resolveForWrapper<T>(_ type: T.Type, name: String?, container: Container?) -> T {
        let (container, joining) = wrapperTarget(for: container)
        do {
            return try container.resolve(type, name: name, joining: joining)
        } catch {
            container.stopInjecting(T.self, error)
        }
    }

    /// Resolves an optional dependency for a property wrapper: `nil` when nothing is declared.
    @usableFromInline
    static func optionalForWrapper<T>(_ type: T.Type, name: String?, container: Container?) -> T? {
        let (container, joining) = wrapperTarget(for: container)
        guard container.isDeclared(type) else { return nil }
        do {
            return try container.resolve(type, name: name, joining: joining)
        } catch {
            container.stopInjecting(T.self, error)
        }
    }

    /// Resolves `type` for a property wrapper: in `joining`, the resolution building with this
    /// container when the wrapper was made (see ``target(for:)``), sharing its `graph`
    /// instances, its scope and its path; else on its own.
    @inline(__always)
    func resolve<T>(_ type: T.Type, name: String?, joining: ResolutionState?) throws(ResolutionError) -> T {
        guard let joining else { return try resolve(type, name: name) }
        return try resolve(type, name: name, in: joining)
    }

    /// Logs `error`, then stops the program: a property wrapper cannot throw.
    func stopInjecting(_ type: Any.Type, _ error: ResolutionError) -> Never {
        logFailure(error)
        preconditionFailure("Wiring: cannot inject \(type): \(error)")
    }

    /// Where a property wrapper given `explicit` (its `container:`, if any) resolves: the
    /// container building on this thread, or running the async factory of this task, with the
    /// resolution the wrapper joins, when `explicit` is that container or `nil`; else `explicit`,
    /// or the task's container, or the bootstrapped one, in a resolution of its own (no state);
    /// `nil` when there is none.
    static func target(for explicit: Container?) -> (container: Container, joining: ResolutionState?)? {
        if let (container, state) = BuildingContainer.building {
            if explicit == nil || explicit === container { return (container, state) }
            return explicit.map { ($0, nil) }
        }
        let binding = BuildingContainer.task
        if let binding, let state = binding.state, explicit == nil || explicit === binding.container {
            return (binding.container, state)
        }
        return (explicit ?? binding?.container ?? bootstrapped.read { $0.pointee }).map { ($0, nil) }
    }

    /// Where a wrapper given `container` resolves; stops with what to do when there is no container.
    static func wrapperTarget(for container: Container?) -> (container: Container, joining: ResolutionState?) {
        guard let target = target(for: container) else { preconditionFailure(noContainer) }
        return target
    }

    static let noContainer = """
        Wiring: no container. Call Container.bootstrap(manifest:registry:) once at launch, \
        or run this code inside Container.using(container) { … } (in tests).
        """

    /// Runs `body` in the resolution a lazy wrapper's first read from this container resolves
    /// in: the one this container is building in on this thread or task (through a state of
    /// its own that continues it, when it is an async factory's), else a top-level one.
    func withWrapperResolution<R>(_ body: (ResolutionState) throws(ResolutionError) -> R) throws(ResolutionError) -> R {
        if let state = Self.wrapperTarget(for: self).joining {
            guard state.isFrozen else { return try body(state) }
            return try ResolutionState.withFork(of: state, container: self, body)
        }
        if isShutDown { throw ResolutionError.shutDown("the container is shut down; a lazily injected property cannot be resolved") }
        let state = ResolutionState.acquire()
        defer { ResolutionState.recycle(state, container: self) }
        return try BuildingContainer.with(self, state: state) { () throws(ResolutionError) in try body(state) }
    }

    /// The error of a lazy wrapper read again while its first read resolves, on the same thread
    /// or from a resolution that the first read waits for.
    func lazyCycle(_ type: Any.Type, state: ResolutionState) -> ResolutionError {
        let path = state.steps.map(\.description)
        let through = path.isEmpty ? "" : ": " + path.joined(separator: " → ") + " → "
        return ResolutionError(
            .circularDependency,
            message: "circular dependency through a lazily injected \(type)\(through.isEmpty ? "" : through + "\(type)"): "
                + "it is read again before its first read has resolved it",
            path: state.steps)
    }

    /// Resolves `type` in the resolution `state`, as a factory's context does.
    @usableFromInline
    func resolve<T>(_ type: T.Type, name: String?, arguments: Arguments = .none, in state: ResolutionState) throws(ResolutionError) -> T {
        var instance = try resolveInstance(type, name: name, arguments: arguments, continuing: state)
        if let typed = Self.cast(&instance, to: T.self) { return typed }
        throw typeMismatch(instance, expected: type, name: name, steps: state.readableSteps)
    }

    /// The instance for `type` in the resolution `state`, not yet cast: through a state of its
    /// own that continues it when `state` is frozen (an async factory's).
    func resolveInstance(_ type: Any.Type, name: String?, arguments: Arguments, continuing state: ResolutionState) throws(ResolutionError) -> Any {
        if state.isBuildingHere { return try resolveInstance(type, name: name, arguments: arguments, state: state) }
        return try continuing(state) { state throws(ResolutionError) in try resolveInstance(type, name: name, arguments: arguments, state: state) }
    }

    /// Runs `body`, a resolve through a factory's context, in the state it continues: the
    /// context's own while its resolution is the one building on this thread; a state of this
    /// thread's that continues it when it no longer changes (an async factory's frozen state, or
    /// one kept past its resolution by a context: see ``ResolutionState/isForkable``), from any
    /// thread or task; else (a context kept and used from another thread while its resolution
    /// is still under way) a new top-level resolution in the same scope. Each but the first
    /// makes this container the one building on the thread while `body` runs, as a factory's
    /// resolution does.
    func continuing<R>(_ state: ResolutionState, _ body: (ResolutionState) throws(ResolutionError) -> R) throws(ResolutionError) -> R {
        if state.isBuildingHere { return try body(state) }
        if state.isForkable {
            try checkOpen(kept: state)
            return try ResolutionState.withFork(of: state, container: self) { fork throws(ResolutionError) in
                try BuildingContainer.with(self, state: fork) { () throws(ResolutionError) in try body(fork) }
            }
        }
        // Of the kept state, only its scope is read: set before any factory of its resolution
        // ran, and not changed while anything holds the state.
        let scope = state.scope
        try checkOpen(keptIn: scope)
        let fresh = ResolutionState.acquire()
        fresh.scope = scope
        defer { ResolutionState.recycle(fresh, container: self) }
        return try BuildingContainer.with(self, state: fresh) { () throws(ResolutionError) in try body(fresh) }
    }

    /// Throws when `state` is a context's kept past its resolution (see
    /// ``ResolutionState/isKeptPastItsResolution``) and the container is shut down. A resolve
    /// through such a context enters the container again, as a top-level resolve does, and
    /// meets what one meets first: it would otherwise build, in a container shut down, an
    /// instance whose shutdown hook never runs. While the resolution runs (an async factory's
    /// frozen state), it is not checked.
    @inline(__always)
    func checkOpen(kept state: ResolutionState) throws(ResolutionError) {
        if _slowPath(state.isKeptPastItsResolution) { try checkOpen(keptIn: state.scope) }
    }

    /// Throws when the container is shut down, for a resolve through a kept context whose
    /// resolution ran in `scope` (that scope's check and message) or in none.
    func checkOpen(keptIn scope: ContainerScope?) throws(ResolutionError) {
        if let scope { try scope.checkOpen() } else if isShutDown {
            throw ResolutionError.shutDown("the container is shut down; a factory's kept context cannot resolve through it")
        }
    }

    /// Runs `body` on the wrapper's container; a failure is logged, then stops the program.
    private static func forWrapper<T, R>(
        _ type: T.Type, container: Container?, _ body: (Container) throws(ResolutionError) -> R
    ) -> R {
        let container = container ?? shared
        do {
            return try body(container)
        } catch {
            container.logFailure(error)
            preconditionFailure("Wiring: cannot inject \(T.self): \(error)")
        }
    }
}
