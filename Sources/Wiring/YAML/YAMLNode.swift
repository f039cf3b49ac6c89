/// A node of a YAML document, as Wiring's reader builds it from libyaml's events.
///
/// Unlike a generic YAML document API, it keeps what a manifest checker needs: the scalar style
/// (plain or quoted), the tag, mappings in source order, and a 1-based position on every node.
/// Aliases are expanded into copies of their anchor's node (copies share storage), and merge
/// keys (`<<`) are already applied.
package struct YAMLNode: Sendable, Equatable {
    /// What a node holds.
    package enum Content: Sendable, Equatable {
        case scalar(String, YAMLScalarStyle)
        case sequence([YAMLNode])
        case mapping([YAMLPair])
    }

    package var content: Content
    /// The tag written on the node, if any (`!!str`, `!secret`, …); unknown tags are rejected.
    package var tag: YAMLTag
    /// 1-based line of the node's first character.
    package var line: Int32
    /// 1-based column of the node's first character.
    package var column: Int32

    package init(_ content: Content, tag: YAMLTag = .none, line: Int32, column: Int32) {
        self.content = content
        self.tag = tag
        self.line = line
        self.column = column
    }

    /// What stands at `line` and `column` for an undefined alias, already reported.
    package static func placeholder(line: Int32, column: Int32) -> YAMLNode {
        YAMLNode(.scalar("", .plain), tag: .placeholder, line: line, column: column)
    }

    /// The scalar text, if this is a scalar.
    package var scalar: String? {
        if case .scalar(let text, _) = content { return text }
        return nil
    }

    /// A short name for the kind of node, for messages: "a string", "a list", "a mapping".
    var kindDescription: String {
        switch content {
        case .scalar: YAMLScalarValue.kindDescription(of: resolvedScalar)
        case .sequence: "a list"
        case .mapping: "a mapping"
        }
    }
}

/// A key and its value in a YAML mapping.
package struct YAMLPair: Sendable, Equatable {
    package var key: YAMLNode
    package var value: YAMLNode
}

/// How a scalar was written.
package enum YAMLScalarStyle: Sendable, Hashable, BitwiseCopyable {
    case plain, singleQuoted, doubleQuoted, literal, folded

    /// Whether the scalar was written without quotes or block indicators.
    var isPlain: Bool { self == .plain }
}

/// The tags the reader accepts. Anything else (`!!python/object/apply:…`, `!custom`) is an error.
package enum YAMLTag: Sendable, Hashable, BitwiseCopyable {
    /// No tag: plain scalars resolve by the YAML 1.2 core schema, others are strings.
    case none
    /// `!`, the non-specific tag: the scalar is a string.
    case nonSpecific
    case string, int, float, bool, null, map, seq
    /// `!!merge`, on a `<<` key.
    case merge
    /// `!secret`: a value that must never be shown in messages, logs or output.
    case secret
    /// `!replace`: a mapping or list that replaces what it overrides instead of merging with it
    /// (the reader only carries it; its reader above gives it meaning).
    case replace
    /// `!service`: a reference to another service, by key (a scalar) or `{ service, name }`
    /// (the reader only carries it; its reader above gives it meaning).
    case service
    /// `!tagged`: every service with a tag (a scalar naming the tag).
    case tagged
    /// Stands in for an undefined alias, already reported: later stages say nothing more of it.
    case placeholder

    /// Each known tag as libyaml resolves it.
    private static let spellings: [(text: StaticString, tag: YAMLTag)] = [
        ("!service", .service), ("!tagged", .tagged), ("!secret", .secret), ("!replace", .replace), ("!", .nonSpecific),
        ("tag:yaml.org,2002:str", .string), ("tag:yaml.org,2002:int", .int), ("tag:yaml.org,2002:float", .float),
        ("tag:yaml.org,2002:bool", .bool), ("tag:yaml.org,2002:null", .null), ("tag:yaml.org,2002:map", .map),
        ("tag:yaml.org,2002:seq", .seq), ("tag:yaml.org,2002:merge", .merge),
    ]

    /// Maps libyaml's resolved tag text, as bytes, to a known tag, making no string. Reading
    /// a manifest with a `!service` on each of 10,000 services took 9.6 M instructions fewer
    /// (callgrind, 333 M in all) than making each tag a `String` and switching over it.
    package init?(utf8 text: UnsafeBufferPointer<UInt8>) {
        for (spelling, tag) in Self.spellings where spelling.utf8CodeUnitCount == text.count {
            if spelling.withUTF8Buffer({ text.hasSameBytes(as: $0) }) {
                self = tag
                return
            }
        }
        return nil
    }
}
