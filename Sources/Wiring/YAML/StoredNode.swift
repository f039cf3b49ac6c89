/// A node in a ``NodeStore``: what reads a document reads, as ``YAMLNode`` is for a tree.
package struct StoredNode: Sendable {
    package let store: NodeStore
    package let index: NodeStore.Index

    package init(store: NodeStore, index: NodeStore.Index) {
        self.store = store
        self.index = index
    }

    /// The tag written on the node.
    package var tag: YAMLTag { store.tag(index) }

    /// Where the node was written.
    package var location: SourceLocation { store.location(index) }

    var isScalar: Bool { store.isScalar(index) }
    var isMapping: Bool { store.isMapping(index) }
    var isSequence: Bool { !isScalar && !isMapping }

    /// The scalar text, if this is a scalar.
    package var scalar: String? { isScalar ? store.text(index) : nil }

    /// Whether this is a scalar that reads `text`.
    package func scalar(is text: String) -> Bool { store.scalar(index, is: text) }

    /// Whether this is a scalar that reads as a string.
    var isStringScalar: Bool { stringValue != nil }

    /// The scalar's text, if it reads as a string (see ``NodeStore/stringValue(_:)``).
    package var stringValue: String? { store.stringValue(index) }

    /// The scalar's typed value (see ``YAMLNode/resolvedScalar``); `nil` for a list or mapping.
    var resolvedScalar: YAMLScalarValue? { store.resolvedScalar(index) }

    /// A short name for the kind of node, for messages: "a string", "a list", "a mapping".
    var kindDescription: String {
        if isMapping { return "a mapping" }
        if isSequence { return "a list" }
        return YAMLScalarValue.kindDescription(of: resolvedScalar)
    }

    /// The elements of a list, in order; none for a scalar or a mapping.
    var elements: Elements {
        Elements(children: isSequence ? store.children(of: index) : store.noChildren)
    }

    /// The keys and values of a mapping, all of them, in order; none for a scalar or a list.
    var pairs: Pairs {
        Pairs(children: isMapping ? store.children(of: index) : store.noChildren)
    }

    /// The elements of a list.
    package struct Elements: Sequence, IteratorProtocol {
        var children: NodeStore.Children

        /// No elements.
        package static func none(in store: NodeStore) -> Elements { Elements(children: store.noChildren) }

        package mutating func next() -> StoredNode? {
            children.next().map { StoredNode(store: children.store, index: $0) }
        }
    }

    /// The keys and values of a mapping.
    package struct Pairs: Sequence, IteratorProtocol {
        var children: NodeStore.Children

        /// No pairs.
        package static func none(in store: NodeStore) -> Pairs { Pairs(children: store.noChildren) }

        package mutating func next() -> StoredPair? {
            guard let key = children.next(), let value = children.next() else { return nil }
            return StoredPair(key: StoredNode(store: children.store, index: key), value: StoredNode(store: children.store, index: value))
        }
    }

    /// The node and its subtree as a ``YAMLNode``.
    package var node: YAMLNode { store.node(at: index) }
}

/// A key and its value, both in one ``NodeStore``.
package struct StoredPair: Sendable {
    package let key: StoredNode
    package let value: StoredNode
}
