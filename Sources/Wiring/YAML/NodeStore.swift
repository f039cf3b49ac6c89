/// YAML nodes stored flat, in document order: one array of fixed-size slots, one per node, and
/// one array of the short scalars' bytes. A list's or mapping's children follow its slot; a
/// mapping's are its keys and values, alternating. ``StoredNode`` reads one node.
///
/// The reader writes a document into a store as libyaml's events come, and what reads the
/// document reads it there; what must outlive the document is copied into another store, a
/// subtree at a time. Against a tree of ``YAMLNode``s, which costs an allocation for each
/// mapping, list and long scalar and a release of each when it goes, reading the benchmark's
/// 10,000-entry manifest into a store and decoding it from there took about 11 % fewer
/// instructions (about 920 M against 1,030 M a load with callgrind, the container built from it
/// counted), and kept values take about 360 B an entry against 620 B as nodes.
///
/// A store is filled by the one reader or decoder that owns it, and read by others only once
/// that owner has handed it out: it is never written while another thread can read it.
package final class NodeStore: @unchecked Sendable {
    /// A node's place in its store.
    package typealias Index = UInt32

    /// What a slot holds.
    private enum Shape: UInt8, BitwiseCopyable {
        /// A scalar whose bytes are in `bytes`.
        case scalar
        /// A scalar longer than `inlineLimit`, kept as its string: copies that aliases made
        /// share one buffer, so a long scalar repeated by aliases is stored once.
        case longScalar
        case sequence
        case mapping
    }

    private struct Slot: BitwiseCopyable {
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

        /// A short scalar's bytes in `bytes`.
        var byteRange: Range<Int> { Int(first)..<Int(first + second) }

        /// Whether the slot holds a scalar, short or long.
        @inline(__always)
        var isScalar: Bool { shape == .scalar || shape == .longScalar }

        /// The slot just past this one's subtree, this slot being at `position`.
        @inline(__always)
        func end(at position: Int) -> Int {
            shape == .sequence || shape == .mapping ? Int(second) : position + 1
        }
    }

    /// Scalars up to this many bytes are copied into `bytes`; longer ones keep their string.
    /// With the reader's default limits (32 MiB files, a million nodes from aliases), a store
    /// stays far below 2³² slots and bytes.
    private static let inlineLimit = 64

    /// The slots and the scalars. A value of its own, so that storing a node and its subtree
    /// is one access to the store, not one checked access per slot. Only the store's own copy
    /// is ever changed: a copy shares its buffers, which the store frees.
    private struct Storage {
        /// Plain buffers, not arrays (see ``PlainBuffer``): the store frees them.
        var slots = PlainBuffer<Slot>()
        var bytes = PlainBuffer<UInt8>()
        var longTexts: [String] = []

        /// Stores a scalar's text: its bytes, or past `inlineLimit`, its string (`text`, or
        /// one made from `utf8`).
        mutating func appendScalar(
            _ utf8: UnsafeBufferPointer<UInt8>, text: String?, style: YAMLScalarStyle, tag: YAMLTag, line: UInt32, column: UInt32
        ) {
            let count = utf8.count
            // Past 4 GiB of short scalars (limits raised far past their defaults), the rest
            // keep their strings: a slot's offsets are 32 bits.
            if count <= NodeStore.inlineLimit, bytes.count <= Int(UInt32.max) - count {
                let start = Index(bytes.count)
                bytes.append(contentsOf: utf8)
                slots.append(Slot(line: line, column: column, first: start, second: Index(count), shape: .scalar, style: style, tag: tag))
            } else {
                slots.append(Slot(
                    line: line, column: column, first: Index(longTexts.count), second: Index(count), shape: .longScalar,
                    style: style, tag: tag))
                longTexts.append(text ?? String(decoding: utf8, as: UTF8.self))
            }
        }

        /// Stores `node` and its subtree as they are.
        mutating func append(_ node: YAMLNode) -> Index {
            let index = Index(slots.count)
            let line = UInt32(truncatingIfNeeded: node.line)
            let column = UInt32(truncatingIfNeeded: node.column)
            switch node.content {
            case .scalar(let text, let style):
                var contiguous = text
                contiguous.withUTF8 { appendScalar($0, text: text, style: style, tag: node.tag, line: line, column: column) }
            case .sequence(let elements):
                slots.append(Slot(line: line, column: column, first: Index(elements.count), second: 0, shape: .sequence, style: .plain, tag: node.tag))
                for element in elements { _ = append(element) }
                slots[Int(index)].second = Index(slots.count)
            case .mapping(let pairs):
                slots.append(Slot(line: line, column: column, first: Index(pairs.count), second: 0, shape: .mapping, style: .plain, tag: node.tag))
                for pair in pairs {
                    _ = append(pair.key)
                    _ = append(pair.value)
                }
                slots[Int(index)].second = Index(slots.count)
            }
            return index
        }

        /// Stores a copy of the node at `index` of `source` and its subtree, in bulk: the slots
        /// are copied with their offsets moved, and the scalars' bytes (which a subtree holds
        /// in one run, in order, since everything is stored in document order) in one piece;
        /// `nil` when the store's 32-bit offsets could not hold them (limits raised far past
        /// their defaults).
        mutating func append(_ index: Index, of source: Storage, end: Index) -> Index? {
            let copy = Index(slots.count)
            let held = source.scalars(in: index..<end)
            let (byteRange, textRange) = (held.bytes ?? 0..<0, held.texts ?? 0..<0)
            let byteShift = bytes.count - byteRange.lowerBound
            let textShift = longTexts.count - textRange.lowerBound
            guard bytes.count + byteRange.count <= Int(UInt32.max), slots.count + Int(end - index) < Int(UInt32.max) else {
                return nil
            }
            if !byteRange.isEmpty { bytes.append(contentsOf: source.bytes, in: byteRange) }
            if !textRange.isEmpty { longTexts.append(contentsOf: source.longTexts[textRange]) }
            let slotShift = Int(copy) - Int(index)
            // Copied in one piece, then moved in place.
            slots.append(contentsOf: source.slots, in: Int(index)..<Int(end))
            slots.withUnsafeMutableBufferPointer { slots in
                for position in Int(copy)..<slots.count {
                    switch slots[position].shape {
                    case .scalar: slots[position].first = Index(Int(slots[position].first) + byteShift)
                    case .longScalar: slots[position].first = Index(Int(slots[position].first) + textShift)
                    case .sequence, .mapping: slots[position].second = Index(Int(slots[position].second) + slotShift)
                    }
                }
            }
            return copy
        }

        /// Where the scalars of the slots in `range` keep their text: a run of `bytes` and a
        /// run of `longTexts`, each `nil` when no scalar there uses it. The runs are whole,
        /// since everything is stored in document order; an empty scalar still has an offset.
        func scalars(in range: Range<Index>) -> (bytes: Range<Int>?, texts: Range<Int>?) {
            var (byteStart, byteEnd, textStart, textEnd) = (Int.max, 0, Int.max, 0)
            for position in Int(range.lowerBound)..<Int(range.upperBound) {
                let slot = slots[position]
                switch slot.shape {
                case .scalar:
                    byteStart = min(byteStart, Int(slot.first))
                    byteEnd = max(byteEnd, slot.byteRange.upperBound)
                case .longScalar:
                    textStart = min(textStart, Int(slot.first))
                    textEnd = max(textEnd, Int(slot.first) + 1)
                case .sequence, .mapping:
                    break
                }
            }
            return (byteStart <= byteEnd ? byteStart..<byteEnd : nil, textStart <= textEnd ? textStart..<textEnd : nil)
        }

        /// Drops the node at `index` and everything stored after it.
        mutating func truncate(to index: Index) {
            let dropped = scalars(in: index..<Index(slots.count))
            slots.removeAll(from: Int(index))
            bytes.removeAll(from: dropped.bytes?.lowerBound ?? bytes.count)
            longTexts.removeSubrange((dropped.texts?.lowerBound ?? longTexts.count)...)
        }

        /// What `body` makes of the bytes of the short scalar in `slot`, read in place.
        @inline(__always)
        func withBytes<Result>(of slot: Slot, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
            try bytes.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[slot.byteRange])) }
        }

        /// The text of the scalar in `slot`.
        func text(of slot: Slot) -> String {
            if slot.shape == .longScalar { return longTexts[Int(slot.first)] }
            return withBytes(of: slot) { String(decoding: $0, as: UTF8.self) }
        }

    }

    /// The file whose values these are.
    let fileID: UInt32
    /// Only the store's one owner writes it, and nothing reads it meanwhile (see above): the
    /// exclusivity of each access need not be checked at run time.
    @exclusivity(unchecked) private var storage = Storage()

    package init(fileID: UInt32) {
        self.fileID = fileID
    }

    deinit {
        storage.slots.deallocate()
        storage.bytes.deallocate()
    }

    // MARK: - Filling

    /// Stores `node` and everything under it as it is.
    package func append(_ node: YAMLNode) -> Index {
        storage.append(node)
    }

    /// Stores a copy of the node at `index` of `source` (another store) and everything under it.
    package func append(copyOf index: Index, from source: NodeStore) -> Index {
        precondition(source !== self, "a store copies nodes from another store")
        return storage.append(index, of: source.storage, end: source.end(index)) ?? storage.append(source.node(at: index))
    }

    /// The number of slots: where the next node stored goes.
    package var endIndex: Index { Index(storage.slots.count) }

    /// Drops the node at `index` and everything stored after it.
    func truncate(to index: Index) {
        storage.truncate(to: index)
    }

    /// Gives back the spare capacity the arrays grew with, once nothing more is stored.
    func seal() {
        storage.slots.trim()
        storage.bytes.trim()
    }

    // MARK: - Filling as the reader reads

    /// Stores a scalar's bytes, as libyaml gives them.
    @inline(__always)
    func appendScalar(_ utf8: UnsafeBufferPointer<UInt8>, style: YAMLScalarStyle, tag: YAMLTag, line: Int32, column: Int32) -> Index {
        let index = endIndex
        storage.appendScalar(
            utf8, text: nil, style: style, tag: tag, line: UInt32(truncatingIfNeeded: line), column: UInt32(truncatingIfNeeded: column))
        return index
    }

    /// Opens a list or mapping whose children are stored next; ``close(_:count:)`` ends it.
    package func open(mapping: Bool, tag: YAMLTag, line: Int32, column: Int32) -> Index {
        let index = endIndex
        storage.slots.append(Slot(
            line: UInt32(truncatingIfNeeded: line), column: UInt32(truncatingIfNeeded: column), first: 0, second: 0,
            shape: mapping ? .mapping : .sequence, style: .plain, tag: tag))
        return index
    }

    /// Ends the list or mapping opened at `index` after everything stored since: `count`
    /// elements, or pairs.
    package func close(_ index: Index, count: Int) {
        storage.slots[Int(index)].first = Index(count)
        storage.slots[Int(index)].second = endIndex
    }

    /// Moves the node at `index` (not its subtree) to `line` and `column`: an alias's copy of
    /// its anchor stands where the alias is.
    func move(_ index: Index, toLine line: Int32, column: Int32) {
        storage.slots[Int(index)].line = UInt32(truncatingIfNeeded: line)
        storage.slots[Int(index)].column = UInt32(truncatingIfNeeded: column)
    }

    /// The line of a key of the mapping opened at `mapping`, stored before the scalar key at
    /// `key`, that reads as `key` does, if there is one.
    func lineOfEarlierKey(matching key: Index, inOpenMapping mapping: Index) -> Int32? {
        let wanted = storage.slots[Int(key)]
        var earlier = Int(mapping) + 1
        while earlier < Int(key) {
            let slot = storage.slots[earlier]
            if slot.second == wanted.second && slot.isScalar && sameText(slot, wanted) {
                return Int32(truncatingIfNeeded: slot.line)
            }
            // Past the key, then past its value.
            let value = slot.end(at: earlier)
            earlier = storage.slots[value].end(at: value)
        }
        return nil
    }

    /// Whether two scalars of the same length have the same text.
    private func sameText(_ first: Slot, _ second: Slot) -> Bool {
        guard first.shape == .scalar && second.shape == .scalar else {
            return storage.text(of: first) == storage.text(of: second)
        }
        return storage.withBytes(of: first) { a in storage.withBytes(of: second) { b in a.hasSameBytes(as: b) } }
    }

    /// The node at `index` and its subtree, as a ``YAMLNode``.
    package func node(at index: Index) -> YAMLNode {
        let slot = storage.slots[Int(index)]
        let content: YAMLNode.Content
        switch slot.shape {
        case .scalar, .longScalar:
            content = .scalar(text(index), slot.style)
        case .sequence:
            content = .sequence(children(of: index).map { node(at: $0) })
        case .mapping:
            var pairs: [YAMLPair] = []
            var children = children(of: index)
            while let key = children.next(), let value = children.next() {
                pairs.append(YAMLPair(key: node(at: key), value: node(at: value)))
            }
            content = .mapping(pairs)
        }
        return YAMLNode(content, tag: slot.tag, line: Int32(truncatingIfNeeded: slot.line), column: Int32(truncatingIfNeeded: slot.column))
    }


    // MARK: - Reading

    /// Where the node at `index` was written.
    package func location(_ index: Index) -> SourceLocation {
        let slot = storage.slots[Int(index)]
        return SourceLocation(fileID: fileID, line: Int(slot.line), column: Int(slot.column))
    }

    /// The 1-based line and column of the node at `index`.
    package func position(_ index: Index) -> (line: Int32, column: Int32) {
        let slot = storage.slots[Int(index)]
        return (Int32(truncatingIfNeeded: slot.line), Int32(truncatingIfNeeded: slot.column))
    }

    /// The tag written on the node at `index`.
    package func tag(_ index: Index) -> YAMLTag { storage.slots[Int(index)].tag }

    /// How the scalar at `index` was written.
    package func style(_ index: Index) -> YAMLScalarStyle { storage.slots[Int(index)].style }

    /// Whether the node at `index` is a mapping.
    func isMapping(_ index: Index) -> Bool { storage.slots[Int(index)].shape == .mapping }

    /// The typed value of the scalar at `index`, by the YAML core schema and its tag; `nil`
    /// for a list or a mapping, or a tag the text is not.
    func resolvedScalar(_ index: Index) -> YAMLScalarValue? {
        let slot = storage.slots[Int(index)]
        guard slot.isScalar else { return nil }
        return YAMLNode.resolve(text(index), style: slot.style, tag: slot.tag)
    }

    /// The text of the scalar at `index` if it reads as a string (see ``resolvedScalar(_:)``);
    /// `nil` when it reads as another type, or is not a scalar. Most scalars that name things
    /// are told to be strings by how they are written, their first byte and their length
    /// (``YAMLNode/mayReadAsOtherThanString(startingWith:count:)``), without resolving.
    package func stringValue(_ index: Index) -> String? {
        let slot = storage.slots[Int(index)]
        if slot.tag == .none, slot.shape == .scalar,
           !slot.style.isPlain
            || (slot.second > 0
                && !YAMLNode.mayReadAsOtherThanString(startingWith: storage.bytes[Int(slot.first)], count: Int(slot.second))) {
            return storage.text(of: slot)
        }
        guard case .string(let text)? = resolvedScalar(index) else { return nil }
        return text
    }

    /// What `body` makes of the UTF-8 text of the scalar at `index`, read in place when it is
    /// short.
    func withText<Result>(_ index: Index, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        let slot = storage.slots[Int(index)]
        if slot.shape == .scalar { return try storage.withBytes(of: slot, body) }
        var text = storage.text(of: slot)
        return try text.withUTF8(body)
    }

    /// Whether the node at `index` is a scalar.
    func isScalar(_ index: Index) -> Bool {
        storage.slots[Int(index)].isScalar
    }

    /// The text of the scalar at `index`.
    package func text(_ index: Index) -> String {
        storage.text(of: storage.slots[Int(index)])
    }

    /// What `body` makes of the bytes of the scalar at `index`, if it is a scalar kept as
    /// bytes (one of at most `inlineLimit` bytes); `nil` otherwise.
    func withBytes<Result>(ofScalar index: Index, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result? {
        let slot = storage.slots[Int(index)]
        guard slot.shape == .scalar else { return nil }
        return storage.withBytes(of: slot, body)
    }

    /// Whether the scalar at `index` reads `text`, compared byte for byte without making a string.
    package func scalar(_ index: Index, is text: String) -> Bool {
        let slot = storage.slots[Int(index)]
        guard text.utf8.count == Int(slot.second) else { return false }
        if slot.shape == .longScalar { return storage.longTexts[Int(slot.first)] == text }
        guard slot.shape == .scalar else { return false }
        let same = text.utf8.withContiguousStorageIfAvailable { utf8 in
            storage.withBytes(of: slot) { utf8.hasSameBytes(as: $0) }
        }
        return same ?? (self.text(index) == text)
    }

    /// The length in bytes of the scalar at `index`.
    package func count(ofBytes index: Index) -> Int { Int(storage.slots[Int(index)].second) }

    /// The number of elements of a list, or of pairs of a mapping, at `index`.
    package func count(_ index: Index) -> Int { Int(storage.slots[Int(index)].first) }

    /// The places of the children of the list or mapping at `index`, in order; a mapping's are
    /// its keys and values, alternating.
    package func children(of index: Index) -> Children {
        Children(store: self, start: index + 1, end: end(index))
    }

    /// No children at all.
    var noChildren: Children { Children(store: self, start: 0, end: 0) }

    /// The slot just past the node at `index` and everything under it.
    package func end(_ index: Index) -> Index {
        Index(storage.slots[Int(index)].end(at: Int(index)))
    }

    /// The children of a list or mapping, each skipping over the subtree before it.
    package struct Children: Sequence, IteratorProtocol {
        let store: NodeStore
        var start: Index
        let end: Index

        package mutating func next() -> Index? {
            guard start < end else { return nil }
            defer { start = store.end(start) }
            return start
        }
    }

    /// The pairs whose key is a scalar of the mapping opened at `index` and still open: those
    /// stored before `end`.
    func pairs(ofOpenMapping index: Index, before end: Index) -> Pairs {
        Pairs(children: Children(store: self, start: index + 1, end: end))
    }

    /// The pairs of the mapping at `index` whose key is a scalar (a name), in order.
    func pairs(of index: Index) -> Pairs {
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
}
