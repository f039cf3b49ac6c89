/// A stack whose top elements are moved out into an array, without the copy and release an
/// `Array` slice would cost. The YAML reader keeps the children of open collections on it.
final class MoveStack<Element> {
    private var base: UnsafeMutablePointer<Element>
    private var capacity: Int
    /// The number of elements on the stack.
    private(set) var count = 0

    init(capacity: Int = 256) {
        self.capacity = capacity
        base = .allocate(capacity: capacity)
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

    func append(_ element: consuming Element) {
        if count == capacity {
            let grown = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
            grown.moveInitialize(from: base, count: count)
            base.deallocate()
            base = grown
            capacity *= 2
        }
        (base + count).initialize(to: element)
        count += 1
    }

    /// The element at `index` (a copy).
    subscript(index: Int) -> Element {
        precondition(index >= 0 && index < count, "MoveStack index out of range")
        return base[index]
    }

    /// Moves the elements from `start` to the top into a new array, leaving `start` elements.
    func popArray(from start: Int) -> [Element] {
        precondition(start >= 0 && start <= count, "MoveStack start out of range")
        let moved = count - start
        guard moved > 0 else { return [] }
        // Reserving and appending is specialized for `Element`; `init(unsafeUninitializedCapacity:)`
        // looks up the array's storage type at run time, which costs more than the moves.
        var array = [Element]()
        array.reserveCapacity(moved)
        for index in start..<count { array.append((base + index).move()) }
        count = start
        return array
    }
}
