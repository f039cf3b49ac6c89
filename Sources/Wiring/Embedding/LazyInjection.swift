#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// Holds a lazy wrapper's value, resolved on its first read, exactly once however many threads
/// read it at that moment.
///
/// The first read claims a slot of the wrapper's own, as a resolution claims a kept service's,
/// under the token of the resolution it resolves in: the one building on its thread, which it
/// joins, else one of its own. Readers at the same moment wait for that one result, or take its
/// error (a later read tries again). The wait is recorded in the container's wait graph, so a
/// cycle through lazy wrappers and kept services across threads is an error, not a deadlock.
/// Once resolved, a read is one atomic load.
@usableFromInline
final class LazyInjection<Stored>: @unchecked Sendable {
    /// The resolved value, in a class so that it is published with one atomic store.
    private final class Box {
        let value: Stored
        init(_ value: Stored) { self.value = value }
    }
    /// What the wrapper resolves a value with, in a resolution: `Container.resolve(_:name:in:)`.
    @usableFromInline typealias Make = (Container, String?, ResolutionState) throws(ResolutionError) -> Stored

    private let resolved = OnceReference<Box>()
    /// The slot first readers meet in, made by the first of them.
    private let claims = OnceReference<Claims>()
    private final class Claims {
        let slot = InstanceSlot()
    }
    /// The thread resolving the value (its ``ThreadState``'s address), 0 when none is: a read
    /// from that thread is a cycle wherever the wait graph cannot see it (a factory that
    /// resolves through another container).
    private let resolvingThread = Atomic<UInt>(0)
    private let waiting = Atomic<Int>(0)
    @usableFromInline let settings: InjectionSettings
    private let make: Make

    @usableFromInline
    init(name: String?, container: Container?, _ make: @escaping Make) {
        settings = InjectionSettings(name: name, container: container ?? Container.current)
        self.make = make
    }

    /// How many readers wait for the first read's result now: what a test waits for to be
    /// sure that readers met (the reference model's).
    var waitingReaders: Int { waiting.load(ordering: .acquiring) }

    /// The value, resolved on the first read; stops the program with the error's message when
    /// it cannot be resolved, as a failed injection does.
    @usableFromInline
    var value: Stored {
        if let box = resolved.loadUnmanaged() { return box.takeUnretainedValue().value }
        return firstRead()
    }

    @inline(never)
    private func firstRead() -> Stored {
        let (name, chosen, released) = settings.fix()
        if released {
            preconditionFailure("Wiring: cannot inject \(Stored.self) lazily: the container it resolves from was released before its first read; keep the container for as long as its instances read lazily injected properties")
        }
        let container = chosen ?? Container.shared
        switch read(from: container, name: name) {
        case .success(let value):
            return value
        case .failure(let error):
            container.stopInjecting(Stored.self, error)
        }
    }

    /// The value, resolved from `container` unless it already was: this read's own result, the
    /// one a read at the same moment resolved, or the error that read met.
    func read(from container: Container, name: String?) -> Result<Stored, ResolutionError> {
        if let box = resolved.load() { return .success(box.value) }
        do throws(ResolutionError) {
            return .success(try container.withWrapperResolution { state throws(ResolutionError) in
                try resolveOnce(from: container, name: name, in: state)
            })
        } catch {
            return .failure(error)
        }
    }

    private func resolveOnce(from container: Container, name: String?, in state: ResolutionState) throws(ResolutionError) -> Stored {
        let slot = (claims.load() ?? claims.storeIfNil(Claims())).slot
        let thread = ThreadState.withCurrent { UInt(bitPattern: Unmanaged.passUnretained($0).toOpaque()) }
        while true {
            if let box = resolved.load() { return box.value }
            switch slot.lookup(token: state.token, now: nil) {
            case .instance, .ended:
                // Resolved between the load above and the lookup (the slot's own table never ends).
                continue
            case .build:
                resolvingThread.store(thread, ordering: .releasing)
                defer { resolvingThread.store(0, ordering: .releasing) }
                let value: Stored
                do {
                    value = try make(container, name, state)
                } catch {
                    slot.abandon(failing: error)
                    throw error
                }
                let box = resolved.storeIfNil(Box(value))
                slot.finish(box, expires: nil, weakly: false)
                return box.value
            case .wait(let build):
                guard resolvingThread.load(ordering: .acquiring) != thread, WaitGraph.beginWaiting(state, for: slot) else {
                    throw container.lazyCycle(Stored.self, state: state)
                }
                waiting.add(1, ordering: .releasing)
                slot.waitSynchronously(for: build)
                waiting.subtract(1, ordering: .releasing)
                WaitGraph.endWaiting(state)
                if let failure = slot.failure(of: build) { throw failure }
            }
        }
    }
}
