#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The builds of one ``Container/start()``, recorded as each begins and ends, for its
/// ``StartupReport``. Eager services build concurrently, so the entries are under a lock;
/// a resolution holds the recorder in its state, with the index of the build whose factory is
/// running (see ``ResolutionState/building``), which is the parent of the builds it asks for.
final class BuildRecorder: Sendable {
    private struct Entry {
        let registration: Registration
        let parent: Int?
        let begin: ContinuousClock.Instant
        var elapsed: Duration?
        /// The elapsed time of the builds below this one, to take from its own.
        var below: Duration = .zero
        var error: (any Error)?
    }

    private let entries = Locked<[Entry]>([])
    let began = ContinuousClock.now
    let wallBegan = Date()

    /// Records that a build of `registration` began, below the build at `parent` (or none when
    /// negative); its index.
    func begin(_ registration: Registration, parent: Int) -> Int {
        let entry = Entry(registration: registration, parent: parent < 0 ? nil : parent, begin: ContinuousClock.now)
        return entries.withLock { entries in
            entries.append(entry)
            return entries.count - 1
        }
    }

    /// Records that the build at `index` ended `elapsed` after it began, failed with `error`.
    func end(_ index: Int, elapsed: Duration, error: (any Error)?) {
        entries.withLock { entries in
            entries[index].elapsed = elapsed
            entries[index].error = error
            if let parent = entries[index].parent { entries[parent].below += elapsed }
        }
    }

    /// The report of the start, which took `total` and failed with `error`, if it did.
    func report(total: Duration, error: (any Error)?) -> StartupReport {
        let entries = entries.withLock { $0 }
        var dependencies = Array(repeating: [String](), count: entries.count)
        for entry in entries {
            if let parent = entry.parent { dependencies[parent].append(entry.registration.shown) }
        }
        let builds = entries.indices.map { index in
            let entry = entries[index]
            // A build cut short by a failed start has no end: it counts until the report.
            let elapsed = entry.elapsed ?? (began + total - entry.begin)
            // Concurrent dependencies (`async let`) overlap: their sum may exceed the build.
            let own = max(.zero, elapsed - entry.below)
            return StartupReport.Build(
                service: entry.registration.key, name: entry.registration.name, scope: entry.registration.scope,
                offset: entry.begin - began, duration: own, elapsed: elapsed, parent: entry.parent,
                dependencies: dependencies[index], error: entry.error)
        }
        return StartupReport(began: wallBegan, total: total, builds: builds, error: error)
    }
}
