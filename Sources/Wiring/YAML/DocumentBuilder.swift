internal import CYAML

/// Writes libyaml's events into a ``NodeStore`` as they come, with an explicit stack, so deep
/// input cannot overflow ours. Runs on the caller's thread.
///
/// Aliases are stored as copies of their anchor's node, merge keys (`<<`) are applied when
/// their mapping ends, and a repeated key is reported and its pair dropped: what reads the
/// store sees plain data.
struct DocumentBuilder {
    /// An open list or mapping, its children stored after its slot.
    private struct Frame {
        var slot: NodeStore.Index
        var isMapping: Bool
        var anchor: String?
        /// Elements, or pairs kept, so far.
        var count = 0
        /// A mapping: the key waiting for its value, and what becomes of the pair.
        var key: NodeStore.Index?
        var admission = Admission.kept
        /// A mapping: the line of each scalar key, once it has more than ``indexedKeys`` of
        /// them (a mapping of thousands of keys would otherwise be scanned once per key).
        var keyLines: [NameKey: Int32]?
        /// A mapping: its merge keys' values, in `merged`, applied when it ends.
        var merges: [NodeStore.Index] = []
    }

    /// What becomes of a value given the key it follows.
    private enum Admission {
        /// The pair joins the mapping.
        case kept
        /// The key is `<<`: the value is merged in when the mapping ends.
        case merge
        /// The key repeats an earlier one, as reported: the pair is dropped.
        case duplicate
    }

    /// A node an anchor (`&name`) names, copied into `anchored`, for the aliases (`*name`) that
    /// copy it.
    private struct Anchor {
        var index: NodeStore.Index
        var nodeCount: Int
    }

    /// Mappings with more keys than this index them to find a repeated one.
    private static let indexedKeys = 8

    let file: String
    let limits: YAMLLimits
    /// The document.
    let store: NodeStore
    /// Where the document's root is in `store`, once it is read.
    var root: NodeStore.Index?
    var diagnostics: [Diagnostic] = []
    /// Where each scalar tagged `!secret` was written, so that printed source lines can hide it.
    var secrets: [SourceSpan] = []
    private var stack: [Frame] = []
    /// Anchored nodes, kept apart so that dropping a repeated key's pair never drops them.
    private let anchored: NodeStore
    /// Values of merge keys, waiting for their mapping to end.
    private let merged: NodeStore
    private var anchors: [String: Anchor] = [:]
    private var expandedNodes = 0
    private var documents = 0

    init(file: String, limits: YAMLLimits) {
        self.file = file
        self.limits = limits
        let fileID = SourceFileTable.intern(file)
        store = NodeStore(fileID: fileID)
        anchored = NodeStore(fileID: fileID)
        merged = NodeStore(fileID: fileID)
    }

    func location(_ mark: yaml_mark_t) -> SourceLocation {
        SourceLocation(file: file, line: mark.line + 1, column: mark.column + 1)
    }

    func location(line: Int32, column: Int32) -> SourceLocation {
        SourceLocation(file: file, line: Int(line), column: Int(column))
    }

    /// Reads `buffer` into the store.
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
        case YAML_SCALAR_EVENT:
            let data = event.data.scalar
            let utf8 = UnsafeBufferPointer(start: data.value, count: data.length)
            let style = style(data.style)
            var tag = readTag(data.tag, line: line, column: column)
            if tag != .none { tag = checkedTag(tag, of: String(decoding: utf8, as: UTF8.self), style: style, line: line, column: column) }
            if tag == .secret {
                secrets.append(SourceSpan(
                    startLine: Int(line), startColumn: Int(column),
                    endLine: event.end_mark.line + 1, endColumn: event.end_mark.column + 1))
            }
            let index = store.appendScalar(utf8, style: style, tag: tag, line: line, column: column)
            return complete(index, anchor: string(data.anchor))
        case YAML_ALIAS_EVENT:
            switch lookUpAlias(event, line: line, column: column) {
            case .fatal:
                return false
            case .undefined:
                return complete(store.appendScalar(.init(start: nil, count: 0), style: .plain, tag: .placeholder, line: line, column: column), anchor: nil)
            case .found(let anchor):
                let index = store.append(copyOf: anchor.index, from: anchored)
                store.move(index, toLine: line, column: column)
                return complete(index, anchor: nil)
            }
        case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
            guard let opening = opening(event, line: line, column: column) else { return false }
            let slot = store.open(mapping: opening.isMapping, tag: opening.tag, line: line, column: column)
            stack.append(Frame(slot: slot, isMapping: opening.isMapping, anchor: opening.anchor))
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
            var frame = stack.removeLast()
            if !frame.merges.isEmpty { applyMerges(&frame) }
            store.close(frame.slot, count: frame.count)
            return complete(frame.slot, anchor: frame.anchor)
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
        if tag != .none && tag != .nonSpecific && tag != .replace && tag != (isMapping ? .map : .seq) && !(isMapping && tag == .service) {
            diagnostics.append(.error(
                "\(Self.displayTag(tag)) cannot tag a \(isMapping ? "mapping" : "list")",
                at: location(line: line, column: column)))
            tag = .none
        }
        return (isMapping, tag, string(rawAnchor))
    }

    /// Files the node just stored at `index` (and its subtree) with its parent, or makes it the
    /// root, keeping a copy for its anchor.
    private mutating func complete(_ index: NodeStore.Index, anchor: String?) -> Bool {
        if let anchor {
            anchors[anchor] = Anchor(index: anchored.append(copyOf: index, from: store), nodeCount: Int(store.endIndex - index))
        }
        guard let top = stack.indices.last else {
            root = index
            return true
        }
        guard stack[top].isMapping else {
            stack[top].count += 1
            return true
        }
        guard let key = stack[top].key.take() else {
            stack[top].key = index
            stack[top].admission = admit(index, at: top)
            return true
        }
        switch stack[top].admission {
        case .kept:
            stack[top].count += 1
        case .merge:
            stack[top].merges.append(merged.append(copyOf: index, from: store))
            store.truncate(to: key)
        case .duplicate:
            store.truncate(to: key)
        }
        return true
    }

    /// What becomes of the pair whose key was just stored at `key`, in the mapping at `top`.
    private mutating func admit(_ key: NodeStore.Index, at top: Int) -> Admission {
        guard store.isScalar(key) else { return .kept }
        let tag = store.tag(key)
        if store.scalar(key, is: "<<") && ((store.style(key).isPlain && tag == .none) || tag == .merge) {
            return .merge
        }
        if let first = recordKey(key, at: top) {
            diagnostics.append(.error(
                "duplicate key '\(store.text(key))'; first defined at line \(first)", at: store.location(key)))
            return .duplicate
        }
        return .kept
    }

    /// The line of an earlier key of the mapping at `top` that reads as the scalar at `key`;
    /// when there is none, `key` is noted among the mapping's keys, and they are all indexed
    /// once there are enough. One lookup, and one string of the key, whichever it finds.
    private mutating func recordKey(_ key: NodeStore.Index, at top: Int) -> Int32? {
        let line = store.position(key).line
        if stack[top].keyLines != nil {
            let name = NameKey(store.text(key))
            guard let first = stack[top].keyLines!.updateValue(line, forKey: name) else { return nil }
            stack[top].keyLines![name] = first
            return first
        }
        if let first = store.lineOfEarlierKey(matching: key, inOpenMapping: stack[top].slot) { return first }
        if stack[top].count >= Self.indexedKeys {
            var lines = [NameKey: Int32](minimumCapacity: 64)
            for (earlier, _) in store.pairs(ofOpenMapping: stack[top].slot, before: key) {
                let text = NameKey(store.text(earlier))
                if lines[text] == nil { lines[text] = store.position(earlier).line }
            }
            lines[NameKey(store.text(key))] = line
            stack[top].keyLines = lines
        }
        return nil
    }

    /// Adds the pairs of the mappings a mapping's merge keys (`<<: *defaults`, or a list of
    /// them) name that the mapping does not set itself; among merged mappings the earlier one
    /// wins, as the YAML merge-key specification says. A merge of anything else is reported.
    private mutating func applyMerges(_ frame: inout Frame) {
        stack.append(frame)
        let top = stack.count - 1
        for merge in frame.merges {
            let sources = merged.isScalar(merge) || merged.isMapping(merge) ? [merge] : Array(merged.children(of: merge))
            for source in sources where merged.tag(source) != .placeholder {
                guard merged.isMapping(source) else {
                    let kind = StoredNode(store: merged, index: source).kindDescription
                    diagnostics.append(.error(
                        "a merge key '<<' takes a mapping or a list of mappings, not \(kind)", at: merged.location(source)))
                    continue
                }
                var children = merged.children(of: source)
                while let key = children.next(), let value = children.next() {
                    let copy = store.append(copyOf: key, from: merged)
                    if store.isScalar(copy), recordKey(copy, at: top) != nil {
                        store.truncate(to: copy)
                        continue
                    }
                    _ = store.append(copyOf: value, from: merged)
                    stack[top].count += 1
                }
            }
        }
        merged.truncate(to: frame.merges[0])
        frame = stack.removeLast()
    }
}
