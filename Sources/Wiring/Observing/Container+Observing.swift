internal import Logging

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
        let parent = state.building
        let index = state.recorder?.begin(registration, parent: parent)
        if let index { state.building = index }
        defer { state.building = parent }
        let began = ContinuousClock.now
        do {
            let instance = try build()
            builtReported(registration, index: index, recorder: state.recorder, elapsed: ContinuousClock.now - began, error: nil)
            return instance
        } catch {
            builtReported(registration, index: index, recorder: state.recorder, elapsed: ContinuousClock.now - began, error: error)
            throw error
        }
    }

    /// ``reportingBuild(of:state:_:)`` for the async engine: `level` is the frozen state made
    /// for this build, which no other task reads until `build` runs.
    func reportingBuild(
        of registration: Registration, level: ResolutionState, _ build: () async throws -> Any
    ) async throws -> Any {
        let index = level.recorder?.begin(registration, parent: level.building)
        if let index { level.building = index }
        let began = ContinuousClock.now
        do {
            let instance = try await build()
            builtReported(registration, index: index, recorder: level.recorder, elapsed: ContinuousClock.now - began, error: nil)
            return instance
        } catch {
            builtReported(registration, index: index, recorder: level.recorder, elapsed: ContinuousClock.now - began, error: error)
            throw error
        }
    }

    private func builtReported(
        _ registration: Registration, index: Int?, recorder: BuildRecorder?, elapsed: Duration, error: (any Error)?
    ) {
        if let index { recorder?.end(index, elapsed: elapsed, error: error) }
        guard !observers.isEmpty else { return }
        let event = BuildEvent(service: registration.key, name: registration.name, scope: registration.scope,
                               duration: elapsed, error: error, duringStart: recorder != nil)
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
