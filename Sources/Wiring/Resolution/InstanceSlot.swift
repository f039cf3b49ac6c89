import Dispatch

/// A built instance handed between threads. Instances are whatever factories return; the
/// container hands the same instance to every thread that resolves a kept scope, as every DI
/// container does, so instances of kept scopes should be safe to share.
///
/// A class, so that the container's tables hold one pointer per instance and test for one
/// without calling into the runtime.
final class InstanceBox: @unchecked Sendable {
    let value: Any
    init(value: Any) { self.value = value }
}

/// A weak reference to an instance of the `shared` scope.
final class WeakInstance: @unchecked Sendable {
    weak var object: AnyObject?
    init(_ object: AnyObject) { self.object = object }
}

/// Where one registration keeps its instance, for the scopes that keep one (`singleton`,
/// `cached`, `shared`, custom scopes).
///
/// A factory runs without any lock held, so a slow factory blocks nobody but the threads that
/// wait for that same instance; those wait, and get the instance the first thread built, so the
/// factory runs exactly once. A thread that finds the instance being built by a thread that
/// (directly or through others) waits for it gets a circular-dependency error, not a deadlock.
///
/// A struct over its one locked state: copies are the same slot, and a slot costs a single
/// allocation (the state and its mutex together).
struct InstanceSlot: Sendable {
    enum State {
        case empty
        case building(token: ObjectIdentifier, done: DispatchGroup)
        case built(InstanceBox, expires: ContinuousClock.Instant?)
        case weak(WeakInstance)
    }

    private let state = Locked<State>(.empty)

    /// What a resolve finds in the slot.
    enum Lookup {
        case instance(Any)
        /// The caller builds; it must call ``finish(_:expires:weakly:)`` or ``abandon()``.
        case build
        /// Another resolution is building; wait on the group, then look again.
        case wait(DispatchGroup, builder: ObjectIdentifier)
    }

    /// The kept instance, if valid at `now`; otherwise claims the build for `token`.
    func lookup(token: ObjectIdentifier, now: ContinuousClock.Instant?) -> Lookup {
        state.withLock { state in
            switch state {
            case .built(let box, let expires):
                if let expires, let now, now >= expires { break }
                return .instance(box.value)
            case .weak(let reference):
                if let object = reference.object { return .instance(object) }
            case .building(let builder, let done):
                return .wait(done, builder: builder)
            case .empty:
                break
            }
            let done = DispatchGroup()
            done.enter()
            state = .building(token: token, done: done)
            return .build
        }
    }

    /// The kept instance, if any, without claiming anything: the fast path of a resolve.
    func current(now: @autoclosure () -> ContinuousClock.Instant?) -> Any? {
        state.withLock { state in
            switch state {
            case .built(let box, nil): return box.value
            case .built(let box, let expires?):
                if let now = now(), now >= expires { return nil }
                return box.value
            case .weak(let reference): return reference.object
            default: return nil
            }
        }
    }

    /// Stores the instance the caller built and wakes the waiters.
    func finish(_ instance: Any, expires: ContinuousClock.Instant?, weakly: Bool) {
        let done: DispatchGroup? = state.withLock { state in
            guard case .building(_, let done) = state else { return nil }
            if weakly {
                // `shared` keeps class instances weakly; a value cannot be held weakly, so it
                // is not kept at all (as in Resolver): each resolve builds a new one.
                state = Swift.type(of: instance) is AnyClass ? .weak(WeakInstance(instance as AnyObject)) : .empty
            } else {
                state = .built(InstanceBox(value: instance), expires: expires)
            }
            return done
        }
        done?.leave()
    }

    /// Gives up a build that failed: nothing is kept, and the next resolve builds again.
    func abandon() {
        let done: DispatchGroup? = state.withLock { state in
            guard case .building(_, let done) = state else { return nil }
            state = .empty
            return done
        }
        done?.leave()
    }

    /// Drops the kept instance (a build under way finishes and is kept).
    func reset() {
        state.withLock { state in
            if case .building = state { return }
            state = .empty
        }
    }

    /// The resolution building the instance, if one is.
    var builder: ObjectIdentifier? {
        state.withLock { state in
            if case .building(let token, _) = state { return token }
            return nil
        }
    }
}

/// Which resolution waits for which slot, to turn a cycle across threads into an error.
enum WaitGraph {
    private static let waiting = Locked<[ObjectIdentifier: InstanceSlot]>([:])

    /// Records that `token` waits for `slot`, unless following the builders from `slot` leads
    /// back to `token` (a cycle), in which case nothing is recorded and `false` is returned.
    static func beginWaiting(_ token: ObjectIdentifier, for slot: InstanceSlot) -> Bool {
        waiting.withLock { waiting in
            var current: InstanceSlot? = slot
            var hops = 0
            while let next = current, let builder = next.builder, hops < 10_000 {
                if builder == token { return false }
                current = waiting[builder]
                hops += 1
            }
            waiting[token] = slot
            return true
        }
    }

    static func endWaiting(_ token: ObjectIdentifier) {
        _ = waiting.withLock { $0.removeValue(forKey: token) }
    }
}
