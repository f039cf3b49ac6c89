/// The values of a mapping's known keys, found in one pass over its keys (see
/// `ManifestFileDecoder.fields(of:schema:in:ignoringExtensions:)`), read by key.
struct Fields {
    let store: NodeStore
    /// The keys of the mapping's level, by their raw values, in the level's order; unused
    /// places hold `FieldTable.noKey`.
    private let keys: SIMD16<UInt8>
    /// For each key of `keys`: its value's place in `store`, plus one; zero when the mapping
    /// does not set it.
    private var values = SIMD16<UInt32>()

    init(store: NodeStore, table: FieldTable) {
        self.store = store
        keys = table.keyLanes
    }

    /// Records that the key at `position` of the level has its value at `value`.
    mutating func set(_ position: Int, to value: NodeStore.Index) {
        values[position] = value + 1
    }

    /// The value of `key`, if the mapping sets it.
    subscript(key: ManifestSchema.Key) -> StoredNode? {
        for position in 0..<keys.scalarCount where keys[position] == key.rawValue {
            let value = values[position]
            return value == 0 ? nil : StoredNode(store: store, index: value - 1)
        }
        return nil
    }
}

/// One level of the manifest's schema, ready to match keys: each field's name is kept as
/// two words, so that a key's bytes are matched by comparing words, without a string made
/// of the key or of the name.
struct FieldTable: Sendable {
    let fields: [ManifestSchema.Field]
    private let names: [PackedName]
    /// The fields' keys, by their raw values, for ``Fields``.
    let keyLanes: SIMD16<UInt8>
    static let noKey = UInt8.max

    init(_ fields: [ManifestSchema.Field]) {
        precondition(fields.count <= SIMD16<UInt8>.scalarCount, "a level of the manifest has at most 16 keys")
        self.fields = fields
        names = fields.map { field in
            var name = field.name
            guard let packed = name.withUTF8(PackedName.init) else { preconditionFailure("the key '\(name)' is longer than 16 bytes") }
            return packed
        }
        var lanes = SIMD16<UInt8>(repeating: Self.noKey)
        for (position, field) in fields.enumerated() { lanes[position] = field.key.rawValue }
        keyLanes = lanes
    }

    /// The position in this level of the key at `index` of `store`, if it is a scalar that
    /// spells one of the level's keys.
    func position(ofKey index: NodeStore.Index, in store: NodeStore) -> Int? {
        guard let packed = store.withBytes(ofScalar: index, PackedName.init) ?? nil else { return nil }
        return names.firstIndex(of: packed)
    }

    /// The names of this level's keys, for suggestions.
    var keyNames: [String] { fields.map(\.name) }

    static let topLevel = FieldTable(ManifestSchema.topLevel)
    static let scopes = FieldTable(ManifestSchema.scopes)
    static let customScope = FieldTable(ManifestSchema.customScope)
    static let service = FieldTable(ManifestSchema.service)
    static let namedVariant = FieldTable(ManifestSchema.namedVariant)
    static let implementsEntry = FieldTable(ManifestSchema.implementsEntry)
    static let context = FieldTable(ManifestSchema.context)
    static let overlay = FieldTable(ManifestSchema.overlay)
    static let serviceOverride = FieldTable(ManifestSchema.serviceOverride)
}

/// Up to 16 bytes in two words, zero past the end, with their count: two names are the same
/// when their packed forms are.
private struct PackedName: Equatable {
    var words: (UInt64, UInt64) = (0, 0)
    var count: Int

    init?(_ utf8: UnsafeBufferPointer<UInt8>) {
        guard utf8.count <= 16 else { return nil }
        count = utf8.count
        if let base = utf8.baseAddress {
            withUnsafeMutableBytes(of: &words) { $0.copyMemory(from: UnsafeRawBufferPointer(start: base, count: utf8.count)) }
        }
    }

    static func == (a: PackedName, b: PackedName) -> Bool {
        a.count == b.count && a.words.0 == b.words.0 && a.words.1 == b.words.1
    }
}
