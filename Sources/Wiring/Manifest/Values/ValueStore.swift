/// The values of one manifest file (or of one piece of it) that outlive reading it: services'
/// and named variants' `args`, parameters, contexts' overrides. They are stored flat, in
/// document order: one array of fixed-size slots, one per node, and one array of the short
/// scalars' bytes.
///
/// Kept as YAML nodes, the same values cost an allocation for each mapping, list and long
/// scalar, and the reader's short-lived nodes leave holes among them that later allocations do
/// not fill: about 620 B a service in the loading benchmark, against about 360 B here.
///
/// A store is filled by the one decoder that owns it, and read once that decoder has handed
/// out its file: it is never written while another thread can read it.
package final class ValueStore: @unchecked Sendable {
    /// A node's place in its store.
    package typealias Index = UInt32

    /// What a slot holds.
    private enum Shape: UInt8 {
        /// A scalar whose bytes are in `bytes`.
        case scalar
        /// A scalar longer than `inlineLimit`, kept as its string: copies that aliases made
        /// share one buffer, so a long scalar repeated by aliases is stored once.
        case longScalar
        case sequence
        case mapping
    }

    private struct Slot {
        var line: UInt32
        var column: UInt32
        /// A scalar: where its bytes start in `bytes`, or its place in `longTexts`. A list: its
        /// number of elements; a mapping: its number of pairs.
        var first: UInt32
        /// A scalar: its length in bytes. A list or a mapping: the slot just past its last
        /// descendant. A mapping's children are its keys and values, alternating.
        var second: UInt32
        var shape: Shape
        var style: YAMLScalarStyle
        var tag: YAMLTag
    }

    /// Scalars up to this many bytes are copied into `bytes`; longer ones keep their string.
    /// With the reader's default limits (32 MiB files, a million nodes from aliases), a store
    /// stays far below 2³² slots and bytes.
    private static let inlineLimit = 64

    /// The slots and the scalars. A value of its own, so that storing a node and its subtree
    /// is one access to the store, not one checked access per slot.
    private struct Storage {
        var slots: ContiguousArray<Slot> = []
        var bytes: ContiguousArray<UInt8> = []
        var longTexts: [String] = []

        /// Stores `node` and its subtree, handing `checker` each key and each scalar that holds a
        /// `$`, and gathering in `found` what the scalars under it hold of references.
        mutating func append<Checker: ValueChecker>(_ node: YAMLNode, checker: inout Checker, found: inout ReferenceScan) -> Index {
            let index = Index(slots.count)
            /// The slot of `node` itself; a collection's `second` is set once its subtree is in.
            func slot(first: Index, second: Index = 0, shape: Shape, style: YAMLScalarStyle = .plain) -> Slot {
                Slot(line: UInt32(node.line), column: UInt32(node.column), first: first, second: second,
                     shape: shape, style: style, tag: node.tag)
            }
            switch node.content {
            case .scalar(let text, let style):
                let count = text.utf8.count
                var holdsDollar = false
                // Past 4 GiB of short scalars (limits raised far past their defaults), the rest
                // keep their strings: a slot's offsets are 32 bits.
                if count <= ValueStore.inlineLimit, bytes.count <= Int(UInt32.max) - count {
                    let start = Index(bytes.count)
                    let copied: Void? = text.utf8.withContiguousStorageIfAvailable { utf8 in
                        holdsDollar = utf8.contains(UInt8(ascii: "$"))
                        bytes.append(contentsOf: utf8)
                    }
                    if copied == nil {
                        holdsDollar = text.utf8.contains(UInt8(ascii: "$"))
                        bytes.append(contentsOf: text.utf8)
                    }
                    slots.append(slot(first: start, second: Index(count), shape: .scalar, style: style))
                } else {
                    holdsDollar = text.utf8.contains(UInt8(ascii: "$"))
                    slots.append(slot(first: Index(longTexts.count), second: Index(count), shape: .longScalar, style: style))
                    longTexts.append(text)
                }
                if holdsDollar { found.formUnion(checker.checkReferences(in: text, of: node)) }
            case .sequence(let elements):
                slots.append(slot(first: Index(elements.count), shape: .sequence))
                for element in elements { _ = append(element, checker: &checker, found: &found) }
                slots[Int(index)].second = Index(slots.count)
            case .mapping(let pairs):
                slots.append(slot(first: Index(pairs.count), shape: .mapping))
                for pair in pairs {
                    checker.checkKey(pair.key)
                    // Keys are names, not values: what they hold is neither checked nor found.
                    var unchecked = UncheckedValues(), ignored = ReferenceScan()
                    _ = append(pair.key, checker: &unchecked, found: &ignored)
                    _ = append(pair.value, checker: &checker, found: &found)
                }
                slots[Int(index)].second = Index(slots.count)
            }
            return index
        }
    }

    /// The file whose values these are.
    package let fileID: UInt32
    private var storage = Storage()
    private var slots: ContiguousArray<Slot> { storage.slots }
    private var bytes: ContiguousArray<UInt8> { storage.bytes }
    private var longTexts: [String] { storage.longTexts }

    package init(fileID: UInt32) {
        self.fileID = fileID
    }

    // MARK: - Filling

    /// Stores `node` and everything under it, checked by `checker` as it goes; returns its
    /// place, and what its scalars hold of references.
    package func append<Checker: ValueChecker>(_ node: YAMLNode, checking checker: inout Checker) -> (index: Index, references: ReferenceScan) {
        var found = ReferenceScan()
        let index = storage.append(node, checker: &checker, found: &found)
        return (index, found)
    }

    /// Gives back the spare capacity the arrays grew with, once nothing more is stored.
    package func seal() {
        func trimmed<Element>(_ array: ContiguousArray<Element>) -> ContiguousArray<Element> {
            guard array.capacity - array.count > array.count / 8 else { return array }
            var exact = ContiguousArray<Element>()
            exact.reserveCapacity(array.count)
            exact.append(contentsOf: array)
            return exact
        }
        storage.slots = trimmed(storage.slots)
        storage.bytes = trimmed(storage.bytes)
    }

    // MARK: - Reading

    /// Where the node at `index` was written.
    package func location(_ index: Index) -> SourceLocation {
        let slot = slots[Int(index)]
        return SourceLocation(fileID: fileID, line: Int(slot.line), column: Int(slot.column))
    }

    /// The tag written on the node at `index`.
    package func tag(_ index: Index) -> YAMLTag { slots[Int(index)].tag }

    /// Whether the node at `index` is a scalar.
    package func isScalar(_ index: Index) -> Bool {
        let shape = slots[Int(index)].shape
        return shape == .scalar || shape == .longScalar
    }

    /// The text of the scalar at `index`.
    package func text(_ index: Index) -> String {
        let slot = slots[Int(index)]
        if slot.shape == .longScalar { return longTexts[Int(slot.first)] }
        return bytes.withUnsafeBufferPointer { buffer in
            String(decoding: UnsafeBufferPointer(rebasing: buffer[Int(slot.first)..<Int(slot.first + slot.second)]), as: UTF8.self)
        }
    }

    /// Whether the scalar at `index` reads `text`, compared byte for byte without making a string.
    package func scalar(_ index: Index, is text: String) -> Bool {
        let slot = slots[Int(index)]
        guard text.utf8.count == Int(slot.second) else { return false }
        if slot.shape == .longScalar { return longTexts[Int(slot.first)] == text }
        guard slot.shape == .scalar else { return false }
        return bytes.withUnsafeBufferPointer { buffer in
            text.utf8.elementsEqual(buffer[Int(slot.first)..<Int(slot.first + slot.second)])
        }
    }

    /// The value of the node at `index`, for a ``ManifestValue``.
    package func kind(_ index: Index) -> ManifestValue.Kind {
        let slot = slots[Int(index)]
        switch slot.shape {
        case .scalar, .longScalar:
            let text = text(index)
            switch YAMLNode.resolve(text, style: slot.style, tag: slot.tag) ?? .string(text) {
            case .null: return .null
            case .bool(let flag): return .bool(flag)
            case .int(let number): return .int(number)
            case .double(let number): return .double(number)
            case .string(let text):
                // Malformed templates were reported when loading; here they read as text.
                if let template = try? StringTemplate.parse(text) { return .template(template) }
                return .string(text)
            }
        case .sequence:
            return .list(children(of: index).map { ManifestValue(store: self, index: $0) })
        case .mapping:
            return .map(ManifestMap(store: self, index: index))
        }
    }

    /// The number of elements of a list, or of pairs of a mapping, at `index`.
    package func count(_ index: Index) -> Int { Int(slots[Int(index)].first) }

    /// The places of the children of the list or mapping at `index`, in order; a mapping's are
    /// its keys and values, alternating.
    package func children(of index: Index) -> Children {
        Children(store: self, start: index + 1, end: end(index))
    }

    /// The slot just past the node at `index` and everything under it.
    private func end(_ index: Index) -> Index {
        let slot = slots[Int(index)]
        return slot.shape == .sequence || slot.shape == .mapping ? slot.second : index + 1
    }

    /// The children of a list or mapping, each skipping over the subtree before it.
    package struct Children: Sequence, IteratorProtocol {
        let store: ValueStore
        var start: Index
        let end: Index

        package mutating func next() -> Index? {
            guard start < end else { return nil }
            defer { start = store.end(start) }
            return start
        }
    }

    /// The pairs of the mapping at `index` whose key is a scalar (a name), in order.
    package func pairs(of index: Index) -> Pairs {
        Pairs(children: children(of: index))
    }

    /// The keys and values of a mapping, the pairs whose key is not a scalar left out.
    package struct Pairs: Sequence, IteratorProtocol {
        var children: Children

        package mutating func next() -> (key: Index, value: Index)? {
            while let key = children.next(), let value = children.next() {
                if children.store.isScalar(key) { return (key, value) }
            }
            return nil
        }
    }

    /// Whether a scalar under the node at `index` may hold a reference (see
    /// ``ManifestValue/mayHoldReferences``); mappings' keys are not values and do not count.
    package func mayHold(_ index: Index, environmentOnly: Bool) -> Bool {
        let slot = slots[Int(index)]
        switch slot.shape {
        case .scalar:
            return bytes.withUnsafeBufferPointer { buffer in
                let scalar = buffer[Int(slot.first)..<Int(slot.first + slot.second)]
                return environmentOnly ? ReferenceScan(scanning: scalar).contains(.environment) : scalar.contains(UInt8(ascii: "$"))
            }
        case .longScalar:
            let scan = ReferenceScan(scanning: longTexts[Int(slot.first)])
            return scan.contains(environmentOnly ? .environment : .dollar)
        case .sequence:
            return children(of: index).contains { mayHold($0, environmentOnly: environmentOnly) }
        case .mapping:
            var isValue = false
            return children(of: index).contains { child in
                defer { isValue.toggle() }
                return isValue && mayHold(child, environmentOnly: environmentOnly)
            }
        }
    }
}

/// What checks the values a ``ValueStore`` takes in, in the same walk that copies them.
package protocol ValueChecker {
    /// Sees a key of a mapping being stored.
    mutating func checkKey(_ key: YAMLNode)
    /// Sees a scalar being stored whose text holds a `$`; returns what it holds of references.
    mutating func checkReferences(in text: String, of scalar: YAMLNode) -> ReferenceScan
}

/// Stores values as they are: keys of mappings, which are names rather than values.
private struct UncheckedValues: ValueChecker {
    func checkKey(_ key: YAMLNode) {}
    func checkReferences(in text: String, of scalar: YAMLNode) -> ReferenceScan { [] }
}
