import Foundation
import Testing
@testable import Wiring

/// Names as table keys: the manifest's index of services, the validator's claims and the
/// binder's aliases find a name by its fast hash, and must find it exactly where a
/// `[String: …]` table would.
@Suite("Names as table keys")
struct NameKeyTests {
    /// Swift strings are equal when canonically equivalent. Three scalars outside ASCII are
    /// equivalent to an ASCII character (the Kelvin sign to `K`, the Greek question mark to
    /// `;`, the Greek varia to `` ` ``), and composed and decomposed accents are equivalent:
    /// each pair is one key.
    @Test func canonicallyEquivalentNamesAreOneKey() {
        let pairs = [
            ("K", "\u{212A}"), ("Kafka", "\u{212A}afka"), ("a;b", "a\u{037E}b"), ("`x`", "\u{1FEF}x\u{1FEF}"),
            ("LongerServiceNameWithK", "LongerServiceNameWith\u{212A}"), ("Caf\u{E9}", "Cafe\u{301}"),
            ("ServiceRegistry;Primary", "ServiceRegistry\u{037E}Primary"),
        ]
        for (written, equivalent) in pairs {
            #expect(written == equivalent)
            #expect(NameKey(written) == NameKey(equivalent))
            #expect(NameKey(written).hashValue == NameKey(equivalent).hashValue, "\(written.debugDescription)")
            var table: [NameKey: Int] = [:]
            table[written] = 1
            #expect(table[equivalent] == 1, "\(equivalent.debugDescription) finds \(written.debugDescription)")
            #expect(table.updateValue(2, forKey: equivalent) == 1)
            #expect(table.count == 1)
        }
    }

    /// Bytes hash only when they are all ASCII, wherever the one that is not falls among the
    /// words the hash reads; a name with other characters is hashed another way.
    @Test func onlyASCIIBytesHashAsBytes() {
        for length in 0...40 {
            let plain = [UInt8](repeating: UInt8(ascii: "a"), count: length)
            #expect(plain.withUnsafeBytes { NameKey.hashOfASCII($0, seed: 7) } != nil, "\(length) letters")
            for place in 0..<length {
                var other = plain
                other[place] = 0xC3
                #expect(other.withUnsafeBytes { NameKey.hashOfASCII($0, seed: 7) } == nil, "at \(place) of \(length)")
            }
        }
    }

    /// Names that differ anywhere (in any byte, or only in length) hash apart, and a table's
    /// low bits spread: 100,000 service-like names fill 2¹⁷ buckets as a uniform hash would.
    @Test func namesSpreadOverATable() {
        var seen = Set<Int>()
        var buckets = [Int](repeating: 0, count: 1 << 17)
        let names = (0..<100_000).map { "Service\($0)" } + (0..<40).map { String(repeating: "x", count: $0) }
            + (0..<40).map { String(repeating: "x", count: $0) + "y" }
        for name in names {
            let hash = NameKey(name)._rawHashValue(seed: 12345)
            seen.insert(hash)
            buckets[hash & (buckets.count - 1)] += 1
        }
        #expect(seen.count == names.count)
        // Poisson with a mean of 0.76 per bucket: more than 9 in one is all but impossible.
        #expect(buckets.max()! <= 9)
        #expect(NameKey("Service1")._rawHashValue(seed: 1) != NameKey("Service1")._rawHashValue(seed: 2))
    }

    /// A manifest's services are found by key, in tables built from names of every length and
    /// alphabet, as a `[String: Int]` finds them.
    @Test func aTableOfNamesFindsWhatAStringTableFinds() {
        let names = (0..<2_000).map { index in
            switch index % 4 {
            case 0: "S\(index)"
            case 1: "Module\(index).Service\(index).Reader"
            case 2: "Café\(index)"
            default: "K\(index)"
            }
        }
        var table: [NameKey: Int] = [:]
        var strings: [String: Int] = [:]
        for (position, name) in names.enumerated() {
            table[name] = position
            strings[name] = position
        }
        for name in names + ["absent", "S", "Café", "\u{212A}3", "Cafe\u{301}2"] {
            #expect(table[name] == strings[name], "\(name)")
        }
    }
}
