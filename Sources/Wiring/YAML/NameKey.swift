/// A short name, such as a mapping's key, as the key of a table looked up once or more for each
/// entry read.
///
/// It hashes the name's bytes with a short multiply-and-fold hash, seeded once per process,
/// instead of SipHash through `Hasher`: for the short names manifests use, hashing cost about
/// 350 instructions and now costs about 75 (a whole lookup, about 250: most of the rest is
/// probing a table larger than the cache), and loading a 10,000-entry manifest and building
/// its container looks names up some 60,000 times. `Dictionary` takes the hash from `_rawHashValue(seed:)`, the
/// requirement of `Hashable` that the standard library's own keys implement to skip `Hasher`;
/// `hash(into:)` gives the same hash to any other user. The seed keeps a table's layout
/// different in every process, as `Hasher`'s does.
///
/// Equality is `String`'s, which compares canonical equivalents as equal: `K` and the Kelvin
/// sign U+212A are one name. An ASCII name is hashed by its bytes. So is a name whose only
/// other characters are the three scalars canonically equivalent to an ASCII character (the
/// Kelvin sign to `K`, the Greek question mark U+037E to `;`, the Greek varia U+1FEF to
/// `` ` ``), read as those characters: no other scalar, or sequence of scalars, equals ASCII
/// text. Any other name is hashed by `String`, which hashes canonical equivalents alike.
package struct NameKey: Hashable, Sendable, CustomStringConvertible {
    package let text: String

    package init(_ text: String) { self.text = text }

    package var description: String { text }

    package static func == (lhs: NameKey, rhs: NameKey) -> Bool { lhs.text == rhs.text }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(Self.hash(text, seed: 0))
    }

    /// The hash a table seeded with `seed` places the name by (`Hashable`'s hook for it, which
    /// `Dictionary` calls instead of making a `Hasher`).
    package func _rawHashValue(seed: Int) -> Int {
        Int(truncatingIfNeeded: Self.hash(text, seed: UInt64(truncatingIfNeeded: seed)))
    }

    /// The hash of `text` for a table seeded with `seed`.
    static func hash(_ text: String, seed: UInt64) -> UInt64 {
        let ascii = text.utf8.withContiguousStorageIfAvailable { hashOfASCII(UnsafeRawBufferPointer($0), seed: seed) }
        if let ascii = ascii ?? nil { return ascii }
        return hashOfOther(text, seed: seed)
    }

    /// The hash of a name that is not ASCII bytes in one piece.
    private static func hashOfOther(_ text: String, seed: UInt64) -> UInt64 {
        var read: [UInt8] = []
        read.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0..<0x80: read.append(UInt8(scalar.value))
            case 0x212A: read.append(UInt8(ascii: "K"))
            case 0x037E: read.append(UInt8(ascii: ";"))
            case 0x1FEF: read.append(UInt8(ascii: "`"))
            default:
                var hasher = Hasher()
                hasher.combine(seed)
                hasher.combine(text)
                return UInt64(truncatingIfNeeded: hasher.finalize())
            }
        }
        return read.withUnsafeBytes { hashOfASCII($0, seed: seed)! }
    }

    /// Two random words for the process, odd so that no multiplication by them loses bits.
    private static let secrets: (UInt64, UInt64) = {
        var generator = SystemRandomNumberGenerator()
        return (generator.next() | 1, generator.next() | 1)
    }()

    /// Multiplies two words to 128 bits and folds the halves together: every bit of the result
    /// depends on every bit of both.
    @inline(__always)
    private static func fold(_ first: UInt64, _ second: UInt64) -> UInt64 {
        let product = first.multipliedFullWidth(by: second)
        return product.high ^ product.low
    }

    /// Hashes `bytes`, or `nil` when one is not ASCII: sixteen bytes per fold, then the rest
    /// as two words, and the length folded in last. Every byte is in some word read, so the
    /// words' high bits tell ASCII.
    ///
    /// A name of up to 15 bytes is a small string, whose bytes `String` hands over as a copy
    /// on the stack, written as two words: the first eight bytes are read as one word and the
    /// rest by loads within the second, since a load across both would wait for the stores to
    /// finish (about twenty cycles) rather than take their bytes at once.
    static func hashOfASCII(_ bytes: UnsafeRawBufferPointer, seed: UInt64) -> UInt64? {
        let (first, second) = secrets
        let count = bytes.count
        var state = seed ^ first
        var low: UInt64 = 0, high: UInt64 = 0, seen: UInt64 = 0
        if count > 16 {
            var offset = 0
            while count - offset > 16 {
                let (one, two) = (bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self),
                                  bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self))
                seen |= one | two
                state = fold(one ^ second, two ^ state)
                offset += 16
            }
            low = bytes.loadUnaligned(fromByteOffset: count - 16, as: UInt64.self)
            high = bytes.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
        } else if count >= 8 {
            low = bytes.loadUnaligned(fromByteOffset: 0, as: UInt64.self)
            high = word(of: bytes, from: 8, count: count - 8)
        } else {
            high = word(of: bytes, from: 0, count: count)
        }
        guard (seen | low | high) & 0x8080_8080_8080_8080 == 0 else { return nil }
        return fold(second ^ UInt64(count), fold(low ^ second, high ^ state))
    }

    /// The `count` bytes (at most eight) from `start` as one word that tells them apart: two
    /// four-byte loads that may overlap, or for fewer than four bytes, the first, middle and
    /// last.
    @inline(__always)
    private static func word(of bytes: UnsafeRawBufferPointer, from start: Int, count: Int) -> UInt64 {
        if count >= 4 {
            return UInt64(bytes.loadUnaligned(fromByteOffset: start, as: UInt32.self)) << 32
                | UInt64(bytes.loadUnaligned(fromByteOffset: start + count - 4, as: UInt32.self))
        }
        guard count > 0 else { return 0 }
        return UInt64(bytes[start]) << 16 | UInt64(bytes[start + count >> 1]) << 8 | UInt64(bytes[start + count - 1])
    }
}

/// Tables keyed by names, read and written with the names themselves.
extension Dictionary where Key == NameKey {
    package subscript(_ name: String) -> Value? {
        get { self[NameKey(name)] }
        set { self[NameKey(name)] = newValue }
    }

    @discardableResult
    mutating func updateValue(_ value: Value, forKey name: String) -> Value? {
        updateValue(value, forKey: NameKey(name))
    }
}
