/// A file as read, and where its secrets are written: what a ``SourceText`` is made from when
/// a diagnostic in the file has a line to show.
package struct SourceBytes: Sendable {
    package var bytes: [UInt8]
    var secrets: [SourceSpan]
}

/// A file's text as diagnostics show it under their headline: decoded from whichever encoding
/// libyaml read it in (UTF-8, or UTF-16 in either byte order after a byte-order mark), split into
/// lines once, and with every value tagged `!secret` replaced by `<redacted>`.
package struct SourceText: Sendable {
    /// The text as UTF-8, without a byte-order mark.
    private let utf8: [UInt8]
    /// Where each line starts in `utf8`: line `n` starts at `lineStarts[n - 1]`.
    private let lineStarts: [Int]
    /// The places of the values to redact, by the line each starts on.
    private let secrets: [SourceSpan]

    /// The text of a file whose bytes are `bytes`, where the values at `secrets` are secret.
    package init(bytes: [UInt8], secrets: [SourceSpan] = []) {
        utf8 = Self.decoded(bytes)
        var starts = [0]
        for (offset, byte) in utf8.enumerated() where byte == UInt8(ascii: "\n") { starts.append(offset + 1) }
        lineStarts = starts
        self.secrets = secrets
    }

    /// `bytes` as UTF-8: a UTF-16 file (with its byte-order mark) transcoded, a UTF-8
    /// byte-order mark dropped.
    private static func decoded(_ bytes: [UInt8]) -> [UInt8] {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return Array(bytes.dropFirst(3)) }
        let littleEndian = bytes.starts(with: [0xFF, 0xFE])
        guard littleEndian || bytes.starts(with: [0xFE, 0xFF]) else { return bytes }
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var offset = 2
        while offset + 1 < bytes.count {
            let (low, high) = littleEndian ? (bytes[offset], bytes[offset + 1]) : (bytes[offset + 1], bytes[offset])
            units.append(UInt16(high) << 8 | UInt16(low))
            offset += 2
        }
        return Array(String(decoding: units, as: UTF16.self).utf8)
    }

    /// The text of 1-based line `line`, without its line break, secrets redacted, and where
    /// `column` (1-based, in characters) falls in it once they are; `nil` past the last line.
    package func line(_ line: Int, column: Int) -> (text: String, column: Int)? {
        guard line >= 1, line <= lineStarts.count else { return nil }
        let start = lineStarts[line - 1]
        var end = line < lineStarts.count ? lineStarts[line] - 1 : utf8.count
        if end > start, utf8[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        var characters = Array(String(decoding: utf8[start..<end], as: UTF8.self))
        var column = column
        // Right to left, so that each replacement leaves the columns before it in place.
        for span in redactions(onLine: line, of: characters).reversed() {
            let replaced = characters[span]
            let keepsTag = replaced.starts(with: "!secret")
            let replacement = Array(keepsTag ? "!secret <redacted>" : "<redacted>")
            characters.replaceSubrange(span, with: replacement)
            if column > span.upperBound { column += replacement.count - replaced.count }
        }
        return (String(characters), column)
    }

    /// The ranges of characters (0-based) of `characters`, line `line`, that secrets cover, in
    /// order; a secret's later lines are covered from their first character that is not a space.
    private func redactions(onLine line: Int, of characters: [Character]) -> [Range<Int>] {
        let length = characters.count
        var ranges: [Range<Int>] = []
        for span in secrets where span.startLine <= line && line <= span.endLine {
            let from = span.startLine == line ? span.startColumn - 1 : (characters.firstIndex { $0 != " " } ?? length)
            let to = span.endLine == line ? span.endColumn - 1 : length
            let range = max(0, min(from, length))..<max(0, min(to, length))
            if !range.isEmpty { ranges.append(range) }
        }
        return ranges.sorted { $0.lowerBound < $1.lowerBound }
    }
}
