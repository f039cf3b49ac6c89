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
            let instance = try build()
            endReport(report, of: registration, state: state, error: nil)
            return instance
        } catch {
            endReport(report, of: registration, state: state, error: error)
            throw error
        }
    }

    /// A reported build that began: its index in the start's recorder, if one records, the
    /// index of the build it is below, and when it began.
    struct BuildReport {
        let index: Int?
        let parent: Int
        let began: ContinuousClock.Instant
    }

    /// Begins reporting the build of `registration` in `state`: the builds it asks for are
    /// below it. The async engine calls this and ``endReport(_:of:state:error:)`` around its
    /// build rather than passing it as a closure, which would take two async frames more.
    @inline(never)
    func beginReport(of registration: Registration, state: ResolutionState) -> BuildReport {
        let parent = state.building
        let began = ContinuousClock.now
        let index = state.recorder?.begin(registration, parent: parent, at: began)
        if let index { state.building = index }
        return BuildReport(index: index, parent: parent, began: began)
    }

    /// Waits for another task's build of `registration` with `wait`: during a start, the build
    /// whose factory asked for it lists it, and the wait is not counted as its own time.
    @inline(never)
    func recordingWait<T>(for registration: Registration, state: ResolutionState, _ wait: () throws -> T) rethrows -> T {
        guard let recorder = state.recorder, state.building >= 0 else { return try wait() }
        let began = ContinuousClock.now
        defer { recorder.waited(for: registration, below: state.building, elapsed: ContinuousClock.now - began) }
        return try wait()
    }

    /// ``recordingWait(for:state:_:)`` of an awaited wait.
    @inline(never)
    func recordingWait(for registration: Registration, state: ResolutionState, _ wait: () async throws -> Void) async rethrows {
        guard let recorder = state.recorder, state.building >= 0 else { return try await wait() }
        let began = ContinuousClock.now
        defer { recorder.waited(for: registration, below: state.building, elapsed: ContinuousClock.now - began) }
        try await wait()
    }

    /// Ends reporting a build begun with ``beginReport(of:state:)``, which failed with `error`.
    @inline(never)
    func endReport(_ report: BuildReport, of registration: Registration, state: ResolutionState, error: (any Error)?) {
        let elapsed = ContinuousClock.now - report.began
        // A frozen state is the level of this build alone, which tasks its factory started may
        // still read: nothing is built below it any more, and it is not changed.
        if !state.isFrozen { state.building = report.parent }
        if let index = report.index { state.recorder?.end(index, elapsed: elapsed, error: error) }
        guard !observers.isEmpty else { return }
        let event = BuildEvent(service: registration.key, name: registration.name, scope: registration.scope,
                               duration: elapsed, error: error, duringStart: state.recorder != nil)
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
