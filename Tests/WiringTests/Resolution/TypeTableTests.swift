import Testing
@testable import Wiring

/// The table a container keeps its singleton instances in by type: it grows past its first size
/// (64 entries) and keeps every entry across each growth.
@Suite("Type table")
struct TypeTableTests {
    final class Marker {}

    @Test func keepsThousandsOfEntriesAcrossItsGrowth() {
        let markers = (0..<5_000).map { _ in Marker() }
        let ids = markers.map(ObjectIdentifier.init)
        var table = TypeTable<Int>()
        for (index, id) in ids.enumerated() { table[id] = index }
        #expect(table.count == 5_000)
        #expect(ids.indices.allSatisfy { table[ids[$0]] == $0 })
        // Set again: the value changes, the count does not.
        table[ids[7]] = -7
        #expect(table[ids[7]] == -7 && table.count == 5_000)
        // Cleared entries read as nil, and the others, placed after them, are still found.
        for id in ids[..<1_000] { table[id] = nil }
        #expect(ids[..<1_000].allSatisfy { table[$0] == nil })
        #expect(ids.indices.dropFirst(1_000).allSatisfy { table[ids[$0]] == $0 })
        #expect(Set(table.identifiers) == Set(ids[1_000...]))
        let other = Marker()
        #expect(table[ObjectIdentifier(other)] == nil)
        withExtendedLifetime((markers, other)) {}
    }
}
