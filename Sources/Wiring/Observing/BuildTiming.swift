import Synchronization

/// The time a reported build after ``Container/start()`` spent in the reported builds below
/// it and in waits for other tasks' builds of its dependencies: taken from its own time, as the
/// start's ``BuildRecorder`` takes its entries' (see ``BuildEvent/duration``).
///
/// Made only for a build an observer is told of; a resolution holds the one whose factory is
/// running (``ResolutionState/timing``), which tasks its factory starts may add to.
final class BuildTiming: Sendable {
    private let belowNanoseconds = Atomic<Int64>(0)

    /// Adds `elapsed` to the time below the build.
    func add(_ elapsed: Duration) {
        let (seconds, attoseconds) = elapsed.components
        belowNanoseconds.add(seconds * 1_000_000_000 + attoseconds / 1_000_000_000, ordering: .relaxed)
    }

    /// The time below the build so far.
    var below: Duration { .nanoseconds(belowNanoseconds.load(ordering: .relaxed)) }
}
