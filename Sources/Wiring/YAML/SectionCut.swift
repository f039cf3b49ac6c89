#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a large top-level section of entries (a manifest's `services:`) can be cut into
/// pieces, so that two threads read them at once (``YAMLPipelining/split``).
///
/// The cuts are found from the raw lines, before any parsing: the section's key at column 1,
/// its entries at one indentation, and lines where an entry's key starts at that indentation.
/// Lines alone cannot tell whether such a line sits inside a quoted scalar or a flow
/// collection, so each piece checks as it is read that its cut falls between two entries (see
/// `TreeBuilder.SplitCheck`), and the reader reads the whole file again when one does not.
///
/// The head reads the file up to the first cut and from the section's end on; each piece reads
/// from its cut to the next one, the last to the section's end.
struct SectionCut: Sendable {
    /// Where a piece starts: a line whose entry key is at the section's indentation.
    struct Cut: Sendable {
        /// The line's offset in the file.
        let offset: Int
        /// Where libyaml places the line: it counts characters, not bytes, and skips a byte
        /// order mark.
        let index: Int
        /// The lines before it.
        let linesBefore: Int
    }

    /// The 1-based line of the section's key.
    let keyLine: Int32
    /// The offset of that line: anchors defined before it are the ones the pieces may use.
    let keyStart: Int
    /// The 0-based column of the section's entries.
    let indent: Int
    /// Where each piece starts, in order.
    let cuts: [Cut]
    /// The offset where the section ends: the first line past the middle of the file with
    /// something at column 1, or the end of the file.
    let end: Int
    /// Where libyaml places `end`, counted as in ``Cut/index``.
    let endIndex: Int
    /// The lines from the first cut to `end`, which the head does not read.
    let gapLines: Int
    /// Whether an `&` appears before the section's key, so the pieces must know those anchors.
    let prefixHasAnchors: Bool

    /// The smallest piece worth handing to another thread.
    static let worthwhilePiece = 16 << 10

    /// The characters of piece `number`, as libyaml counts positions.
    func length(ofPiece number: Int) -> Int {
        (number + 1 < cuts.count ? cuts[number + 1].index : endIndex) - cuts[number].index
    }

    /// The bytes of piece `number`.
    func range(ofPiece number: Int) -> Range<Int> {
        cuts[number].offset..<(number + 1 < cuts.count ? cuts[number + 1].offset : end)
    }

    /// Finds `pieces` cuts of `section` in `bytes`, or fewer when a piece would be smaller than
    /// `minimumPiece` bytes; `nil` when the file has no such section written plainly enough to
    /// cut, or too little of it.
    init?(_ bytes: UnsafeBufferPointer<UInt8>, section: String, pieces: Int, minimumPiece: Int = worthwhilePiece) {
        guard let base = bytes.baseAddress else { return nil }
        let count = bytes.count
        // libyaml reads UTF-16 by its byte order mark; lines are found in UTF-8 only.
        if count >= 2 && (bytes[0] == 0xFE && bytes[1] == 0xFF || bytes[0] == 0xFF && bytes[1] == 0xFE) { return nil }

        func nextLine(_ start: Int) -> Int {
            guard start < count, let newline = memchr(base + start, 0x0A, count - start) else { return count }
            return base.distance(to: newline.assumingMemoryBound(to: UInt8.self)) + 1
        }
        func isBlankOrComment(_ start: Int) -> Bool {
            var index = start
            while index < count && bytes[index] == 0x20 { index += 1 }
            return index == count || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x23
        }

        // The key, at column 1, alone on its line but for a comment. A directive (`%TAG`)
        // before it could change what tags mean in the pieces: no cut then.
        let key = Array(section.utf8)
        var lineStart = 0, keyLine = 1
        var found: Int?
        while lineStart < count {
            if bytes[lineStart] == 0x25 { return nil }
            if Self.isKey(key, at: lineStart, in: bytes) {
                found = lineStart
                break
            }
            lineStart = nextLine(lineStart)
            keyLine += 1
        }
        guard let keyStart = found else { return nil }

        // The first entry gives the indentation; it must be a plain key.
        var bodyStart = nextLine(keyStart)
        while bodyStart < count && isBlankOrComment(bodyStart) { bodyStart = nextLine(bodyStart) }
        var indent = 0
        while bodyStart + indent < count && bytes[bodyStart + indent] == 0x20 { indent += 1 }
        guard indent > 0, bodyStart + indent < count, Self.startsPlainKey(bytes[bodyStart + indent]) else { return nil }

        // The section's end: the first line past the middle with something at column 1 (a
        // later top-level key). Any such line earlier on makes a piece fail its checks.
        let middle = bodyStart + (count - bodyStart) / 2
        var end = nextLine(middle - 1)
        while end < count {
            let first = bytes[end]
            if first == 0x09 { return nil }
            if first != 0x20 && first != 0x0A && first != 0x0D && first != 0x23 { break }
            end = nextLine(end)
        }

        // Pieces of about equal size, the head's share first; each starts at the first entry
        // line from its target on.
        let size = max(minimumPiece, (end - bodyStart) / (pieces + 1))
        var offsets: [Int] = []
        var target = bodyStart + size
        while target + size / 2 <= end && offsets.count < pieces {
            var cut = nextLine(target - 1)
            while cut < end {
                if bytes[cut] == 0x09 { return nil }
                if cut + indent < count && Self.startsPlainKey(bytes[cut + indent])
                    && (0..<indent).allSatisfy({ bytes[cut + $0] == 0x20 }) { break }
                cut = nextLine(cut)
            }
            guard cut < end else { break }
            offsets.append(cut)
            target = cut + size
        }
        guard !offsets.isEmpty else { return nil }

        // A byte order mark is read but not counted; its first byte counts as one character.
        let hasByteOrderMark = count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
        var lines = LineCount(bytes, 0..<offsets[0])
        var cuts = [Cut(offset: offsets[0], index: lines.characters - (hasByteOrderMark ? 1 : 0), linesBefore: lines.lines)]
        for (from, to) in zip(offsets, offsets.dropFirst() + [end]) {
            lines.add(bytes, from..<to)
            if to < end {
                cuts.append(Cut(offset: to, index: lines.characters - (hasByteOrderMark ? 1 : 0), linesBefore: lines.lines))
            }
        }
        self.keyLine = Int32(clamping: keyLine)
        self.keyStart = keyStart
        self.indent = indent
        self.cuts = cuts
        self.end = end
        endIndex = lines.characters - (hasByteOrderMark ? 1 : 0)
        gapLines = lines.lines - cuts[0].linesBefore
        prefixHasAnchors = memchr(base, 0x26, keyStart) != nil
    }

    /// Whether the line at `start` is `key:` alone, but for spaces and a comment.
    private static func isKey(_ key: [UInt8], at start: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let colon = start + key.count
        guard colon < bytes.count, bytes[colon] == 0x3A else { return false }
        for (offset, byte) in key.enumerated() where bytes[start + offset] != byte { return false }
        var index = colon + 1
        guard index == bytes.count || [0x0A, 0x0D, 0x20, 0x09].contains(bytes[index]) else { return false }
        while index < bytes.count && (bytes[index] == 0x20 || bytes[index] == 0x09) { index += 1 }
        return index == bytes.count || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x23
    }

    /// Whether `byte` can start a plain key that no YAML indicator begins: a letter, a digit,
    /// `_`, `.`, `/`, `$`, or any non-ASCII character.
    private static func startsPlainKey(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "/"),
             UInt8(ascii: "$"), 0x80...0xFF:
            true
        default:
            false
        }
    }
}

/// Lines and characters in a range of UTF-8 bytes, counted the way libyaml counts positions:
/// `\r\n`, `\r`, `\n`, NEL, LS and PS each end a line, and a character is any byte but a
/// continuation byte. Thirty-two bytes at a time, then eight, while they are ASCII without `\r`.
private struct LineCount {
    var lines = 0
    var characters = 0
    /// The last two bytes counted, for `\r\n` and the multi-byte line breaks.
    private var previous: UInt8 = 0, beforePrevious: UInt8 = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
        add(bytes, range)
    }

    /// Counts `range` too, which must follow what was counted so far.
    mutating func add(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
        var index = range.lowerBound
        let raw = UnsafeRawPointer(bytes.baseAddress!)
        // Past a block that is not all ASCII, the next block is tried 32 bytes on.
        var nextBlock = index
        while index < range.upperBound {
            // Most of a manifest is ASCII without `\r`: blocks of four words are checked at
            // once, and their line feeds counted.
            if index >= nextBlock && index + 32 <= range.upperBound && previous != 0x0D {
                let words = (
                    raw.loadUnaligned(fromByteOffset: index, as: UInt64.self),
                    raw.loadUnaligned(fromByteOffset: index + 8, as: UInt64.self),
                    raw.loadUnaligned(fromByteOffset: index + 16, as: UInt64.self),
                    raw.loadUnaligned(fromByteOffset: index + 24, as: UInt64.self))
                if (words.0 | words.1 | words.2 | words.3) & 0x8080_8080_8080_8080 == 0,
                   Self.matches(0x0D, in: words.0) | Self.matches(0x0D, in: words.1)
                    | Self.matches(0x0D, in: words.2) | Self.matches(0x0D, in: words.3) == 0 {
                    lines += Self.count(0x0A, in: words.0) + Self.count(0x0A, in: words.1)
                        + Self.count(0x0A, in: words.2) + Self.count(0x0A, in: words.3)
                    characters += 32
                    beforePrevious = UInt8(truncatingIfNeeded: words.3 >> 48)
                    previous = UInt8(truncatingIfNeeded: words.3 >> 56)
                    index += 32
                    continue
                }
                nextBlock = index + 32
            }
            if index + 8 <= range.upperBound && previous != 0x0D {
                let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                if word & 0x8080_8080_8080_8080 == 0 && !Self.hasByte(0x0D, in: word) {
                    lines += Self.count(0x0A, in: word)
                    characters += 8
                    beforePrevious = UInt8(truncatingIfNeeded: word >> 48)
                    previous = UInt8(truncatingIfNeeded: word >> 56)
                    index += 8
                    continue
                }
            }
            let byte = bytes[index]
            if byte & 0xC0 != 0x80 { characters += 1 }
            switch byte {
            case 0x0D: lines += 1
            case 0x0A where previous != 0x0D: lines += 1
            case 0x85 where previous == 0xC2: lines += 1
            case 0xA8, 0xA9: if previous == 0x80 && beforePrevious == 0xE2 { lines += 1 }
            default: break
            }
            beforePrevious = previous
            previous = byte
            index += 1
        }
    }

    /// The bytes of `word` equal to `byte`, all of which are ASCII.
    private static func matches(_ byte: UInt8, in word: UInt64) -> UInt64 {
        let spread = UInt64(byte) &* 0x0101_0101_0101_0101
        let difference = word ^ spread
        // A byte of `difference` is zero exactly where `word` holds `byte`; adding 0x7F to the
        // low seven bits carries into the high bit of every other byte.
        return ~((difference & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7F7F_7F7F_7F7F_7F7F | difference) & 0x8080_8080_8080_8080
    }

    private static func hasByte(_ byte: UInt8, in word: UInt64) -> Bool { matches(byte, in: word) != 0 }

    private static func count(_ byte: UInt8, in word: UInt64) -> Int { matches(byte, in: word).nonzeroBitCount }
}
