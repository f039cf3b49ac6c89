import Testing
@testable import Wiring

/// The buffer under every value store: it manages its memory by hand, so what it keeps across
/// growing, trimming and truncating is checked here on its own (the sanitizer runs of CI run
/// these too).
@Suite("Plain buffer")
struct PlainBufferTests {
    @Test func appendsKeepEveryValueAcrossGrowing() {
        var buffer = PlainBuffer<UInt32>()
        defer { buffer.deallocate() }
        for value in 0..<10_000 { buffer.append(UInt32(value)) }
        #expect(buffer.count == 10_000)
        #expect(buffer.capacity >= 10_000)
        #expect((0..<10_000).allSatisfy { buffer[$0] == UInt32($0) })
        buffer[4_321] = 7
        #expect(buffer[4_321] == 7)
    }

    @Test func appendsRunsFromMemoryAndFromAnotherBuffer() {
        var source = PlainBuffer<UInt8>()
        var copy = PlainBuffer<UInt8>()
        defer {
            source.deallocate()
            copy.deallocate()
        }
        let text = Array("services: { Service1: { scope: singleton } }".utf8)
        text.withUnsafeBufferPointer { source.append(contentsOf: $0) }
        [UInt8]().withUnsafeBufferPointer { source.append(contentsOf: $0) }
        #expect(source.count == text.count)

        copy.append(contentsOf: source, in: 12..<20)
        copy.append(contentsOf: source, in: 0..<0)
        copy.append(contentsOf: source, in: 0..<8)
        let copied = copy.withUnsafeBufferPointer { Array($0) }
        #expect(copied == Array(text[12..<20] + text[0..<8]))
    }

    @Test func runsOfEveryShortLengthAreCopiedWhole() {
        // Runs up to 16 bytes are copied inline, in overlapping words: each length, at every
        // alignment, must come out exactly, and leave what surrounds it alone.
        let source = (0..<64).map { UInt8(truncatingIfNeeded: $0 * 7 + 1) }
        var buffer = PlainBuffer<UInt8>()
        defer { buffer.deallocate() }
        var expected: [UInt8] = []
        source.withUnsafeBufferPointer { source in
            for length in 1...24 {
                for start in 0..<8 {
                    buffer.append(contentsOf: UnsafeBufferPointer(rebasing: source[start..<(start + length)]))
                    expected += source[start..<(start + length)]
                    buffer.append(0xEE)
                    expected.append(0xEE)
                }
            }
        }
        let copied = buffer.withUnsafeBufferPointer { Array($0) }
        #expect(copied.count == expected.count)
        #expect(copied.indices.first { $0 >= expected.count || copied[$0] != expected[$0] } == nil)
    }

    @Test func reservingSizesOnceKeepsTheValuesAndNeverShrinks() {
        var buffer = PlainBuffer<UInt32>()
        defer { buffer.deallocate() }
        for value in 0..<10 { buffer.append(UInt32(value)) }
        buffer.reserveCapacity(5_000)
        #expect(buffer.capacity == 5_000)
        #expect(buffer.count == 10)
        #expect((0..<10).allSatisfy { buffer[$0] == UInt32($0) })
        // Appending up to the reserved size needs no more room.
        for value in 10..<5_000 { buffer.append(UInt32(value)) }
        #expect(buffer.capacity == 5_000)
        #expect((0..<5_000).allSatisfy { buffer[$0] == UInt32($0) })
        // A smaller reservation leaves the buffer as it is.
        buffer.reserveCapacity(100)
        #expect(buffer.capacity == 5_000)
        #expect(buffer.count == 5_000)
        // Past it, the buffer grows as usual.
        buffer.append(5_000)
        #expect(buffer.capacity > 5_000)
        #expect(buffer[5_000] == 5_000)
    }

    @Test func truncatingKeepsTheCapacityAndLaterAppendsReuseIt() {
        var buffer = PlainBuffer<Int>()
        defer { buffer.deallocate() }
        for value in 0..<100 { buffer.append(value) }
        let capacity = buffer.capacity
        buffer.removeAll(from: 40)
        #expect(buffer.count == 40)
        #expect(buffer[39] == 39)
        buffer.append(-1)
        #expect(buffer[40] == -1)
        buffer.removeAll()
        #expect(buffer.count == 0)
        #expect(buffer.capacity == capacity)
        let isEmpty = buffer.withUnsafeBufferPointer { $0.isEmpty }
        #expect(isEmpty)
    }

    @Test func trimmingGivesBackSpareCapacityAndKeepsTheValues() {
        var buffer = PlainBuffer<UInt16>()
        defer { buffer.deallocate() }
        for value in 0..<1_000 { buffer.append(UInt16(value)) }
        buffer.removeAll(from: 300)
        buffer.trim()
        #expect(buffer.capacity == 300)
        #expect((0..<300).allSatisfy { buffer[$0] == UInt16($0) })
        // Within an eighth of the count, the spare capacity stays.
        buffer.removeAll(from: 290)
        buffer.trim()
        #expect(buffer.capacity == 300)
        buffer.removeAll()
        buffer.trim()
        #expect(buffer.capacity == 0)
        buffer.append(9)
        #expect(buffer[0] == 9)
    }

    @Test func freeingEmptiesIt() {
        var buffer = PlainBuffer<UInt8>()
        buffer.deallocate()
        buffer.append(1)
        buffer.deallocate()
        #expect(buffer.count == 0 && buffer.capacity == 0)
    }
}
