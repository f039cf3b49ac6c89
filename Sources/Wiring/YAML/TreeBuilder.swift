internal import CYAML

/// Turns libyaml events into a tree of ``YAMLNode``s with an explicit stack, so deep input
/// cannot overflow ours. Runs on the caller's thread.
struct TreeBuilder {
    /// An open sequence or mapping. Its children wait on the shared scratch stacks from `start`
    /// on, and are copied out once, at their final size, when it closes.
    private struct Frame {
        var isMapping: Bool
        var start: Int
        var pendingKey: YAMLNode?
        var merges: [YAMLNode] = []
        var keys = KeySet()
        var tag: YAMLTag
        var anchor: String?
        var line: Int32
        var column: Int32
        /// Nodes in this subtree so far, the frame's own node included.
        var nodeCount = 1
    }

    /// A node an anchor (`&name`) names, for the aliases (`*name`) that copy it.
    struct Anchor {
        var node: YAMLNode
        var nodeCount: Int
    }

    let file: String
    let limits: YAMLLimits
    var root: YAMLNode?
    var diagnostics: [Diagnostic] = []
    private var stack: [Frame] = []
    private let itemScratch = MoveStack<YAMLNode>()
    private let pairScratch = MoveStack<YAMLPair>()
    private var anchors: [String: Anchor] = [:]
    private var expandedNodes = 0
    private var documents = 0

    init(file: String, limits: YAMLLimits) {
        self.file = file
        self.limits = limits
    }

    func location(_ mark: yaml_mark_t) -> SourceLocation {
        SourceLocation(file: file, line: mark.line + 1, column: mark.column + 1)
    }

    func location(line: Int32, column: Int32) -> SourceLocation {
        SourceLocation(file: file, line: Int(line), column: Int(column))
    }

    /// Builds the tree of `buffer`.
    mutating func run(_ buffer: UnsafeBufferPointer<UInt8>) {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else {
            diagnostics.append(.error("libyaml could not allocate a parser", at: nil))
            return
        }
        defer { yaml_parser_delete(&parser) }
        yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
        var event = yaml_event_t()
        while true {
            guard yaml_parser_parse(&parser, &event) == 1 else {
                diagnostics.append(parserError(parser, buffer))
                root = nil
                return
            }
            defer { yaml_event_delete(&event) }
            if event.type == YAML_STREAM_END_EVENT { return }
            guard handle(event) else {
                root = nil
                return
            }
        }
    }

    /// Handles one event; `false` stops reading after a fatal problem.
    private mutating func handle(_ event: yaml_event_t) -> Bool {
        let line = Int32(clamping: event.start_mark.line + 1)
        let column = Int32(clamping: event.start_mark.column + 1)
        switch event.type {
        case YAML_DOCUMENT_START_EVENT:
            documents += 1
            if documents > 1 {
                diagnostics.append(.error(
                    "a manifest is a single YAML document, but a second document starts here",
                    at: location(event.start_mark)))
                return false
            }
            anchors = [:]
        case YAML_SCALAR_EVENT:
            let data = event.data.scalar
            let text = String(decoding: UnsafeBufferPointer(start: data.value, count: data.length), as: UTF8.self)
            var tag = readTag(data.tag, line: line, column: column)
            let style = style(data.style)
            if tag != .none { tag = checkedTag(tag, of: text, style: style, line: line, column: column) }
            return add(YAMLNode(.scalar(text, style), tag: tag, line: line, column: column), anchor: string(data.anchor), nodeCount: 1)
        case YAML_ALIAS_EVENT:
            switch lookUpAlias(event, line: line, column: column) {
            case .fatal:
                return false
            case .undefined:
                return add(.placeholder(line: line, column: column), anchor: nil, nodeCount: 1)
            case .found(let anchor):
                var copy = anchor.node
                copy.line = line
                copy.column = column
                return add(copy, anchor: nil, nodeCount: anchor.nodeCount)
            }
        case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
            guard let opening = opening(event, line: line, column: column) else { return false }
            let (isMapping, tag) = (opening.isMapping, opening.tag)
            let start = isMapping ? pairScratch.count : itemScratch.count
            stack.append(Frame(isMapping: isMapping, start: start, tag: tag, anchor: opening.anchor, line: line, column: column))
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
            var frame = stack.removeLast()
            let content: YAMLNode.Content
            if frame.isMapping {
                if !frame.merges.isEmpty { applyMerges(&frame) }
                content = .mapping(pairScratch.popArray(from: frame.start))
            } else {
                content = .sequence(itemScratch.popArray(from: frame.start))
            }
            let node = YAMLNode(content, tag: frame.tag, line: frame.line, column: frame.column)
            return add(node, anchor: frame.anchor, nodeCount: frame.nodeCount)
        default:
            break
        }
        return true
    }

    /// The tag of a scalar with text `text`: `tag`, or `!!str` once reported when the text is
    /// not what the tag says (`!!int abc`).
    private mutating func checkedTag(_ tag: YAMLTag, of text: String, style: YAMLScalarStyle, line: Int32, column: Int32) -> YAMLTag {
        guard YAMLNode.resolve(text, style: style, tag: tag) == nil else { return tag }
        diagnostics.append(.error(
            "'\(text)' is not a valid \(Self.displayTag(tag))", at: location(line: line, column: column)))
        return .string
    }

    /// What an alias refers to.
    private enum AliasLookup {
        case found(Anchor)
        /// Reported: a placeholder stands for it.
        case undefined
        /// Reading stops: the expansion limit is crossed.
        case fatal
    }

    /// The anchor an alias event names, counted against the expansion limit.
    private mutating func lookUpAlias(_ event: yaml_event_t, line: Int32, column: Int32) -> AliasLookup {
        let name = string(event.data.alias.anchor) ?? ""
        guard let anchor = anchors[name] else {
            diagnostics.append(.error(
                "undefined alias '*\(name)'\(Suggestion.hint(for: name, in: anchors.keys))",
                at: location(line: line, column: column)))
            return .undefined
        }
        expandedNodes += anchor.nodeCount
        if expandedNodes > limits.maxAliasExpansion {
            diagnostics.append(.error(
                "aliases expand to more than \(limits.maxAliasExpansion) nodes; a manifest never needs that many (is this an alias bomb?)",
                at: location(line: line, column: column)))
            return .fatal
        }
        return .found(anchor)
    }

    /// What a sequence or mapping start event opens; `nil` when it nests too deep (reported).
    private mutating func opening(
        _ event: yaml_event_t, line: Int32, column: Int32
    ) -> (isMapping: Bool, tag: YAMLTag, anchor: String?)? {
        guard stack.count < limits.maxDepth else {
            diagnostics.append(.error(
                "nesting is deeper than \(limits.maxDepth) levels", at: location(line: line, column: column)))
            return nil
        }
        let isMapping = event.type == YAML_MAPPING_START_EVENT
        let rawTag = isMapping ? event.data.mapping_start.tag : event.data.sequence_start.tag
        let rawAnchor = isMapping ? event.data.mapping_start.anchor : event.data.sequence_start.anchor
        var tag = readTag(rawTag, line: line, column: column)
        if tag != .none && tag != .nonSpecific && tag != .replace && tag != (isMapping ? .map : .seq) {
            diagnostics.append(.error(
                "\(Self.displayTag(tag)) cannot tag a \(isMapping ? "mapping" : "list")",
                at: location(line: line, column: column)))
            tag = .none
        }
        return (isMapping, tag, string(rawAnchor))
    }

    /// What becomes of a value given the key it follows in the mapping at `top`.
    private enum Admission {
        /// The key is `<<`: the value is merged in when the mapping closes.
        case merge
        /// The key repeats an earlier one, as reported: the pair is dropped.
        case duplicate
        /// The pair joins the mapping; a scalar key is now among its keys.
        case kept
    }

    private mutating func admit(_ key: YAMLNode, at top: Int) -> Admission {
        guard case .scalar(let text, let style) = key.content else { return .kept }
        if text.utf8.count == 2 && text == "<<" && ((style.isPlain && key.tag == .none) || key.tag == .merge) {
            return .merge
        }
        let start = stack[top].start
        if let first = stack[top].keys.firstLine(of: text, in: pairScratch, from: start) {
            diagnostics.append(.error(
                "duplicate key '\(text)'; first defined at line \(first)",
                at: location(line: key.line, column: key.column)))
            return .duplicate
        }
        stack[top].keys.insert(text, at: pairScratch.count, in: pairScratch, from: start)
        return .kept
    }

    /// Adds a finished node to its parent (or makes it the root), registering its anchor.
    private mutating func add(_ node: consuming YAMLNode, anchor: String?, nodeCount: Int) -> Bool {
        if let anchor { anchors[anchor] = Anchor(node: copy node, nodeCount: nodeCount) }
        let top = stack.count - 1
        guard top >= 0 else {
            root = node
            return true
        }
        stack[top].nodeCount += nodeCount
        guard stack[top].isMapping else {
            itemScratch.append(node)
            return true
        }
        guard let key = stack[top].pendingKey.take() else {
            stack[top].pendingKey = consume node
            return true
        }
        switch admit(key, at: top) {
        case .merge: stack[top].merges.append(node)
        case .duplicate: break
        case .kept: pairScratch.append(YAMLPair(key: key, value: node))
        }
        return true
    }

    /// Hands `body` each pair of the mappings a mapping's merge keys (`<<: *defaults`, or a list
    /// of them) name, in order; a merge of anything else is reported.
    private mutating func forEachMergedPair(_ merges: [YAMLNode], _ body: (YAMLPair) -> Void) {
        for merge in merges {
            let sources: [YAMLNode]
            if case .sequence(let elements) = merge.content {
                sources = elements
            } else {
                sources = [merge]
            }
            for source in sources where source.tag != .placeholder {
                guard case .mapping(let merged) = source.content else {
                    diagnostics.append(.error(
                        "a merge key '<<' takes a mapping or a list of mappings, not \(source.kindDescription)",
                        at: location(line: source.line, column: source.column)))
                    continue
                }
                merged.forEach(body)
            }
        }
    }

    /// Adds the pairs of merged mappings that the mapping does not set itself. Among merged
    /// mappings the earlier one wins, as the YAML merge-key specification says.
    private mutating func applyMerges(_ frame: inout Frame) {
        var keys = frame.keys
        let (start, scratch) = (frame.start, pairScratch)
        forEachMergedPair(frame.merges) { pair in
            if let text = pair.key.scalar {
                if keys.firstLine(of: text, in: scratch, from: start) != nil { return }
                keys.insert(text, at: scratch.count, in: scratch, from: start)
            }
            scratch.append(pair)
        }
        frame.keys = keys
    }
}
