/// The builds of one ``Container/start()``, recorded as each begins and ends, for its
/// ``StartupReport``. Eager services build concurrently, so the entries are under a lock;
/// a resolution holds the recorder in its state, with the index of the build whose factory is
/// running (see ``ResolutionState/building``), which is the parent of the builds it asks for.
///
/// An entry is a few plain words, and the report is made from them only when asked for (or
/// when an observer is told): recording takes about 700 instructions a build, 3.5–4 % of a
/// start of 500 eager services, against about 5,000 when each entry held its registration and
/// a clock instant and the report was made as the start ended (`WiringBenchmarks
/// --profile-start N` under callgrind).
final class BuildRecorder: Sendable {
    /// Of plain words, so that appending one copies it and counts no reference.
    private struct Entry {
        /// Held by the container, which outlives its start and its report.
        let held: Unmanaged<Registration>
        let parent: Int32
        /// When the build began, after the start began: a `Duration`, whose layout is known
        /// where this is compiled, unlike a clock instant's.
        let offset: Duration
        var elapsed: Duration = .zero
        /// The elapsed time of the builds below this one, to take from its own.
        var below: Duration = .zero

        var registration: Registration { held.takeUnretainedValue() }
    }

    private struct Entries {
        var all: [Entry] = []
        /// What failed builds threw, by index: few builds fail.
        var errors: [Int: any Error] = [:]
        /// The dependencies a build waited for while another task built them, by the build's
        /// index: a dependency of its own, whose time is not its own.
        var waitedFor: [Int: [Unmanaged<Registration>]] = [:]
    }

    private let entries: Locked<Entries>
    /// When the start began.
    let clock = ReportClock()
    var began: ContinuousClock.Instant { clock.began }

    /// A recorder for a start of `count` eager services (builds of dependencies may add more).
    init(expecting count: Int) {
        var entries = Entries()
        entries.all.reserveCapacity(count)
        self.entries = Locked(entries)
    }

    /// Records that a build of `registration` began at `instant`, below the build at `parent`
    /// (or none when negative); its index.
    func begin(_ registration: Registration, parent: Int, at instant: ContinuousClock.Instant) -> Int {
        let entry = Entry(held: .passUnretained(registration), parent: Int32(parent), offset: instant - began)
        return entries.withLock { entries in
            entries.all.append(entry)
            return entries.all.count - 1
        }
    }

    /// Records that the build at `index` ended `elapsed` after it began, failed with `error`;
    /// its own time.
    @discardableResult
    func end(_ index: Int, elapsed: Duration, error: (any Error)?) -> Duration {
        entries.withLock { entries in
            entries.all[index].elapsed = elapsed
            if let error { entries.errors[index] = error }
            let parent = Int(entries.all[index].parent)
            if parent >= 0 { entries.all[parent].below += elapsed }
            return own(entries.all[index])
        }
    }

    /// Records that the build at `parent` waited `elapsed` for another task's build of its
    /// dependency `registration`: listed among its dependencies, the wait left out of its own
    /// time (the dependency's row has that time).
    func waited(for registration: Registration, below parent: Int, elapsed: Duration) {
        guard parent >= 0 else { return }
        entries.withLock { entries in
            entries.all[parent].below += elapsed
            entries.waitedFor[parent, default: []].append(.passUnretained(registration))
        }
    }

    /// The summary line of the start that took `total` (``StartupReport/summary``), without
    /// making the report.
    func summary(total: Duration, error: (any Error)?) -> String {
        let (count, slowest) = entries.withLock { entries in
            (entries.all.count, entries.all.max { own($0) < own($1) }.map { ($0.registration.shown, own($0)) })
        }
        return StartupReport.summary(count: count, total: total, slowest: slowest, error: error)
    }

    private func own(_ entry: Entry) -> Duration { max(.zero, entry.elapsed - entry.below) }

    /// The report of the start, which took `total` and failed with `error`, if it did.
    func report(total: Duration, error: (any Error)?) -> StartupReport {
        let entries = entries.withLock { $0 }
        var dependencies = Array(repeating: [ServiceID](), count: entries.all.count)
        for entry in entries.all where entry.parent >= 0 {
            dependencies[Int(entry.parent)].append(entry.registration.id)
        }
        for (index, waited) in entries.waitedFor {
            dependencies[index] += waited.map { $0.takeUnretainedValue().id }
        }
        let builds = entries.all.indices.map { index in
            let entry = entries.all[index]
            let error = entries.errors[index]
            // A build a failed start cut short did not end: it counts until the start's end.
            let elapsed = entry.elapsed == .zero && error != nil ? total - entry.offset : entry.elapsed
            return StartupReport.Build(
                service: entry.registration.id, scope: entry.registration.scope,
                offset: entry.offset, duration: max(.zero, elapsed - entry.below), elapsed: elapsed,
                parent: entry.parent < 0 ? nil : Int(entry.parent), dependencies: dependencies[index], error: error)
        }
        return StartupReport(began: clock.wallBegan, total: total, builds: builds, error: error)
    }
}
