#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A growable run of plain values (no references) in memory that its owner frees, for the
/// arrays of a ``NodeStore``.
///
/// A store's slots and bytes are read and appended a few hundred thousand times a load. An
/// array held by a class costs a retain and a release of its buffer for most of those reads,
/// and a uniqueness check for each append; this buffer costs neither, and still checks every
/// index. Its owner frees it once (``deallocate()``); copies of it only read.
///
/// Its memory comes from `realloc`, which the elements (plain bytes) allow: growing often
/// extends the block where it is, and trimming always shrinks it there, where a fresh block
/// would copy every element.
struct PlainBuffer<Element: BitwiseCopyable> {
    private var base: UnsafeMutablePointer<Element>?
    private(set) var count = 0
    private(set) var capacity = 0

    init() {}

    @inline(__always)
    subscript(position: Int) -> Element {
        get {
            precondition(UInt(bitPattern: position) < UInt(bitPattern: count), "index out of range")
            return base.unsafelyUnwrapped[position]
        }
        set {
            precondition(UInt(bitPattern: position) < UInt(bitPattern: count), "index out of range")
            base.unsafelyUnwrapped[position] = newValue
        }
    }

    @inline(__always)
    mutating func append(_ element: Element) {
        if count == capacity { grow(toAtLeast: count + 1) }
        (base.unsafelyUnwrapped + count).initialize(to: element)
        count += 1
    }

    @inline(__always)
    mutating func append(contentsOf elements: UnsafeBufferPointer<Element>) {
        guard let source = elements.baseAddress, !elements.isEmpty else { return }
        if capacity - count < elements.count { grow(toAtLeast: count + elements.count) }
        let destination = base.unsafelyUnwrapped + count
        let length = elements.count * MemoryLayout<Element>.stride
        if length <= 16 {
            Self.copyShort(length, from: UnsafeRawPointer(source), to: UnsafeMutableRawPointer(destination))
        } else {
            destination.initialize(from: source, count: elements.count)
        }
        count += elements.count
    }

    /// Copies `length` bytes, 1 to 16, without a call: most runs appended are a short
    /// scalar's bytes (about 170,000 a 10,000-service load), for which calling `memcpy` cost
    /// more than the copy. Two loads and two stores, overlapping when `length` is not a power
    /// of two.
    @inline(__always)
    private static func copyShort(_ length: Int, from source: UnsafeRawPointer, to destination: UnsafeMutableRawPointer) {
        if length >= 8 {
            let (head, tail) = (source.loadUnaligned(as: UInt64.self), source.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self))
            destination.storeBytes(of: head, as: UInt64.self)
            destination.storeBytes(of: tail, toByteOffset: length - 8, as: UInt64.self)
        } else if length >= 4 {
            let (head, tail) = (source.loadUnaligned(as: UInt32.self), source.loadUnaligned(fromByteOffset: length - 4, as: UInt32.self))
            destination.storeBytes(of: head, as: UInt32.self)
            destination.storeBytes(of: tail, toByteOffset: length - 4, as: UInt32.self)
        } else {
            // 1 to 3 bytes: the first, the middle and the last (some of them the same).
            let (first, middle, last) = (
                source.load(as: UInt8.self), source.load(fromByteOffset: length / 2, as: UInt8.self),
                source.load(fromByteOffset: length - 1, as: UInt8.self))
            destination.storeBytes(of: first, as: UInt8.self)
            destination.storeBytes(of: middle, toByteOffset: length / 2, as: UInt8.self)
            destination.storeBytes(of: last, toByteOffset: length - 1, as: UInt8.self)
        }
    }

    /// Appends the elements of `other` in `range`.
    mutating func append(contentsOf other: PlainBuffer, in range: Range<Int>) {
        precondition(range.lowerBound >= 0 && range.upperBound <= other.count, "range out of bounds")
        guard let source = other.base else { return }
        append(contentsOf: UnsafeBufferPointer(start: source + range.lowerBound, count: range.count))
    }

    /// Makes room for at least `minimum` elements in all, so that appending up to that many
    /// moves nothing.
    mutating func reserveCapacity(_ minimum: Int) {
        if minimum > capacity { reallocate(capacity: minimum) }
    }

    /// Drops the elements from `position` on, keeping the capacity.
    mutating func removeAll(from position: Int = 0) {
        precondition(position >= 0 && position <= count, "index out of range")
        count = position
    }

    func withUnsafeBufferPointer<Result>(_ body: (UnsafeBufferPointer<Element>) throws -> Result) rethrows -> Result {
        try body(UnsafeBufferPointer(start: base, count: count))
    }

    func withUnsafeMutableBufferPointer<Result>(_ body: (UnsafeMutableBufferPointer<Element>) throws -> Result) rethrows -> Result {
        try body(UnsafeMutableBufferPointer(start: base, count: count))
    }

    /// Gives back spare capacity past an eighth of the count.
    mutating func trim() {
        guard capacity - count > count / 8 else { return }
        reallocate(capacity: count)
    }

    /// Frees the memory; the buffer is empty after.
    mutating func deallocate() {
        free(base)
        (base, count, capacity) = (nil, 0, 0)
    }

    @inline(never)
    private mutating func grow(toAtLeast minimum: Int) {
        reallocate(capacity: Swift.max(minimum, capacity * 2, 16))
    }

    private mutating func reallocate(capacity newCapacity: Int) {
        guard newCapacity > 0 else {
            deallocate()
            return
        }
        // `realloc` aligns for any plain C type, which is all an element may need.
        assert(MemoryLayout<Element>.alignment <= MemoryLayout<Int>.alignment * 2)
        let (bytes, overflow) = newCapacity.multipliedReportingOverflow(by: MemoryLayout<Element>.stride)
        guard !overflow, let moved = realloc(base, bytes) else { fatalError("out of memory for \(newCapacity) elements") }
        base = moved.bindMemory(to: Element.self, capacity: newCapacity)
        capacity = newCapacity
    }
}
