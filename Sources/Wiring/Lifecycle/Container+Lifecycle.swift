import Synchronization
internal import Logging

/// Start and shutdown: `eager: true` services built up front, every kept instance's shutdown
/// hooks run in reverse order of construction, and request scopes.
extension Container {
    /// Builds every `eager: true` service (and named variant), each with its dependencies
    /// first; independent ones are built concurrently. Async factories are awaited, so that
    /// afterwards the app's synchronous code resolves them without `await`.
    ///
    /// Fails fast: on the first error the other builds are cancelled, what was built is shut
    /// down in reverse order, and the error is thrown with its resolution path; `start()` may
    /// then be called again. Calling `start()` again after it succeeded does nothing.
    ///
    /// Once started, a container whose configuration source is a
    /// ``WatchableConfigurationSource`` watches the keys its services' arguments read, until
    /// ``shutdown()``: a change drops the kept instances of the `cached` and custom-scope
    /// services that read the key (running their hooks), so that the next resolve builds them
    /// with the new value; singletons keep theirs (see <doc:Configuration>).
    ///
    /// - Throws: ``ResolutionError`` (or what a factory threw, wrapped in one), or
    ///   `CancellationError`.
    public func start() async throws {
        let task: Task<Void, any Error> = try life.lifecycle.withLock { state throws(ResolutionError) in
            if state.shutdown != nil { throw ResolutionError.shutDown("cannot start a container that was shut down") }
            if let start = state.start { return start }
            let start = Task {
                try await self.startEager()
                self.startWatching()
            }
            state.start = start
            return start
        }
        try await withTaskCancellationHandler {
            try await task.value
        } onCancel: {
            task.cancel()
        }
    }

    /// Builds the eager services, through the observers' `observingStart` when there are some.
    private func startEager() async throws {
        if observers.isEmpty { return try await buildEager() }
        try await observedStart(by: observers[...]) { try await buildEager() }
    }

    private func buildEager() async throws {
        let eager = resolvableRegistrations.filter(\.isEager)
        let recorder = BuildRecorder(expecting: eager.count)
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for registration in eager {
                    group.addTask { try await self.build(eager: registration, recorder: recorder) }
                }
                for try await _ in group {}
            }
            reportStart(recorder, total: recorder.clock.elapsed, error: nil)
        } catch {
            reportStart(recorder, total: recorder.clock.elapsed, error: error)
            logger?.error("start failed, shutting down what it built: \(error)")
            let failures = await KeptInstances.shutDown(kept.takeAll(), defaultTimeout: shutdownTimeout, since: .now).compactMap(\.failure)
            for failure in failures { logger?.error("shutdown after a failed start: \(failure)") }
            reset()
            life.lifecycle.withLock { $0.start = nil }
            throw error
        }
    }

    /// Builds the `eager` `registration`, awaiting it, in a resolution of its own: what `start()`
    /// does for each (recording the builds in `recorder`), and a refresh for one whose kept
    /// instance it dropped.
    func build(eager registration: Registration, recorder: BuildRecorder? = nil) async throws {
        _ = try await withTopState(scope: nil) { top in
            top.recorder = recorder
            return try await instanceAsync(of: registration, arguments: .none, from: top)
        }
    }

    /// What ``start()`` built and how long each build took, once a start ended (also one that
    /// failed); `nil` before. `start()` logs its ``StartupReport/summary`` at info level.
    public var startupReport: StartupReport? {
        life.lifecycle.withLock { $0.startupRecord }.map { $0.recorder.report(total: $0.total, error: $0.error) }
    }

    /// The hooks ``shutdown()`` ran and how long each took, once it ended; `nil` before.
    public var shutdownReport: ShutdownReport? { life.lifecycle.withLock { $0.shutdownReport } }

    /// Keeps what `recorder` recorded of a start that took `total` (the report is made from it
    /// when asked for), logs its summary and tells the observers.
    private func reportStart(_ recorder: BuildRecorder, total: Duration, error: (any Error)?) {
        life.lifecycle.withLock { $0.startupRecord = (recorder, total, error) }
        if error == nil, let logger { logger.info("\(recorder.summary(total: total, error: nil))") }
        guard !observers.isEmpty else { return }
        let report = recorder.report(total: total, error: error)
        for observer in observers { observer.containerStarted(report) }
    }

    /// Shuts the container down: runs the shutdown hooks of every instance it keeps (those of
    /// `.onShutdown`), the last built first, so that an instance outlives every instance that
    /// depends on it. Each hook runs within its service's `shutdownTimeout:` (or
    /// ``Options/shutdownTimeout``); one that overruns is cancelled and counted as failed.
    /// Then the kept instances are dropped, and resolving throws. A `start()` under way is
    /// cancelled first, and each child container still alive (see ``child(_:)``) is shut down
    /// first, the most recent first. Calling `shutdown()` again does nothing.
    ///
    /// - Throws: ``ShutdownError`` with every hook that failed, after all of them ran.
    public func shutdown() async throws {
        let report = await life.shutDown()
        reset()
        let failures = report.failures
        if !failures.isEmpty { throw ShutdownError(failures: failures) }
    }

    /// Whether ``shutdown()`` was called.
    public var isShutDown: Bool { life.closed.load(ordering: .acquiring) }

    /// Throws when the container is shut down.
    func checkOpen(_ registration: Registration) throws(ResolutionError) {
        if life.closed.load(ordering: .acquiring) {
            throw ResolutionError.shutDown("the container is shut down; \(registration.step) cannot be resolved")
        }
    }

    // MARK: - Scopes

    /// A new scope, for `scoped` services: end it with ``ContainerScope/end()``.
    public func makeScope() -> ContainerScope {
        ContainerScope(container: self)
    }

    /// Runs `body` with a new scope, then ends the scope (also when `body` throws), running its
    /// instances' shutdown hooks in reverse.
    ///
    /// - Throws: What `body` throws; else ``ShutdownError`` if a hook failed.
    public func withScope<Result>(_ body: (ContainerScope) async throws -> Result) async throws -> Result {
        try await makeScope().running(body)
    }

    /// `registration`'s slot in the scope resolving; throws when there is none, or when an
    /// instance the container keeps is being built on the path (it would keep the scope's).
    func scopeSlot(of registration: Registration, at place: Int, state: ResolutionState) throws(ResolutionError) -> InstanceSlot {
        guard state.scope != nil else { throw scopeRequired(registration, keptBy: nil, state: state) }
        // By index, as `position(of:)` scans: no reference counted per entry.
        var index = 0
        while index < state.path.count {
            let entry = state.path[index]
            if entry.decorator < 0, entry.registration.keepsBeyondScope {
                // A scoped service met again on its own path is a cycle first: the message that
                // names the loop says more than the scope it closes through.
                // (One whose property hooks are running is no cycle; it stays a captive scope.)
                _ = try checkCycle(registration, state: state)
                throw scopeRequired(registration, keptBy: entry, state: state)
            }
            index += 1
        }
        // Read in place, not bound: a binding counted a reference to the scope on every
        // scoped resolve.
        return state.scope.unsafelyUnwrapped.slot(at: place)
    }

    /// The error for a scoped `registration` resolved without a scope, or on the path of
    /// `keeper`, which the container keeps. Out of line, as ``checkCycle(_:state:)``'s errors
    /// are, so that ``scopeSlot(of:at:state:)``, which every scoped resolve passes through,
    /// keeps a small frame.
    @inline(never)
    private func scopeRequired(_ registration: Registration, keptBy keeper: PathEntry?, state: ResolutionState) -> ResolutionError {
        let message = if let keeper {
            "\(keeper.registration.scope) service \(keeper.step) depends on scoped service \(registration.step): it would keep one scope's instance after the scope ends"
        } else {
            "service \(registration.step) is scoped: resolve it from a scope (container.makeScope() or container.withScope), not from the container"
        }
        return ResolutionError(.scopeRequired(registration.key), message: message, path: state.steps + [registration.step])
    }

    /// The error for a synchronous resolve of an async service that is not built yet.
    func awaitRequired(_ registration: Registration, state: ResolutionState) -> ResolutionError {
        let steps = state.path.last?.registration === registration ? state.steps : state.steps + [registration.step]
        let factory = registration.makeAsync != nil ? "factory '\(registration.factoryKey)'" : "a decorator"
        var message = "service \(registration.step) is async (\(factory)) and not built yet: resolve it with await, or mark it `eager: true` and start the container"
        if let caller = steps.dropLast().last {
            message += "; the synchronous factory of \(caller.service) cannot await it: make that factory async"
        }
        return ResolutionError(.awaitRequired(registration.key), message: message, path: steps)
    }
}

extension ResolutionError {
    static func shutDown(_ message: String) -> ResolutionError {
        ResolutionError(.shutDown, message: message, path: [])
    }

    /// The error for `registration` resolved (or, `seeding`, seeded) in a scope that has ended.
    static func scopeEnded(_ registration: Registration, path: [Step], seeding: Bool = false) -> ResolutionError {
        ResolutionError(.shutDown, message: "the scope has ended; service \(registration.step) cannot be \(seeding ? "seeded" : "resolved") in it",
                        path: path)
    }
}
