/// A map from Swift types to values: open addressing with linear probing on the type's
/// metadata address, which is already unique and well spread, so a multiply-shift hash is
/// enough. Not thread-safe: the container keeps it behind its lock.
///
/// What it buys: a warm singleton resolve (one lookup here) takes about 12 % fewer
/// instructions than with a `Dictionary` keyed by `ObjectIdentifier`, whose seeded hash is
/// most of a lookup (callgrind, the benchmark's singleton row: 195 M against 223 M
/// instructions for 220,000 resolves).
struct TypeTable<Value> {
    private var keys: [ObjectIdentifier?]
    private var values: [Value?]
    private(set) var count = 0

    init(capacity: Int = 64) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        keys = Array(repeating: nil, count: size)
        values = Array(repeating: nil, count: size)
    }

    @inline(__always)
    private func start(_ id: ObjectIdentifier) -> Int {
        Int(truncatingIfNeeded: (UInt(bitPattern: id) &* 0x9E37_79B9_7F4A_7C15) >> 32) & (keys.count - 1)
    }

    subscript(id: ObjectIdentifier) -> Value? {
        get {
            var index = start(id)
            while let stored = keys[index] {
                if stored == id { return values[index] }
                index = (index + 1) & (keys.count - 1)
            }
            return nil
        }
        set {
            var index = start(id)
            while let stored = keys[index], stored != id { index = (index + 1) & (keys.count - 1) }
            if keys[index] == nil {
                guard newValue != nil else { return }
                keys[index] = id
                count += 1
            }
            values[index] = newValue
            if count * 2 > keys.count { grow() }
        }
    }

    /// The keys whose value is set.
    var identifiers: [ObjectIdentifier] {
        keys.indices.compactMap { values[$0] == nil ? nil : keys[$0] }
    }

    private mutating func grow() {
        var grown = TypeTable(capacity: keys.count)
        for (key, value) in zip(keys, values) {
            if let key, let value { grown[key] = value }
        }
        self = grown
    }
}
