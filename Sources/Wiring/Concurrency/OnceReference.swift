import Synchronization

/// A reference set once, then read without a lock: what `AtomicLazyReference` does, in this
/// module. The standard library's type is generic code in another module, so each `load()`
/// runs unspecialized: 644 instructions per read (callgrind), on every argument a factory
/// reads. This one is specialized where it is used, and a read is an atomic load.
///
/// Stored inline (it cannot be copied); it releases what it holds when its owner goes.
struct OnceReference<Instance: AnyObject>: ~Copyable, @unchecked Sendable {
    /// The instance's address, retained; 0 until set.
    private let bits = Atomic<UInt>(0)

    init() {}

    /// The instance, if set.
    @inline(__always)
    func load() -> Instance? {
        loadUnmanaged()?.takeUnretainedValue()
    }

    /// The instance, if set, not counted: it lives as long as this reference does. Reading
    /// through it saves a retain and a release on every argument a factory reads.
    @inline(__always)
    func loadUnmanaged() -> Unmanaged<Instance>? {
        let raw = bits.load(ordering: .acquiring)
        guard raw != 0, let pointer = UnsafeRawPointer(bitPattern: raw) else { return nil }
        return Unmanaged<Instance>.fromOpaque(pointer)
    }

    /// Drops the instance, if set, so that it can be set again: for an owner that no other
    /// thread can reach.
    func clear() {
        let raw = bits.exchange(0, ordering: .acquiringAndReleasing)
        if raw != 0, let pointer = UnsafeRawPointer(bitPattern: raw) { Unmanaged<Instance>.fromOpaque(pointer).release() }
    }

    /// Sets `instance` unless another was set first; returns the one that is set.
    func storeIfNil(_ instance: Instance) -> Instance {
        let retained = Unmanaged.passRetained(instance)
        let raw = UInt(bitPattern: retained.toOpaque())
        if bits.compareExchange(expected: 0, desired: raw, ordering: .acquiringAndReleasing).exchanged { return instance }
        retained.release()
        return load()!
    }

    deinit {
        let raw = bits.load(ordering: .acquiring)
        if raw != 0, let pointer = UnsafeRawPointer(bitPattern: raw) { Unmanaged<Instance>.fromOpaque(pointer).release() }
    }
}
