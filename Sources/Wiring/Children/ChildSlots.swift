/// A child container's slots for the registrations it keeps, by place, made a block of
/// ``blockSize`` at a time when one of the block's registrations is first resolved.
///
/// A child of a 10,000-service container keeps about 6,000 registrations' instances; one table
/// of them all, made with the child, cost 26 µs of the 33 µs a child with three overrides took
/// to make (7.0 µs at 500 services, the rest). With blocks made on first use, making the child
/// costs one word per block, 7.0 µs at either size, and a test that resolves ten services makes
/// a few blocks (`WiringBenchmarks children`). A resolve through the child reads one more
/// pointer than through its parent. Unchecked: the blocks are set once each, atomically, and
/// never changed after.
final class ChildSlots: @unchecked Sendable {
    static let blockSize = 64

    /// One slot table per block, once made.
    private final class Block: Sendable {
        let table = SlotTable(count: ChildSlots.blockSize)
    }

    private let blocks: UnsafeMutablePointer<OnceReference<Block>>
    private let blockCount: Int

    /// Room for `count` slots, none made yet.
    init(count: Int) {
        blockCount = (count + Self.blockSize - 1) / Self.blockSize
        blocks = .allocate(capacity: blockCount)
        for index in 0..<blockCount { (blocks + index).initialize(to: OnceReference()) }
    }

    deinit {
        blocks.deinitialize(count: blockCount)
        blocks.deallocate()
    }

    /// Drops every kept instance (a build under way finishes and is kept).
    func resetAll() {
        for index in 0..<blockCount {
            guard let block = blocks[index].load() else { continue }
            for place in 0..<Self.blockSize { InstanceSlot(block.table, at: place).reset() }
        }
    }

    /// The instance the slot at `place` keeps, if any (see ``InstanceSlot/current(now:)``); a
    /// block not made yet keeps nothing, and is not made.
    @inline(__always)
    func current(at place: Int, now: Duration?) -> Any? {
        guard let made = blocks[place / Self.blockSize].loadUnmanaged() else { return nil }
        // Read in the block's table, not through a slot made for it: a slot counts a reference
        // to the table (a named singleton through a child: 1.11× its parent's resolve with it).
        return made._withUnsafeGuaranteedRef { block in
            block.table.withLock { _, states in InstanceSlot.instance(in: states[place % Self.blockSize], now: now) }
        }
    }

    /// The slot at `place`, its block made if it was not.
    @inline(__always)
    func slot(at place: Int) -> InstanceSlot {
        let block = blocks + place / Self.blockSize
        let made = block.pointee.loadUnmanaged() ?? Unmanaged.passUnretained(block.pointee.storeIfNil(Block()))
        return made._withUnsafeGuaranteedRef { InstanceSlot($0.table, at: place % Self.blockSize) }
    }
}
