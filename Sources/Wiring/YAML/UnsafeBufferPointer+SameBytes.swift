extension UnsafeBufferPointer<UInt8> {
    /// Whether `other` holds the same bytes. The runs compared (keys, names) are short, and a
    /// loop beats a call to `memcmp`.
    @inline(__always)
    func hasSameBytes(as other: UnsafeBufferPointer<UInt8>) -> Bool {
        guard count == other.count else { return false }
        for offset in 0..<count where self[offset] != other[offset] { return false }
        return true
    }
}
