/// The keys seen so far in one mapping, to find a repeated one: a linear scan while the mapping
/// is small, a dictionary once it has more than eight keys (a `services:` section of thousands
/// of keys would otherwise be scanned once per key). Positions are indices into the scratch
/// stack the mapping's pairs wait on, from `start` on.
struct KeySet {
    private var index: [String: Int]?

    /// The line of the earlier key `key`, if there is one.
    func firstLine(of key: String, in pairs: MoveStack<YAMLPair>, from start: Int) -> Int32? {
        if let index {
            return index[key].map { pairs[$0].key.line }
        }
        for position in start..<pairs.count {
            let pairKey = pairs[position].key
            if case .scalar(let text, _) = pairKey.content, text == key { return pairKey.line }
        }
        return nil
    }

    /// Notes `key`, about to be pushed at `position`.
    mutating func insert(_ key: String, at position: Int, in pairs: MoveStack<YAMLPair>, from start: Int) {
        if index != nil {
            index![key] = position
        } else if pairs.count - start >= 8 {
            var built = [String: Int](minimumCapacity: 64)
            for i in start..<pairs.count {
                if case .scalar(let text, _) = pairs[i].key.content, built[text] == nil { built[text] = i }
            }
            built[key] = position
            index = built
        }
    }
}
