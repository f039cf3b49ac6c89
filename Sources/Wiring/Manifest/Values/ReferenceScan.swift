/// What a scan of a value's scalars found: any `$` (every reference needs one), and any `${`
/// (a reference to the environment needs that). The loader records it while it checks
/// templates, so that building a container need not walk the value again.
package struct ReferenceScan: OptionSet, Sendable {
    package let rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Some scalar holds a `$`.
    static let dollar = ReferenceScan(rawValue: 1)
    /// Some scalar holds a `${`.
    package static let environment = ReferenceScan(rawValue: 2)
    /// Some value is tagged `!service` or `!tagged`.
    package static let services = ReferenceScan(rawValue: 4)

    /// What `text` holds.
    package init(scanning text: String) {
        self.init(scanning: text.utf8)
    }

    /// What a scalar's UTF-8 `bytes` hold.
    package init<Bytes: Sequence<UInt8>>(scanning bytes: Bytes) {
        var found: UInt8 = 0
        var afterDollar = false
        for byte in bytes {
            if afterDollar, byte == UInt8(ascii: "{") {
                found = 3
                break
            }
            afterDollar = byte == UInt8(ascii: "$")
            if afterDollar { found = 1 }
        }
        rawValue = found
    }
}
