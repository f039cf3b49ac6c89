import Dispatch

/// A built instance handed between threads. Instances are whatever factories return; the
/// container hands the same instance to every thread that resolves a kept scope, as every DI
/// container does, so instances of kept scopes should be safe to share.
///
/// A class, so that the container's tables hold one pointer per instance and test for one
/// without calling into the runtime. A scope's instance with shutdown hooks is a
/// ``RecordedInstance``, which records them.
class InstanceBox: @unchecked Sendable {
    let value: Any
    init(value: Any) { self.value = value }
}

/// A weak reference to an instance of the `shared` scope.
final class WeakInstance: @unchecked Sendable {
    weak var object: AnyObject?
    init(_ object: AnyObject) { self.object = object }
}

/// Where one registration keeps its instance, for the scopes that keep one (`singleton`,
/// `cached`, `shared`, `scoped`, custom scopes).
///
/// A factory runs without any lock held, so a slow factory blocks nobody but the resolutions
/// that wait for that same instance; those wait, and get the instance the first one built, so
/// the factory runs exactly once. A synchronous resolve waits on a `DispatchGroup` (only for a
/// synchronous build: an async service is never waited for synchronously); an `await`ed one
/// suspends, and its task's cancellation ends its own wait only. A resolution that finds the
/// instance being built by one that (directly or through others) waits for it gets a
/// circular-dependency error, not a deadlock.
///
/// A struct over one state of a ``SlotTable``: copies are the same slot. A kept service's slot
/// is a table of its own (one allocation, the state and its mutex together); a scope's slots
/// share the scope's table.
struct InstanceSlot: Sendable {
    enum State {
        case empty
        /// Built by the resolution `token`; `waiters` is made by the first waiter.
        case building(token: ObjectIdentifier, waiters: Build?)
        /// `expires` is a ``Expiry`` offset, not a `ContinuousClock.Instant`: the instant's
        /// layout is not fixed at compile time, and an enum holding one copies its cases
        /// through runtime calls on every resolve of the slot (about 10 % of a request through a
        /// scope). The instance is boxed for the same reason: an `Any` in a case makes every
        /// copy and every match of the state go through value witnesses, where a box is a
        /// reference count.
        case built(InstanceBox, expires: Duration?)
        /// A scope's class instance without hooks, held as itself: no box to allocate and free
        /// (7 % fewer instructions for the notes server's request, whose scoped instances are
        /// such; `WiringBenchmarks --profile-requests N served`).
        case object(AnyObject)
        case weak(WeakInstance)

        var isBuilding: Bool {
            if case .building = self { return true }
            return false
        }

        /// A scope's instance without hooks: a class instance (`asObject`) as itself, anything
        /// else boxed.
        static func scoped(_ instance: Any, asObject: Bool) -> State {
            asObject ? .object(Container.object(in: instance)) : .built(InstanceBox(value: instance), expires: nil)
        }
    }

    /// Who waits for a build under way. Most builds have no waiter: the first waiter makes
    /// it, and the parts of each kind of waiter are made by the first of that kind.
    final class Build: @unchecked Sendable {
        /// Made, and entered, by the first synchronous waiter; left when the build ends.
        /// Changed only under the slot's lock.
        var done: DispatchGroup?
        /// Suspended waiters, by number; changed only under the slot's lock.
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var nextWaiter = 0
        /// The instance being built while its property hooks run (see ``InstanceSlot/offer(_:by:)``).
        /// Changed only under the slot's lock.
        var offered: Any?
        /// The offered instance, handed to every resolution that looks the slot up until the
        /// build ends, once a cycle across threads went through this build (see
        /// ``InstanceSlot/handOverOffer()``): the build is then waited for by no one.
        var partial: Any?
        /// The error the build failed with, for waiters that take it instead of building again
        /// (a lazy wrapper's readers: see ``InstanceSlot/abandon(failing:)``).
        var failure: ResolutionError?

        /// Wakes every waiter: called once, after the slot left `.building(self)`.
        func end(_ done: DispatchGroup?, _ waiting: [CheckedContinuation<Void, Never>]) {
            done?.leave()
            for waiter in waiting { waiter.resume() }
        }
    }

    private let table: SlotTable
    private let index: Int

    /// A slot of its own.
    init() {
        table = SlotTable(count: 1)
        index = 0
    }

    /// Slot `index` of `table`.
    init(_ table: SlotTable, at index: Int) {
        self.table = table
        self.index = index
    }

    /// Runs `body` with the slot's state while holding its table's lock.
    @inline(__always)
    private func withState<R>(_ body: (inout State) throws -> R) rethrows -> R {
        try table.withLock { _, states in try body(&states[index]) }
    }

    /// What a resolve finds in the slot.
    enum Lookup {
        case instance(Any)
        /// The caller builds; it must call ``finish(_:expires:weakly:)`` (``finish(scoped:of:layers:)`` in a scope) or ``abandon()``.
        case build
        /// The slot is a scope's, and the scope has ended.
        case ended
        /// Another resolution is building; wait for it, then look again.
        case wait(Build)
    }

    /// The kept instance, if valid at `now` (an ``Expiry`` offset; `nil` for a slot whose
    /// instances never expire); otherwise claims the build for `token`.
    func lookup(token: ObjectIdentifier, now: Duration?) -> Lookup {
        table.withLock { header, states in
            if header.ended { return .ended }
            let state = states + index
            switch state.pointee {
            case .built(let box, let expires):
                if let expires, let now, now >= expires { break }
                return .instance(box.value)
            case .object(let object):
                return .instance(object)
            case .weak(let reference):
                if let object = reference.object { return .instance(object) }
            case .building(let builder, let waiters):
                if let partial = waiters?.partial { return .instance(partial) }
                if let waiters { return .wait(waiters) }
                let build = Build()
                state.pointee = .building(token: builder, waiters: build)
                return .wait(build)
            case .empty:
                break
            }
            state.pointee = .building(token: token, waiters: nil)
            return .build
        }
    }

    /// The kept instance, if any, without claiming anything: the fast path of a resolve.
    func current(now: @autoclosure () -> Duration?) -> Any? {
        withState { state in Self.instance(in: state, now: now()) }
    }

    /// The instance `state` holds, if valid at `now`.
    @inline(__always)
    static func instance(in state: State, now: @autoclosure () -> Duration?) -> Any? {
        switch state {
        case .built(let box, nil): return box.value
        case .built(let box, let expires?):
            if let now = now(), now >= expires { return nil }
            return box.value
        case .object(let object): return object
        case .weak(let reference): return reference.object
        default: return nil
        }
    }

    /// Stores the instance the caller built in a scope's slot and wakes the waiters. When its
    /// service has shutdown hooks (the factory's alone for a plain build, `nil` `layers`; a
    /// decorated build's `layers`), the instance is recorded in the scope's table in the same
    /// critical section. A scope that ended while the instance was built keeps nothing.
    func finish(scoped instance: Any, of registration: Registration, layers: [KeptInstances.Hook]?) {
        end { header, state in
            if header.ended {
                state = .empty
            } else if registration.hasShutdownHooks {
                let recorded = RecordedInstance(instance, of: registration, layers: layers, previous: header.newestRecorded)
                header.newestRecorded = recorded
                state = .built(recorded, expires: nil)
            } else {
                state = .scoped(instance, asObject: registration.buildsObject)
            }
        }
    }

    /// What ``seed(_:asObject:)`` found in a scope's slot.
    enum Seeding {
        case seeded
        /// The slot holds an instance, or one is being built.
        case occupied
        case ended
    }

    /// Stores `instance`, made by the caller, in an empty slot of a scope: no hooks are
    /// recorded for it. `asObject`: the instance is a class instance, held without a box.
    func seed(_ instance: Any, asObject: Bool) -> Seeding {
        table.withLock { header, states in
            if header.ended { return .ended }
            guard case .empty = states[index] else { return .occupied }
            states[index] = .scoped(instance, asObject: asObject)
            return .seeded
        }
    }

    /// Stores the instance the caller built and wakes the waiters.
    func finish(_ instance: Any, expires: Duration?, weakly: Bool) {
        end { _, state in
            if weakly {
                // `shared` keeps class instances weakly; a value cannot be held weakly, so it
                // is not kept at all (as in Resolver): each resolve builds a new one.
                state = Swift.type(of: instance) is AnyClass ? .weak(WeakInstance(instance as AnyObject)) : .empty
            } else {
                state = .built(InstanceBox(value: instance), expires: expires)
            }
        }
    }

    /// Gives up a build that failed: nothing is kept, and the next resolve builds again.
    func abandon() {
        end { _, state in state = .empty }
    }

    /// Gives up a build that failed with `error`, which its waiters take (``failure(of:)``)
    /// instead of building again; the next lookup builds again.
    func abandon(failing error: ResolutionError) {
        withState { state in
            if case .building(_, let build?) = state { build.failure = error }
        }
        abandon()
    }

    /// The error `build` failed with, when it was given up with ``abandon(failing:)``.
    func failure(of build: Build) -> ResolutionError? {
        withState { _ in build.failure }
    }

    private func end(_ update: (inout SlotTable.Header, inout State) -> Void) {
        let ended: (Build, DispatchGroup?, [CheckedContinuation<Void, Never>])? = table.withLock { header, states in
            guard case .building(_, let waiters) = states[index] else { return nil }
            update(&header, &states[index])
            guard let build = waiters, build.done != nil || !build.waiters.isEmpty else { return nil }
            defer { build.waiters = [:] }
            return (build, build.done, Array(build.waiters.values))
        }
        if let (build, done, waiting) = ended { build.end(done, waiting) }
    }

    /// Offers `instance`, whose factory returned, while its property hooks run in the
    /// resolution `builder` (its states' tokens) that builds this slot; `nil` withdraws the
    /// offer once they ran. A resolution whose wait would close a cycle across threads through
    /// this build takes it (``handOverOffer()``), so that two threads entering a cycle of
    /// property hooks from both ends finish instead of failing.
    func offer(_ instance: Any?, by builder: Set<ObjectIdentifier>) {
        table.withLock { _, states in
            guard case .building(let token, let waiters) = states[index], builder.contains(token) else { return }
            let build = waiters ?? Build()
            states[index] = .building(token: token, waiters: build)
            build.offered = instance
        }
    }

    /// Hands the instance offered by the build under way to its waiters and to every lookup
    /// until the build ends; whether there was one to hand.
    func handOverOffer() -> Bool {
        let woken: (DispatchGroup?, [CheckedContinuation<Void, Never>])? = table.withLock { _, states in
            guard case .building(_, let build?) = states[index], build.partial == nil, let offered = build.offered else { return nil }
            build.partial = offered
            defer {
                build.done = nil
                build.waiters = [:]
            }
            return (build.done, Array(build.waiters.values))
        }
        guard let (done, waiting) = woken else { return false }
        done?.leave()
        for waiter in waiting { waiter.resume() }
        return true
    }

    /// Blocks the calling thread until `build` (a synchronous build) ends, or hands its
    /// instance over.
    func waitSynchronously(for build: Build) {
        let done: DispatchGroup? = withState { state in
            guard case .building(_, let current?) = state, current === build, build.partial == nil else { return nil }
            if let done = build.done { return done }
            let done = DispatchGroup()
            done.enter()
            build.done = done
            return done
        }
        done?.wait()
    }

    /// Suspends until `build` ends, or until the task is cancelled (then throws
    /// `CancellationError`; the build goes on for the others).
    func wait(for build: Build) async throws {
        let number: Int = withState { _ in
            defer { build.nextWaiter += 1 }
            return build.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
                let resumeNow: Bool = withState { state in
                    // Cancellation is flagged before its handler runs, so a cancelled task
                    // either sees the flag here or is resumed by the handler.
                    guard case .building(_, let current?) = state, current === build, build.partial == nil, !Task.isCancelled else {
                        return true
                    }
                    build.waiters[number] = waiter
                    return false
                }
                if resumeNow { waiter.resume() }
            }
        } onCancel: {
            let waiter = withState { _ in build.waiters.removeValue(forKey: number) }
            waiter?.resume()
        }
        try Task.checkCancellation()
    }

    /// Drops the kept instance (a build under way finishes and is kept).
    func reset() {
        withState { state in
            if case .building = state { return }
            state = .empty
        }
    }

    /// Drops the kept instance; when one is being built, drops nothing and returns the build,
    /// to wait for before expiring the slot again.
    func expire() -> Build? {
        table.withLock { _, states in
            switch states[index] {
            case .building(let token, let waiters):
                if let waiters { return waiters }
                let build = Build()
                states[index] = .building(token: token, waiters: build)
                return build
            default:
                states[index] = .empty
                return nil
            }
        }
    }

    /// The resolution building the instance, if one is and has not handed it over (a build
    /// handed over is waited for by no one).
    var builder: ObjectIdentifier? {
        withState { state in
            if case .building(let token, let waiters) = state, waiters?.partial == nil { return token }
            return nil
        }
    }
}
