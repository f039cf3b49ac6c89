internal import Logging

/// A scope of a container: one instance of each `scoped` service per scope, shut down when the
/// scope ends. A server makes one per request; an app, one per unit of work.
///
/// ```swift
/// try await container.withScope { scope in
///     let unit = try await scope.resolve(UnitOfWork.self)   // one per scope
///     let pool = try await scope.resolve(Pool.self)         // singletons are the container's
/// }                                                          // the scope's instances shut down here
/// ```
///
/// Resolving through a scope resolves every other scope as the container does. A `scoped`
/// service may depend on singletons and on other `scoped` services of the same scope; a
/// service the container keeps (a singleton, say) cannot depend on a `scoped` one, since it
/// would keep the first scope's instance: that resolve throws.
public final class ContainerScope: Sendable {
    /// The container the scope belongs to.
    public let container: Container
    /// The scope's slots, one per `scoped` registration by its place, with the hooks of what
    /// they keep: a table indexed by place, not a dictionary, so that a request through a scope
    /// hashes nothing (see ``SlotTable`` for what one table per scope saves).
    private let slots: SlotTable
    /// For a scope of a ``ReloadingContainer``: what counts its container's open scopes, so
    /// that a container a reload replaced shuts down when its last scope ends.
    private let tracker: ScopeTracker?

    /// A scope of `container`; for a ``ReloadingContainer``'s container, already counted open
    /// by `tracker` (under the lock that decides which container is in force).
    init(container: Container, countedBy tracker: ScopeTracker? = nil) {
        self.container = container
        slots = SlotTable(count: container.scopedCount)
        self.tracker = tracker
        if container.observesBuilds { for observer in container.observers { observer.scopeOpened() } }
    }

    /// Throws when the container is shut down: a resolve through a scope runs in a state of its
    /// own, which the container's own check at the top of a resolve does not see. Checked first,
    /// awaited or not, so that a scope of a container shut down says so whatever it is asked for.
    @usableFromInline
    func checkOpen() throws(ResolutionError) {
        if container.isShutDown {
            throw ResolutionError.shutDown("the container is shut down; nothing can be resolved in its scopes")
        }
    }

    /// The slot, in this scope, of the `scoped` registration at `place`. Once the scope has
    /// ended, the slot keeps nothing, and looking up in it says so.
    func slot(at place: Int) -> InstanceSlot {
        InstanceSlot(slots, at: place)
    }

    // MARK: - Resolving

    /// Resolves the service declared for `T` in this scope.
    /// - Throws: ``ResolutionError``, also when the service is async and not built yet (use
    ///   the `await` form) or the scope has ended.
    public func resolve<T>(_ type: T.Type = T.self, name: String? = nil, arguments: any Sendable...) throws(ResolutionError) -> T {
        try checkOpen()
        let state = ResolutionState.acquire()
        state.scope = self
        defer { ResolutionState.recycle(state, container: container) }
        var instance = try container.resolveInstance(type, name: name, arguments: Arguments(arguments), state: state)
        guard let typed = Container.cast(&instance, to: T.self) else {
            throw container.typeMismatch(instance, expected: type, name: name)
        }
        return typed
    }

    /// Resolves the service declared for `T` in this scope, awaiting it if needed.
    /// - Throws: ``ResolutionError``, or `CancellationError` (see ``Container/resolve(_:name:arguments:)-3njpw``).
    @inlinable
    public func resolve<T>(_ type: T.Type = T.self, name: String? = nil, arguments: any Sendable...) async throws -> T {
        try checkOpen()
        var instance = try await container.resolveAsync(type, name: name, arguments: Arguments(arguments), scope: self)
        guard let typed = Container.cast(&instance, to: T.self) else {
            throw container.typeMismatch(instance, expected: type, name: name)
        }
        return typed
    }

    /// Resolves a service by its key in this scope.
    public func resolve(key: String, name: String? = nil, arguments: any Sendable...) throws(ResolutionError) -> Any {
        try checkOpen()
        let state = ResolutionState.acquire()
        state.scope = self
        defer { ResolutionState.recycle(state, container: container) }
        return try container.resolve(key: key, name: name, arguments: Arguments(arguments), state: state)
    }

    /// Resolves a service by its key in this scope, awaiting it if needed.
    public func resolve(key: String, name: String? = nil, arguments: any Sendable...) async throws -> Any {
        try checkOpen()
        return try await container.withTopState(scope: self) { top in
            try await container.resolveAsync(key: key, name: name, arguments: Arguments(arguments), from: top)
        }
    }

    /// The service declared for `T` in this scope, or `nil` when none is declared.
    public func optional<T>(_ type: T.Type = T.self, name: String? = nil) throws(ResolutionError) -> T? {
        guard container.isDeclared(type) else { return nil }
        return try resolve(type, name: name)
    }

    /// The service declared for `T` in this scope, awaited if needed, or `nil`.
    public func optional<T>(_ type: T.Type = T.self, name: String? = nil) async throws -> T? {
        guard container.isDeclared(type) else { return nil }
        return try await resolve(type, name: name)
    }

    // MARK: - Seeding

    /// Gives this scope its instance of the `scoped` service declared for `T`: resolves in
    /// the scope, and the services of the scope that depend on it, get `instance`, and the
    /// service's factory does not run in this scope. A server seeds what it knows of the
    /// request (its id, its logger, the user it authenticated) before anything resolves it:
    ///
    /// ```swift
    /// let scope = container.makeScope()
    /// try scope.seed(RequestLog(requestID: request.id, logger: logger))
    /// let queries = try await scope.resolve(NoteQueries.self)  // its `!service RequestLog` is this one
    /// ```
    ///
    /// The instance is used as given: the service's decorators do not apply to it, and when
    /// the scope ends it drops the instance without running its shutdown hooks, since the
    /// caller made it.
    ///
    /// - Throws: ``ResolutionError``: no service is declared for `T` (or no variant `name`);
    ///   the service is not `scoped`; the scope already holds its instance (seed it before the
    ///   first resolve that reaches it); the scope has ended.
    @inlinable
    public func seed<T>(_ instance: T, as type: T.Type = T.self, name: String? = nil) throws(ResolutionError) {
        // A class instance is held as itself, as a factory's is: made an `AnyObject` here,
        // where `T` is known, rather than by the runtime's cast of an `Any` (about 2,900
        // instructions).
        if T.self is AnyObject.Type, MemoryLayout<T>.size == MemoryLayout<AnyObject>.size {
            try seed(unsafeBitCast(instance, to: AnyObject.self), object: true, as: type, name: name)
        } else {
            try seed(instance, object: false, as: type, name: name)
        }
    }

    /// Seeds `instance`, the class instance it holds when `object`.
    @usableFromInline
    func seed(_ instance: Any, object: Bool, as type: Any.Type, name: String?) throws(ResolutionError) {
        try container.registration(for: type, name: name, state: nil).borrowing { registration throws(ResolutionError) in
            guard case .scoped(let place) = registration.keeping else {
                throw ResolutionError(.seedRefused(registration.key), message: "service \(registration.step) is \(registration.scope), "
                                      + "not scoped: only a scoped service can be seeded in a scope", path: [registration.step])
            }
            switch slot(at: place).seed(instance, asObject: object) {
            case .seeded:
                return
            case .occupied:
                throw ResolutionError(.seedRefused(registration.key), message: "the scope already holds an instance of service "
                                      + "\(registration.step): seed it before anything resolves it", path: [registration.step])
            case .ended:
                throw ResolutionError.scopeEnded(registration, path: [registration.step], seeding: true)
            }
        }
    }

    // MARK: - Ending

    /// Runs `body` with this scope, then ends it (also when `body` throws).
    ///
    /// Inlined into `withScope`: an async call of its own would take a task allocation per
    /// scope.
    ///
    /// - Throws: What `body` throws (hooks that then fail are logged at error level); else
    ///   ``ShutdownError`` if a hook failed.
    @inline(__always)
    func running<Result>(_ body: (ContainerScope) async throws -> Result) async throws -> Result {
        let result: Result
        do {
            result = try await body(self)
        } catch {
            // The body's error is what the caller handles (a framework maps it to a response);
            // hooks that failed on the way out are logged, not dropped.
            do {
                try await end()
            } catch let failure {
                container.logger?.error("scope: ending the scope after an error: \(failure)")
            }
            throw error
        }
        try await end()
        return result
    }

    /// Ends the scope: runs the shutdown hooks of its instances, the last built first, each
    /// within its timeout, then drops them. Resolving through the scope afterwards throws.
    /// Ending a scope twice is harmless.
    ///
    /// - Throws: ``ShutdownError`` with every hook that failed, after all ran.
    @inlinable
    public func end() async throws {
        // Inlined around the part that does not await, so that ending a scope whose hooks are
        // all synchronous (a request's usually are) is no async call of its own.
        guard let pending = try endWithoutAwaiting() else { return }
        try await pending.run()
    }

    /// Ends the scope and runs its hooks if they are all synchronous; else returns them, to
    /// run with ``PendingHooks/run()``.
    @usableFromInline
    func endWithoutAwaiting() throws(ShutdownError) -> PendingHooks? {
        // A reloading container's scope counts its end, and an observed one reports it; other
        // scopes take a path without either: with the count inline on every scope's path, its
        // closure was no longer inlined.
        if tracker != nil || container.observesBuilds { return try endCounted(by: tracker) }
        let newest: RecordedInstance? = slots.withLock { header, states in
            guard !header.ended else { return nil }
            return Self.close(&header, states)
        }
        guard let newest else { return nil }
        return try runHooks(from: newest, tracker: nil)
    }

    /// ``endWithoutAwaiting()`` for a scope whose end `tracker` counts, or observers hear
    /// of, once.
    @inline(never)
    private func endCounted(by tracker: ScopeTracker?) throws(ShutdownError) -> PendingHooks? {
        let (ended, newest): (Bool, RecordedInstance?) = slots.withLock { header, states in
            guard !header.ended else { return (false, nil) }
            return (true, Self.close(&header, states))
        }
        if ended { for observer in container.observers { observer.scopeEnded() } }
        guard let newest else {
            if ended { tracker?.closed() }
            return nil
        }
        return try runHooks(from: newest, tracker: tracker)
    }

    /// Marks the scope ended and empties its slots; returns the newest instance with hooks.
    @inline(__always)
    private static func close(_ header: inout SlotTable.Header, _ states: UnsafeMutablePointer<InstanceSlot.State>) -> RecordedInstance? {
        header.ended = true
        // Builds under way keep their state: they wake their waiters when they end.
        for place in 0..<header.count where !states[place].isBuilding {
            states[place] = .empty
        }
        return header.newestRecorded.take()
    }

    /// Runs the hooks recorded from `newest` if they are all synchronous (then counts the end
    /// with `tracker`); else returns them, to run with ``PendingHooks/run()``.
    @inline(__always)
    private func runHooks(from newest: RecordedInstance, tracker: ScopeTracker?) throws(ShutdownError) -> PendingHooks? {
        guard let failures = RecordedInstance.shutDownInPlace(from: newest) else {
            return PendingHooks(records: RecordedInstance.records(from: newest), defaultTimeout: container.shutdownTimeout,
                                tracker: tracker)
        }
        tracker?.closed()
        if !failures.isEmpty { throw ShutdownError(failures: failures) }
        return nil
    }

    /// The hooks of an ended scope that await: they run in tasks of their own, each within
    /// its timeout.
    @usableFromInline
    struct PendingHooks: Sendable {
        let records: [KeptInstances.Record]
        let defaultTimeout: Duration
        let tracker: ScopeTracker?

        @usableFromInline
        func run() async throws {
            let failures = await KeptInstances.shutDown(records, defaultTimeout: defaultTimeout, since: .now).compactMap(\.failure)
            tracker?.closed()
            if !failures.isEmpty { throw ShutdownError(failures: failures) }
        }
    }
}
