import Synchronization

/// What each Swift type resolves to, for one container: found once per type, then read by every
/// resolve without a lock.
///
/// What a type resolves to never changes for a container's life (a reset drops instances, not
/// declarations), so the table only grows. Readers find a type with atomic loads alone; a
/// writer, under a lock, stores the value before publishing its key, and grows the table by
/// publishing a bigger copy. Old copies stay allocated until the table is freed, so a reader
/// still probing one is never left with freed memory; together they are smaller than the
/// current one. Values are the container's own targets, held by the container: the table
/// stores them unretained, and reading one costs no reference counting.
///
/// What it buys: a `unique` resolve with three dependencies (four lookups here) takes about
/// 20 % fewer instructions than with a `Dictionary` behind a ``Locked`` mutex (callgrind, the
/// benchmark's row: about 7,800 against 9,700 instructions a resolve), and threads resolving at
/// once never take turns on a lock to find their type.
final class TargetTable: Sendable {
    /// What the table knows of a type.
    enum Lookup {
        /// Not looked up yet.
        case unknown
        /// Nothing is declared for it.
        case undeclared
        /// Its target.
        case target(Unmanaged<ResolutionTarget>)
    }

    /// One generation of the table: a capacity (a power of two), then that many keys and as
    /// many values, each an atomic word. A key of 0 is an empty slot; a value of 1 is "nothing
    /// declared".
    private struct Block {
        let base: UnsafeMutableRawPointer

        static func allocate(capacity: Int) -> Block {
            let words = 1 + 2 * capacity
            let base = UnsafeMutableRawPointer.allocate(byteCount: words * MemoryLayout<UInt>.stride, alignment: 64)
            base.storeBytes(of: UInt(capacity), as: UInt.self)
            let slots = (base + MemoryLayout<UInt>.stride).bindMemory(to: Atomic<UInt>.self, capacity: 2 * capacity)
            for index in 0..<(2 * capacity) { (slots + index).initialize(to: Atomic(0)) }
            return Block(base: base)
        }

        var capacity: Int { Int(base.load(as: UInt.self)) }
        private var slots: UnsafeMutablePointer<Atomic<UInt>> {
            (base + MemoryLayout<UInt>.stride).assumingMemoryBound(to: Atomic<UInt>.self)
        }
        func key(_ index: Int) -> UnsafeMutablePointer<Atomic<UInt>> { slots + index }
        func value(_ index: Int) -> UnsafeMutablePointer<Atomic<UInt>> { slots + capacity + index }

        func start(_ key: UInt) -> Int {
            Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 32) & (capacity - 1)
        }

        /// The slot of `key`, or of the empty slot where it would go.
        @inline(__always)
        func slot(of key: UInt) -> Int {
            var index = start(key)
            while true {
                let stored = self.key(index).pointee.load(ordering: .acquiring)
                if stored == key || stored == 0 { return index }
                index = (index + 1) & (capacity - 1)
            }
        }

        func deallocate() {
            let slots = self.slots
            for index in 0..<(2 * capacity) { _ = (slots + index).move() }
            base.deallocate()
        }
    }

    private struct Writer {
        var blocks: [Block] = []
        var count = 0
    }

    /// The current block's address, 0 before the first insertion.
    private let current = Atomic<UInt>(0)
    private let writer = Locked(Writer())

    init() {}

    deinit {
        writer.withLock { writer in writer.blocks.forEach { $0.deallocate() } }
    }

    /// What `type` resolves to, as far as the table knows.
    @inline(__always)
    func lookup(_ type: ObjectIdentifier) -> Lookup {
        let address = current.load(ordering: .acquiring)
        guard address != 0 else { return .unknown }
        let block = Block(base: UnsafeMutableRawPointer(bitPattern: address)!)
        let key = UInt(bitPattern: type)
        let index = block.slot(of: key)
        guard block.key(index).pointee.load(ordering: .acquiring) == key else { return .unknown }
        let value = block.value(index).pointee.load(ordering: .relaxed)
        guard value > 1 else { return .undeclared }
        return .target(Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: value)!))
    }

    /// Records what `type` resolves to; the first record of a type wins. `target` must be held
    /// by the container for its whole life.
    func insert(_ type: ObjectIdentifier, _ target: ResolutionTarget?) {
        let key = UInt(bitPattern: type)
        let value = target.map { UInt(bitPattern: Unmanaged.passUnretained($0).toOpaque()) } ?? 1
        writer.withLock { writer in
            var block = writer.blocks.last
            if let existing = block, existing.key(existing.slot(of: key)).pointee.load(ordering: .relaxed) == key { return }
            if block == nil || (writer.count + 1) * 2 > block!.capacity {
                let grown = Block.allocate(capacity: max(64, (block?.capacity ?? 0) * 2))
                if let old = block {
                    for index in 0..<old.capacity {
                        let oldKey = old.key(index).pointee.load(ordering: .relaxed)
                        guard oldKey != 0 else { continue }
                        let slot = grown.slot(of: oldKey)
                        grown.value(slot).pointee.store(old.value(index).pointee.load(ordering: .relaxed), ordering: .relaxed)
                        grown.key(slot).pointee.store(oldKey, ordering: .relaxed)
                    }
                }
                writer.blocks.append(grown)
                current.store(UInt(bitPattern: grown.base), ordering: .releasing)
                block = grown
            }
            let slot = block!.slot(of: key)
            block!.value(slot).pointee.store(value, ordering: .relaxed)
            block!.key(slot).pointee.store(key, ordering: .releasing)
            writer.count += 1
        }
    }
}
