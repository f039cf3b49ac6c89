/// Telling observers about builds, and recording the builds of a start.
extension Container {
    /// Whether the build of `registration` in `state` is reported: every build during
    /// ``start()``, and builds of instances kept somewhere when the container has observers.
    /// What every build pays when nothing is reported: two loads and two branches.
    @inline(__always)
    func reportsBuild(of registration: Registration, state: ResolutionState) -> Bool {
        state.recorder != nil || (observesBuilds && registration.keepsInstance)
    }

    /// Runs `build`, the build of `registration` in `state`, timed: recorded when a start
    /// records, and told to the observers.
    func reportingBuild(
        of registration: Registration, state: ResolutionState, _ build: () throws(ResolutionError) -> Any
    ) throws(ResolutionError) -> Any {
        let report = beginReport(of: registration, state: state)
        do {
            let instance = report.index == nil || observers.isEmpty
                ? try build() : try observed(BuildStart(registration), by: observers[...], build)
            endReport(report, of: registration, state: state, error: nil)
            return instance
        } catch {
            endReport(report, of: registration, state: state, error: error)
            throw error
        }
    }

    /// Runs `body`, a build during start, through each observer's `observingBuild`, the first
    /// outermost.
    func observed<R>(
        _ build: BuildStart, by observers: ArraySlice<any ContainerObserver>, _ body: () throws(ResolutionError) -> R
    ) throws(ResolutionError) -> R {
        guard let first = observers.first else { return try body() }
        return try first.observingBuild(build) { () throws(ResolutionError) -> R in try observed(build, by: observers.dropFirst(), body) }
    }

    /// ``observed(_:by:_:)`` of an async build.
    func observed<R>(_ build: BuildStart, by observers: ArraySlice<any ContainerObserver>, _ body: () async throws -> R) async throws -> R {
        guard let first = observers.first else { return try await body() }
        return try await first.observingBuild(build) { try await observed(build, by: observers.dropFirst(), body) }
    }

    /// Runs `body`, the work of a start, through each observer's `observingStart`, the first
    /// outermost.
    func observedStart(by observers: ArraySlice<any ContainerObserver>, _ body: () async throws -> Void) async throws {
        guard let first = observers.first else { return try await body() }
        try await first.observingStart { try await observedStart(by: observers.dropFirst(), body) }
    }

    /// A reported build that began: its index in the start's recorder, if one records, the
    /// index of the build it is below, and when it began. When none records: in an async
    /// build's own (frozen) state, the time below it and the async build it is below, if any;
    /// in a synchronous state, what ``ResolutionState/below`` held for the build it is below.
    struct BuildReport {
        let index: Int?
        let parent: Int
        let began: ContinuousClock.Instant
        let timing: BuildTiming?
        let outer: BuildTiming?
        let savedBelow: Duration
    }

    /// Begins reporting the build of `registration` in `state`: the builds it asks for are
    /// below it. The async engine calls this and ``endReport(_:of:state:error:)`` around its
    /// build rather than passing it as a closure, which would take two async frames more.
    @inline(never)
    func beginReport(of registration: Registration, state: ResolutionState) -> BuildReport {
        let parent = state.building, outer = state.timing
        let began = ContinuousClock.now
        if let index = state.recorder?.begin(registration, parent: parent, at: began) {
            state.building = index
            return BuildReport(index: index, parent: parent, began: began, timing: nil, outer: outer, savedBelow: .zero)
        }
        if state.isFrozen {
            let timing = BuildTiming()
            state.timing = timing
            return BuildReport(index: nil, parent: parent, began: began, timing: timing, outer: outer, savedBelow: .zero)
        }
        let saved = state.below
        state.below = .zero
        return BuildReport(index: nil, parent: parent, began: began, timing: nil, outer: outer, savedBelow: saved)
    }

    /// Waits for another task's build of `registration` with `wait`: during a start, the build
    /// whose factory asked for it lists it, and the wait is not counted as its own time.
    @inline(never)
    func recordingWait<T>(for registration: Registration, state: ResolutionState, _ wait: () throws -> T) rethrows -> T {
        guard state.recorder != nil ? state.building >= 0 : observesBuilds else { return try wait() }
        let began = ContinuousClock.now
        defer { waited(for: registration, state: state, elapsed: ContinuousClock.now - began) }
        return try wait()
    }

    /// ``recordingWait(for:state:_:)`` of an awaited wait.
    @inline(never)
    func recordingWait(for registration: Registration, state: ResolutionState, _ wait: () async throws -> Void) async rethrows {
        guard state.recorder != nil ? state.building >= 0 : observesBuilds else { return try await wait() }
        let began = ContinuousClock.now
        defer { waited(for: registration, state: state, elapsed: ContinuousClock.now - began) }
        try await wait()
    }

    /// Takes a wait of `elapsed` for another task's build of `registration` from the own time
    /// of the build whose factory waited.
    private func waited(for registration: Registration, state: ResolutionState, elapsed: Duration) {
        if let recorder = state.recorder {
            recorder.waited(for: registration, below: state.building, elapsed: elapsed)
        } else if state.isFrozen {
            state.timing?.add(elapsed)
        } else {
            state.below += elapsed
        }
    }

    /// Ends reporting a build begun with ``beginReport(of:state:)``, which failed with `error`.
    @inline(never)
    func endReport(_ report: BuildReport, of registration: Registration, state: ResolutionState, error: (any Error)?) {
        let elapsed = ContinuousClock.now - report.began
        // A frozen state is the level of this build alone, which tasks its factory started may
        // still read: nothing is built below it any more, and it is not changed.
        if !state.isFrozen {
            state.building = report.parent
            state.timing = report.outer
        }
        let own: Duration
        if let index = report.index, let recorder = state.recorder {
            own = recorder.end(index, elapsed: elapsed, error: error)
        } else if let timing = report.timing {
            own = max(.zero, elapsed - timing.below)
            report.outer?.add(elapsed)
        } else {
            own = max(.zero, elapsed - state.below)
            state.below = report.savedBelow + elapsed
        }
        guard !observers.isEmpty else { return }
        let event = BuildEvent(service: registration.id, scope: registration.scope,
                               duration: own, elapsed: elapsed, error: error, duringStart: report.index != nil)
        for observer in observers { observer.containerBuilt(event) }
    }
}

extension Registration {
    /// Whether the container or a scope keeps what this registration builds.
    var keepsInstance: Bool {
        switch keeping {
        case .kept, .scoped: true
        case .unique, .graph: false
        }
    }
}

extension BuildStart {
    init(_ registration: Registration) {
        (service, scope) = (registration.id, registration.scope)
    }
}
