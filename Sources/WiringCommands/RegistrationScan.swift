/// What a target's Swift sources name as factory keys: every one-line string literal, and
/// every `WiringFactoryKeys.name`. One pass over the text, so the check stays linear in the
/// size of the sources whatever the number of keys.
///
/// A key no source names is most likely not registered; one that a source names may still not
/// be (the scan does not know what the code does with it), so the check only ever warns of
/// the first kind.
struct RegistrationScan {
    private(set) var literals: Set<String> = []
    private(set) var constants: Set<String> = []

    /// Adds what `source` names.
    mutating func scan(_ source: String) {
        let bytes = Array(source.utf8)
        var index = 0
        var lastWord = ""
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                // A one-line literal: up to the next unescaped quote on the same line.
                var end = index + 1
                var escaped = false
                while end < bytes.count, bytes[end] != UInt8(ascii: "\n") {
                    if escaped { escaped = false } else if bytes[end] == UInt8(ascii: "\\") { escaped = true } else if bytes[end] == UInt8(ascii: "\"") { break }
                    end += 1
                }
                if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
                    literals.insert(String(decoding: bytes[(index + 1)..<end], as: UTF8.self))
                }
                index = end + 1
                lastWord = ""
            } else if Self.isIdentifier(byte) {
                var end = index
                while end < bytes.count, Self.isIdentifier(bytes[end]) { end += 1 }
                let word = String(decoding: bytes[index..<end], as: UTF8.self)
                if lastWord == "WiringFactoryKeys." { constants.insert(word) }
                lastWord = word
                index = end
            } else {
                if byte == UInt8(ascii: "."), lastWord == "WiringFactoryKeys" {
                    lastWord = "WiringFactoryKeys."
                } else if byte != UInt8(ascii: " ") {
                    lastWord = ""
                }
                index += 1
            }
        }
    }

    /// Whether the sources name `key`, literally or through its generated constant `name`.
    func names(_ key: String, constant name: String) -> Bool {
        literals.contains(key) || constants.contains(name)
    }

    private static func isIdentifier(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "_") || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            || byte >= 0x80
    }
}
