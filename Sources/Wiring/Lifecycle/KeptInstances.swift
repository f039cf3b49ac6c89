/// The kept instances that have shutdown hooks, in the order their builds ended: a
/// container's (singleton, cached, shared and custom scopes) or a ``ContainerScope``'s.
///
/// A build ends after its dependencies' builds, so running the hooks in reverse shuts down
/// each instance before what it depends on.
final class KeptInstances: Sendable {
    /// One hook and the instance it shuts down.
    struct Hook: @unchecked Sendable {
        let run: ShutdownHook
        let instance: Any
    }

    /// A built instance's hooks, the factory's first and its outermost decorator's last.
    struct Record: @unchecked Sendable {
        let registration: Registration
        let hooks: [Hook]
        /// For `shared`: the instance, held weakly; its hooks run only if something still holds it.
        let weakInstance: WeakInstance?
        /// How many records were added before this one.
        var sequence = 0
    }

    private let records = Locked<(all: [Record], added: Int)>(([], 0))
    /// How many times the instance kept at each place was built, for ``Container/snapshot()``:
    /// by place, as the container's slots are, so that counting hashes nothing.
    private let builds = Locked<[Int]>([])

    /// Counts a build of the instance kept at `place`.
    func noteBuilt(at place: Int) {
        builds.withLock { counts in
            if counts.count <= place { counts += repeatElement(0, count: place + 1 - counts.count) }
            counts[place] += 1
        }
    }

    /// How many times the instance kept at `place` was built.
    func buildCount(at place: Int) -> Int {
        builds.withLock { place < $0.count ? $0[place] : 0 }
    }

    /// How many records were added so far: a record added later has this sequence or more.
    var added: Int { records.withLock { $0.added } }

    /// Records the hooks of an instance just built.
    func add(_ registration: Registration, hooks: [Hook], weakly: Bool) {
        guard !hooks.isEmpty else { return }
        var record: Record
        if weakly, let object = hooks.last.map({ $0.instance as AnyObject }), type(of: hooks.last!.instance) is AnyClass {
            // Held weakly, as the scope does: the hooks keep the layers, not the instance.
            record = Record(registration: registration, hooks: hooks.map { Hook(run: $0.run, instance: WeakInstance($0.instance as AnyObject)) },
                            weakInstance: WeakInstance(object))
        } else {
            record = Record(registration: registration, hooks: hooks, weakInstance: nil)
        }
        records.withLock { records in
            record.sequence = records.added
            records.added += 1
            records.all.append(record)
        }
    }

    /// Every record, oldest first, leaving none.
    func takeAll() -> [Record] {
        records.withLock { records in
            defer { records.all = [] }
            return records.all
        }
    }

    /// The records of the registrations in `before` added before the sequence each maps to,
    /// oldest first, leaving the others.
    func take(before: [ObjectIdentifier: Int]) -> [Record] {
        guard !before.isEmpty else { return [] }
        return records.withLock { records in
            var taken: [Record] = []
            records.all.removeAll { record in
                guard let end = before[ObjectIdentifier(record.registration)], record.sequence < end else { return false }
                taken.append(record)
                return true
            }
            return taken
        }
    }

    /// Runs every record's hooks, newest record first and, within one, the outermost layer
    /// first; each hook within its service's timeout (or `defaultTimeout`). Returns each hook
    /// run, timed from `since`.
    static func shutDown(_ records: [Record], defaultTimeout: Duration, since: ContinuousClock.Instant) async -> [ShutdownReport.Hook] {
        var ran: [ShutdownReport.Hook] = []
        for record in records.reversed() {
            if let weak = record.weakInstance, weak.object == nil { continue }
            let timeout = record.registration.shutdownTimeout ?? defaultTimeout
            for hook in record.hooks.indices.reversed() {
                let began = ContinuousClock.now
                let failure: (any Error)?
                if case .timed(let run) = record.hooks[hook].run {
                    guard let instance = record.instance(of: record.hooks[hook]) else { continue }
                    failure = await HookRun.run(run, on: instance, timeout: timeout)
                } else {
                    failure = record.runInPlace(hook)
                }
                let registration = record.registration
                ran.append(ShutdownReport.Hook(service: registration.id, location: registration.location,
                                               offset: began - since, duration: .now - began, error: failure))
            }
        }
        return ran
    }

    /// Runs a synchronous hook; what it threw, if anything.
    static func run(_ hook: @Sendable (Any) throws -> Void, on instance: Any) -> (any Error)? {
        do {
            try hook(instance)
            return nil
        } catch {
            return error
        }
    }
}

extension KeptInstances.Record {
    /// Runs the synchronous hook at `index`; what it threw, if anything.
    func runInPlace(_ index: Int) -> (any Error)? {
        guard case .immediate(let run) = hooks[index].run else { return nil }
        guard weakInstance != nil else { return KeptInstances.run(run, on: hooks[index].instance) }
        guard let instance = instance(of: hooks[index]) else { return nil }
        return KeptInstances.run(run, on: instance)
    }

    /// The instance `hook` shuts down; `nil` when it was held weakly and is gone.
    func instance(of hook: KeptInstances.Hook) -> Any? {
        // Only a weakly held record's hooks hold `WeakInstance`s: other records skip the cast.
        if weakInstance != nil, let weak = hook.instance as? WeakInstance { return weak.object }
        return hook.instance
    }

    /// `error`, thrown by one of this record's hooks, as a shutdown failure.
    func failure(_ error: any Error) -> ShutdownError.Failure {
        registration.shutdownFailure(error)
    }
}

/// One shutdown hook run against its timeout. The hook runs in a task of its own: one that
/// overruns is cancelled and left behind, so that a hook that ignores cancellation cannot hold
/// up the rest of the shutdown.
private final class HookRun: @unchecked Sendable {
    private let outcome = Locked<(continuation: CheckedContinuation<(any Error)?, Never>?, timer: Task<Void, Never>?)>((nil, nil))

    private init() {}

    static func run(_ hook: @escaping @Sendable (Any) async throws -> Void, on instance: Any, timeout: Duration) async -> (any Error)? {
        let run = HookRun()
        let box = UncheckedInstance(value: instance)
        return await withCheckedContinuation { continuation in
            run.outcome.withLock { $0.continuation = continuation }
            let work = Task {
                do {
                    try await hook(box.value)
                    run.end(nil)
                } catch {
                    run.end(error)
                }
            }
            let timer = Task {
                // The sleep throws only when the timer is cancelled: the hooks ended in time.
                guard (try? await Task.sleep(for: timeout)) != nil else { return }
                if run.end(ShutdownError.TimedOut(timeout: timeout)) { work.cancel() }
            }
            run.outcome.withLock { $0.timer = timer }
        }
    }

    /// Resumes the waiting shutdown with `error`, if nothing did yet.
    @discardableResult
    private func end(_ error: (any Error)?) -> Bool {
        let (continuation, timer) = outcome.withLock { outcome in
            defer { outcome.continuation = nil }
            return (outcome.continuation, outcome.timer)
        }
        guard let continuation else { return false }
        if error == nil || !(error is ShutdownError.TimedOut) { timer?.cancel() }
        continuation.resume(returning: error)
        return true
    }
}

/// An instance handed to the task that runs its hook: the container built it for sharing
/// across tasks.
private struct UncheckedInstance: @unchecked Sendable {
    let value: Any
}
