/// Where a value sits in a service's args, as a path from the argument down: `store`,
/// `stores[1]`, `db.replica`. Spelled only when asked for: validation passes one for every
/// `!service` and `!tagged` reference and spells it only for the few it reports.
package struct ArgumentPath: Sendable, CustomStringConvertible {
    /// A step down from a list or mapping to one of its values.
    package enum Step: Sendable {
        /// To the value of the key at this index of the store.
        case key(NodeStore.Index)
        /// To the element at this offset.
        case element(Int)
    }

    private enum Source: Sendable {
        /// The argument whose key is at `key` of `store`, then `steps` down its value.
        case stored(NodeStore, key: NodeStore.Index, steps: [Step])
        case spelled(String)
        /// The parameter of an autowired factory that resolves this type.
        case autowired(String)
    }

    private let source: Source

    /// The path down `steps` from the value of the argument whose key is at `key` in `store`.
    package init(store: NodeStore, key: NodeStore.Index, steps: [Step]) {
        source = .stored(store, key: key, steps: steps)
    }

    /// A path already spelled.
    package init(_ text: String) {
        source = .spelled(text)
    }

    /// The parameter of an autowired factory that resolves `type`.
    package init(autowired type: String) {
        source = .autowired(type)
    }

    /// Whether the path is an autowired factory's parameter, not a place in the args.
    package var isAutowired: Bool {
        if case .autowired = source { return true }
        return false
    }

    /// What the path names in a message: an argument, or an autowired factory's parameter.
    package var noun: String { isAutowired ? "autowired parameter" : "argument" }

    /// The path, spelled.
    package var description: String {
        switch source {
        case .spelled(let text), .autowired(let text):
            return text
        case .stored(let store, let key, let steps):
            var path = store.text(key)
            for step in steps {
                switch step {
                case .key(let index): path += ".\(store.text(index))"
                case .element(let offset): path += "[\(offset)]"
                }
            }
            return path
        }
    }
}
