internal import CYAML

/// Turns libyaml events into nodes with an explicit stack, so deep input cannot overflow ours.
///
/// The entries of the streamed section are not built as nodes: each is written into a
/// ``ValueStore`` as its events come, handed to the consumer, and dropped (see
/// `handleStored`). The rest of the file is built as a tree of ``YAMLNode``s.
struct TreeBuilder {
    /// An open sequence or mapping of the tree. Its children wait on the shared scratch stacks
    /// from `start` on, and are copied out once, at their final size, when it closes.
    private struct Frame {
        var isMapping: Bool
        /// Written in flow style (`[…]`, `{…}`) rather than by indentation.
        var isFlow: Bool
        var start: Int
        /// Whether this is the mapping whose entries are streamed to `consume`.
        var isStreamed = false
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

    /// An open sequence or mapping of a streamed entry, its children stored after its slot. Plain
    /// values only: pushing and popping one costs no reference counting.
    private struct StoredFrame {
        var slot: ValueStore.Index
        /// Elements, or pairs, so far.
        var count: UInt32 = 0
        /// A mapping: the key waiting for its value (`noKey` when none).
        var key: ValueStore.Index = StoredFrame.noKey
        /// Nodes in this subtree so far, the frame's own node included.
        var nodeCount = 1
        var isMapping: Bool
        var isFlow: Bool
        /// A mapping: the waiting key is a merge key (`<<`).
        var keyIsMerge = false
        /// Whether this frame has the last of `storedExtras`.
        var hasExtras = false

        static let noKey = ValueStore.Index.max
    }

    /// What few stored frames need: an anchor, merge keys, an index of many keys.
    private struct StoredFrameExtras {
        var anchor: String?
        var merges: [YAMLNode] = []
        /// The line of each key, once the mapping has enough keys to index them.
        var keys: [String: Int32]?
    }

    /// A node an anchor (`&name`) names, for the aliases (`*name`) that copy it.
    struct Anchor: Sendable {
        var node: YAMLNode
        var nodeCount: Int
    }

    /// Which bytes of the file this builder reads.
    enum Part {
        /// The whole file.
        case whole
        /// The file without the pieces of its cut section (``SectionCut``): the bytes before
        /// the first cut, then those from the section's end on.
        case head(SectionCut)
        /// One piece of a cut section, whose entries are at its root.
        case piece(SectionCut, number: Int)
    }

    /// What reading a section in pieces must check once all are read. Each part checks, as it
    /// reads, that its cut falls where the whole file has a boundary between entries, and notes
    /// the anchors and aliases that could cross a cut.
    struct SplitCheck: Sendable {
        /// The part read something that differs from reading the whole file: it is discarded.
        var broken = false
        /// The head: the section closed past the cut, so what follows is the file's remainder.
        var passedCut = false
        /// The head: the section's keys with their positions among its pairs, kept when it
        /// closed once it had enough of them to index.
        var sectionKeys: [NameKey: Int]?
        /// The head: anchors defined inside the section before the cut.
        var anchorsInSection: Set<String> = []
        /// The head: anchors defined before the section, for the pieces' aliases.
        var anchorsBeforeSection: [String: Anchor] = [:]
        /// The head: aliases after the section.
        var aliasesAfterCut: Set<String> = []
        /// A piece: anchors defined before the section, for aliases it cannot resolve within
        /// itself.
        var seed: [String: Anchor] = [:]
        /// A piece: the anchors of `seed` its aliases used.
        var seedUses: Set<String> = []
        /// A piece: the anchors it defines.
        var definedAnchors: Set<String> = []
    }

    /// How this builder's part of the file is read, without the cut's array for each event.
    private enum Role {
        case whole, head, piece
    }

    let file: String
    let limits: YAMLLimits
    /// The top-level key whose entries go to `consume` as they complete.
    var streamedSection: String?
    var consume: ((StoredPair) -> Void)?
    /// Where the streamed entry being read is stored; emptied once it is consumed. A store of
    /// its own once there is a consumer, and one left empty until then.
    private var entry = ValueStore(fileID: 0)
    /// Whether the next event belongs to a streamed entry: its key is read, its value is not.
    private var storing = false
    private var storedStack: [StoredFrame] = []
    private var storedExtras: [StoredFrameExtras] = []
    var root: YAMLNode?
    var diagnostics: [Diagnostic] = []
    private var stack: [Frame] = []
    private let itemScratch = MoveStack<YAMLNode>()
    private let pairScratch = MoveStack<YAMLPair>()
    private(set) var anchors: [String: Anchor] = [:]
    private(set) var expandedNodes = 0
    private var documents = 0

    /// Whether libyaml parses on a thread of its own (see ``YAMLPipelining``).
    let pipelined: Bool
    /// Which bytes this builder reads.
    let part: Part
    private let role: Role
    /// Where libyaml places the first cut (the head) or the piece's end (a piece). Every event
    /// in the section but the ends of collections written by indentation must come before it.
    private let cutIndex: Int
    /// The section's key line (the head) and the column of its entries.
    private let sectionKeyLine: Int32
    private let sectionIndent: Int
    /// Lines of the file before the first byte libyaml reads (a piece's start).
    private let lineBase: Int
    /// Where libyaml's input skips the section's pieces (the head's cut), and how many lines it
    /// skips: marks from there on are that many lines further down the file.
    private let gapIndex: Int
    private let gapLines: Int
    /// Levels of nesting above this builder's root (a piece's entries are one deep).
    private let depthBase: Int
    var split = SplitCheck()

    init(file: String, limits: YAMLLimits, pipelined: Bool, part: Part = .whole) {
        self.file = file
        self.limits = limits
        self.part = part
        switch part {
        case .whole:
            (role, self.pipelined, lineBase, gapIndex, gapLines, depthBase) = (.whole, pipelined, 0, .max, 0, 0)
            (cutIndex, sectionKeyLine, sectionIndent) = (.max, 0, 0)
        case .head(let cut):
            (role, self.pipelined, lineBase, gapIndex, gapLines, depthBase) = (.head, false, 0, cut.cuts[0].index, cut.gapLines, 0)
            (cutIndex, sectionKeyLine, sectionIndent) = (cut.cuts[0].index, cut.keyLine, cut.indent)
        case .piece(let cut, let number):
            (role, self.pipelined, lineBase, gapIndex, gapLines, depthBase) = (.piece, false, cut.cuts[number].linesBefore, .max, 0, 1)
            (cutIndex, sectionKeyLine, sectionIndent) = (cut.length(ofPiece: number), cut.keyLine, cut.indent)
        }
    }

    /// The 1-based line of the file a libyaml mark is on.
    private func line(_ mark: yaml_mark_t) -> Int32 {
        let line = lineBase + mark.line + 1
        return Int32(clamping: mark.index >= gapIndex ? line + gapLines : line)
    }

    private func location(_ mark: yaml_mark_t) -> SourceLocation {
        SourceLocation(file: file, line: Int(line(mark)), column: mark.column + 1)
    }

    private func location(line: Int32, column: Int32) -> SourceLocation {
        SourceLocation(file: file, line: Int(line), column: Int(column))
    }

    mutating func run(_ buffer: UnsafeBufferPointer<UInt8>) {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else {
            diagnostics.append(.error("libyaml could not allocate a parser", at: nil))
            return
        }
        // Predecoded input (see the C shim) is freed, and libyaml's buffer put back, first.
        var predecoded = wiring_predecoded_input()
        defer {
            if predecoded.bytes != nil { wiring_parser_restore_buffer(&parser, &predecoded) }
            yaml_parser_delete(&parser)
        }
        switch part {
        case .whole:
            if !setPredecodedInput(&parser, &predecoded, buffer) {
                yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            }
            if pipelined {
                let started = withUnsafeMutablePointer(to: &parser) { runPipelined($0, buffer) }
                if started { return }
            }
            parse(&parser, buffer)
        case .head(let cut):
            let before = UnsafeBufferPointer(rebasing: buffer[..<cut.cuts[0].offset])
            if setPredecodedInput(&parser, &predecoded, before, UnsafeBufferPointer(rebasing: buffer[cut.end...])) {
                parse(&parser, buffer)
            } else {
                var input = wiring_gapped_input(
                    bytes: buffer.baseAddress, cut: cut.cuts[0].offset, resume: cut.end, count: buffer.count, position: 0)
                withUnsafeMutablePointer(to: &input) { input in
                    wiring_parser_set_gapped_input(&parser, input)
                    parse(&parser, buffer)
                }
            }
            if !split.passedCut { split.broken = true }
        case .piece(let cut, let number):
            let piece = UnsafeBufferPointer(rebasing: buffer[cut.range(ofPiece: number)])
            if !setPredecodedInput(&parser, &predecoded, piece) {
                yaml_parser_set_input_string(&parser, piece.baseAddress, piece.count)
            }
            parse(&parser, piece)
            if root == nil { split.broken = true }
        }
    }

    /// Gives `parser` the bytes of `first`, then those of `second`, already decoded, so that
    /// libyaml's reader has nothing to do (`wiring_parser_set_predecoded_input`); `false` when
    /// the input must go through that reader after all, which then reports what is wrong with it.
    private func setPredecodedInput(
        _ parser: inout yaml_parser_t, _ input: inout wiring_predecoded_input,
        _ first: UnsafeBufferPointer<UInt8>, _ second: UnsafeBufferPointer<UInt8> = UnsafeBufferPointer(start: nil, count: 0)
    ) -> Bool {
        wiring_parser_set_predecoded_input(&parser, &input, first.baseAddress, first.count, second.baseAddress, second.count) == 1
    }

    /// Runs over `buffer`, handing each entry of the streamed section to `consumer`.
    mutating func run<Consumer: YAMLSectionConsumer>(_ buffer: UnsafeBufferPointer<UInt8>, feeding consumer: inout Consumer) {
        withoutActuallyEscaping({ consumer.consume($0) }) { consume in
            self.consume = consume
            entry = ValueStore(fileID: SourceFileTable.intern(file))
            run(buffer)
            self.consume = nil
        }
    }

    /// Builds the tree from the events `parser` gives, on this thread.
    private mutating func parse(_ parser: inout yaml_parser_t, _ buffer: UnsafeBufferPointer<UInt8>) {
        var event = yaml_event_t()
        // Read once for all events: reading it from `self` for each would retain it each time.
        let entry = self.entry
        while true {
            guard yaml_parser_parse(&parser, &event) == 1 else {
                diagnostics.append(parserError(parser, buffer))
                root = nil
                return
            }
            defer { yaml_event_delete(&event) }
            if event.type == YAML_STREAM_END_EVENT { return }
            guard handle(event, entry: entry) else {
                root = nil
                return
            }
        }
    }

    /// Builds the tree from events that a second thread parses (see `wiring_event_pipe` in
    /// the C shim); `false` when that thread could not start and nothing was read.
    private mutating func runPipelined(_ parser: UnsafeMutablePointer<yaml_parser_t>, _ buffer: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let pipe = wiring_pipe_start(parser) else { return false }
        defer { wiring_pipe_finish(pipe) }
        let entry = self.entry
        while true {
            var count: Int32 = 0, last: Int32 = 0, failed: Int32 = 0
            let events = wiring_pipe_next(pipe, &count, &last, &failed)!
            for index in 0..<Int(count) {
                if events[index].type == YAML_STREAM_END_EVENT { return true }
                guard handle(events[index], entry: entry) else {
                    root = nil
                    return true
                }
            }
            if failed != 0 {
                // The parsing thread has stopped at the error; the parser is safe to read.
                diagnostics.append(parserError(parser.pointee, buffer))
                root = nil
                return true
            }
            if last != 0 { return true }
            wiring_pipe_release(pipe)
        }
    }

    /// Handles one event; `false` stops reading after a fatal problem. `entry` is the builder's
    /// entry store.
    private mutating func handle(_ event: yaml_event_t, entry: ValueStore) -> Bool {
        if role != .whole, !split.passedCut, !eventFitsBeforeCut(event) {
            split.broken = true
            return false
        }
        let line = self.line(event.start_mark)
        let column = Int32(clamping: event.start_mark.column + 1)
        if storing { return handleStored(event, line: line, column: column, in: entry) }
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
            let (isMapping, isFlow, tag) = (opening.isMapping, opening.isFlow, opening.tag)
            let start = isMapping ? pairScratch.count : itemScratch.count
            var frame = Frame(
                isMapping: isMapping, isFlow: isFlow, start: start, tag: tag, anchor: opening.anchor,
                line: line, column: column)
            switch role {
            case .whole:
                frame.isStreamed = isMapping && consume != nil && stack.count == 1 && isStreamedSectionKey(stack[0])
            case .head:
                frame.isStreamed = isMapping && consume != nil && stack.count == 1 && isStreamedSectionKey(stack[0])
                // The section must open where the cut found it, as the cut expects.
                if frame.isStreamed {
                    guard sectionOpens(frame, at: event.start_mark, keyedBy: stack[0].pendingKey) else {
                        split.broken = true
                        return false
                    }
                    split.anchorsBeforeSection = anchors
                }
            case .piece:
                if stack.isEmpty {
                    // A piece's root is the section: a mapping by indentation, its first key
                    // where the cut is.
                    guard sectionOpens(frame, at: event.start_mark, keyedBy: nil) else {
                        split.broken = true
                        return false
                    }
                    frame.isStreamed = consume != nil
                }
            }
            stack.append(frame)
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
            var frame = stack.removeLast()
            let content: YAMLNode.Content
            if frame.isMapping {
                if frame.isStreamed, !sectionCloses(frame) {
                    split.broken = true
                    return false
                }
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
        /// Reading stops: the expansion limit is crossed, or a piece cannot tell.
        case fatal
    }

    /// The anchor an alias event names, counted against the expansion limit.
    private mutating func lookUpAlias(_ event: yaml_event_t, line: Int32, column: Int32) -> AliasLookup {
        let name = string(event.data.alias.anchor) ?? ""
        if role == .head, split.passedCut { split.aliasesAfterCut.insert(name) }
        guard let anchor = anchors[name] ?? seededAnchor(name) else {
            if role == .piece {
                // Defined in an earlier part of the section, or nowhere: reading the whole
                // file tells which.
                split.broken = true
                return .fatal
            }
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
    ) -> (isMapping: Bool, isFlow: Bool, tag: YAMLTag, anchor: String?)? {
        guard stack.count + storedStack.count + depthBase < limits.maxDepth else {
            diagnostics.append(.error(
                "nesting is deeper than \(limits.maxDepth) levels", at: location(line: line, column: column)))
            return nil
        }
        let isMapping = event.type == YAML_MAPPING_START_EVENT
        let rawTag = isMapping ? event.data.mapping_start.tag : event.data.sequence_start.tag
        let rawAnchor = isMapping ? event.data.mapping_start.anchor : event.data.sequence_start.anchor
        let isFlow = isMapping
            ? event.data.mapping_start.style == YAML_FLOW_MAPPING_STYLE
            : event.data.sequence_start.style == YAML_FLOW_SEQUENCE_STYLE
        var tag = readTag(rawTag, line: line, column: column)
        if tag != .none && tag != .nonSpecific && tag != .replace && tag != (isMapping ? .map : .seq) {
            diagnostics.append(.error(
                "\(Self.displayTag(tag)) cannot tag a \(isMapping ? "mapping" : "list")",
                at: location(line: line, column: column)))
            tag = .none
        }
        return (isMapping, isFlow, tag, string(rawAnchor))
    }

    /// Registers `node` under `anchor`, for the aliases that follow.
    private mutating func define(_ anchor: String, as node: YAMLNode, nodeCount: Int) {
        anchors[anchor] = Anchor(node: node, nodeCount: nodeCount)
        switch role {
        case .whole: break
        case .head:
            if !split.passedCut && stack.count >= 2 && stack[1].isStreamed { split.anchorsInSection.insert(anchor) }
        case .piece:
            split.definedAnchors.insert(anchor)
        }
    }

    /// What becomes of a value given the key it follows in the tree's mapping at `top`.
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
        // A piece's entries: joining the pieces hashes every key of the section, which finds any
        // key repeated within a piece as well as across pieces, and the whole file is then read
        // again to report it. Looking here as well would hash each key twice.
        if role == .piece && stack[top].isStreamed { return .kept }
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
        if let anchor { define(anchor, as: copy node, nodeCount: nodeCount) }
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
            // An entry of the streamed section: its value is stored, not built.
            if stack[top].isStreamed { storing = true }
            return true
        }
        switch admit(key, at: top) {
        case .merge: stack[top].merges.append(node)
        case .duplicate: break
        case .kept: pairScratch.append(YAMLPair(key: key, value: node))
        }
        return true
    }

    // MARK: - Streamed entries

    /// Handles one event of a streamed entry's value, which goes into `entry`.
    private mutating func handleStored(_ event: yaml_event_t, line: Int32, column: Int32, in entry: ValueStore) -> Bool {
        switch event.type {
        case YAML_SCALAR_EVENT:
            let data = event.data.scalar
            let utf8 = UnsafeBufferPointer(start: data.value, count: data.length)
            let style = style(data.style)
            var tag = readTag(data.tag, line: line, column: column)
            if tag != .none { tag = checkedTag(tag, of: String(decoding: utf8, as: UTF8.self), style: style, line: line, column: column) }
            let index = entry.appendScalar(utf8, style: style, tag: tag, line: line, column: column)
            // Most scalars have no anchor: without one, no optional string is made and released.
            guard let anchor = data.anchor else { return addStored(index, anchor: nil, nodeCount: 1, in: entry) }
            return addStored(index, anchor: String(cString: anchor), nodeCount: 1, in: entry)
        case YAML_ALIAS_EVENT:
            switch lookUpAlias(event, line: line, column: column) {
            case .fatal:
                return false
            case .undefined:
                return addStored(entry.append(.placeholder(line: line, column: column)), anchor: nil, nodeCount: 1, in: entry)
            case .found(let anchor):
                let top = storedStack.count - 1
                if top >= 0 && storedStack[top].keyIsMerge {
                    // `<<: *name`, the usual merge: the anchor's node is merged as it is.
                    var copy = anchor.node
                    (copy.line, copy.column) = (line, column)
                    storedStack[top].nodeCount += anchor.nodeCount
                    takeMerge(copy, in: entry)
                    return true
                }
                return addStored(entry.append(anchor.node, at: (line, column)), anchor: nil, nodeCount: anchor.nodeCount, in: entry)
            }
        case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
            guard let opening = opening(event, line: line, column: column) else { return false }
            let slot = entry.open(mapping: opening.isMapping, tag: opening.tag, line: line, column: column)
            storedStack.append(StoredFrame(slot: slot, isMapping: opening.isMapping, isFlow: opening.isFlow))
            if let anchor = opening.anchor { updateExtrasOfTop { $0.anchor = anchor } }
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
            var anchor: String?
            if storedStack[storedStack.count - 1].hasExtras {
                if !storedExtras[storedExtras.count - 1].merges.isEmpty { applyStoredMerges(in: entry) }
                anchor = storedExtras.removeLast().anchor
            }
            let frame = storedStack.removeLast()
            entry.close(frame.slot, count: Int(frame.count))
            return addStored(frame.slot, anchor: anchor, nodeCount: frame.nodeCount, in: entry)
        default:
            break
        }
        return true
    }

    /// Updates the extras of the top stored frame, made if it has none. Only the top frame gets
    /// extras, so a frame's are always the last of `storedExtras`.
    private mutating func updateExtrasOfTop(_ update: (inout StoredFrameExtras) -> Void) {
        let top = storedStack.count - 1
        if !storedStack[top].hasExtras {
            storedStack[top].hasExtras = true
            storedExtras.append(StoredFrameExtras())
        }
        update(&storedExtras[storedExtras.count - 1])
    }

    /// Adds a node just stored to its parent, registering its anchor. The parent is a stored
    /// collection, or the streamed section, to whose consumer the entry then goes.
    private mutating func addStored(_ index: ValueStore.Index, anchor: String?, nodeCount: Int, in entry: ValueStore) -> Bool {
        if let anchor { define(anchor, as: entry.node(at: index), nodeCount: nodeCount) }
        let top = storedStack.count - 1
        guard top >= 0 else { return finishEntry(index, nodeCount: nodeCount, in: entry) }
        storedStack[top].nodeCount += nodeCount
        guard storedStack[top].isMapping else {
            storedStack[top].count += 1
            return true
        }
        let key = storedStack[top].key
        guard key != StoredFrame.noKey else {
            storedStack[top].key = index
            storedStack[top].keyIsMerge = entry.isMergeKey(index)
            return true
        }
        if storedStack[top].keyIsMerge {
            takeMerge(entry.node(at: index), in: entry)
            return true
        }
        storedStack[top].key = StoredFrame.noKey
        if entry.isScalar(key), let first = admitStoredKey(key, in: entry) {
            let (line, column) = entry.position(key)
            diagnostics.append(.error(
                "duplicate key '\(entry.text(key))'; first defined at line \(first)", at: location(line: line, column: column)))
            entry.truncate(to: key)
            return true
        }
        storedStack[top].count += 1
        return true
    }

    /// Takes `merged`, the value of the top stored mapping's waiting merge key, into the merges
    /// applied when the mapping closes, and drops the key (and the value, if stored) from
    /// `entry`.
    private mutating func takeMerge(_ merged: YAMLNode, in entry: ValueStore) {
        let top = storedStack.count - 1
        updateExtrasOfTop { $0.merges.append(merged) }
        entry.truncate(to: storedStack[top].key)
        (storedStack[top].key, storedStack[top].keyIsMerge) = (StoredFrame.noKey, false)
    }

    /// Hands a complete entry of the section to the consumer, its key as read, and empties the
    /// entry store.
    private mutating func finishEntry(_ index: ValueStore.Index, nodeCount: Int, in entry: ValueStore) -> Bool {
        storing = false
        defer { entry.removeAll() }
        let top = stack.count - 1
        stack[top].nodeCount += nodeCount
        guard let key = stack[top].pendingKey.take() else { return false }
        switch admit(key, at: top) {
        case .merge:
            stack[top].merges.append(entry.node(at: index))
        case .duplicate:
            break
        case .kept:
            let (line, column) = entry.position(index)
            consume?(StoredPair(key: StoredNode(store: entry, index: entry.append(key)), value: StoredNode(store: entry, index: index)))
            pairScratch.append(YAMLPair(key: key, value: .placeholder(line: line, column: column)))
        }
        return true
    }

    /// The line of an earlier key of the top stored mapping that reads as the scalar at `key`
    /// does, if there is one; otherwise counts `key` among the mapping's keys.
    private mutating func admitStoredKey(_ key: ValueStore.Index, in entry: ValueStore) -> Int32? {
        if let first = storedKeyLine(matching: key, in: entry) { return first }
        indexStoredKey(key, in: entry)
        return nil
    }

    /// The line of an earlier key of the top stored mapping that reads as the scalar at `key`
    /// does, if there is one.
    /// (`mutating` only so that `self` is not copied for the call.)
    private mutating func storedKeyLine(matching key: ValueStore.Index, in entry: ValueStore) -> Int32? {
        let top = storedStack.count - 1
        if storedStack[top].hasExtras, let keys = storedExtras[storedExtras.count - 1].keys { return keys[entry.text(key)] }
        return entry.lineOfEarlierKey(matching: key, inOpenMapping: storedStack[top].slot)
    }

    /// Counts the scalar key at `key` among the top stored mapping's keys, indexing them once it
    /// has a few: a long mapping is not scanned for each key.
    private mutating func indexStoredKey(_ key: ValueStore.Index, in entry: ValueStore) {
        let top = storedStack.count - 1
        if storedStack[top].hasExtras, storedExtras[storedExtras.count - 1].keys != nil {
            storedExtras[storedExtras.count - 1].keys![entry.text(key)] = entry.position(key).line
        } else if storedStack[top].count >= 8 {
            var keys: [String: Int32] = [:]
            for (earlier, _) in entry.pairs(ofOpenMapping: storedStack[top].slot, before: key) {
                let text = entry.text(earlier)
                if keys[text] == nil { keys[text] = entry.position(earlier).line }
            }
            keys[entry.text(key)] = entry.position(key).line
            updateExtrasOfTop { $0.keys = keys }
        }
    }

    // MARK: - Reading a section in pieces

    /// An anchor a piece takes from before the section, noting that it did.
    private mutating func seededAnchor(_ name: String) -> Anchor? {
        guard role == .piece, let anchor = split.seed[name] else { return nil }
        split.seedUses.insert(name)
        return anchor
    }

    /// Whether an event the head reads before the section closes, or a piece reads, is one the
    /// whole file has at the same place. Everything must lie before `cutIndex` (the head's cut,
    /// or the piece's end), so that a cut falls between entries, outside any scalar or flow
    /// collection, and no value is placed at the cut: libyaml places a complex key's missing
    /// value (`? key` with no `:`) at the next token, which in the whole file is the next
    /// entry's key. The ends of collections written by indentation are the exception: they come
    /// with the next line of less indentation, which for the last entries is past the cut. The
    /// head's section itself must end past its cut, where the file goes on after the pieces.
    @inline(__always)
    private mutating func eventFitsBeforeCut(_ event: yaml_event_t) -> Bool {
        // A piece's events nearly all end before its end: whatever their kind, they fit, at the
        // cost of no call.
        if role == .piece && event.end_mark.index < cutIndex { return true }
        return eventNearCutFits(event)
    }

    /// ``eventFitsBeforeCut(_:)`` for the events that do not end well before the cut.
    private mutating func eventNearCutFits(_ event: yaml_event_t) -> Bool {
        let isEnd = event.type == YAML_MAPPING_END_EVENT || event.type == YAML_SEQUENCE_END_EVENT
        if role == .head && isEnd && !storing && stack.count == 2 && stack[1].isStreamed {
            guard event.start_mark.index >= cutIndex else { return false }
            split.passedCut = true
            return true
        }
        if isEnd {
            if storing, let top = storedStack.last {
                if !top.isFlow { return true }
            } else if !stack.isEmpty, !stack[stack.count - 1].isFlow {
                return true
            }
        }
        if event.type == YAML_DOCUMENT_END_EVENT { return true }
        return event.start_mark.index < cutIndex && event.end_mark.index <= cutIndex
    }

    /// Whether the section's mapping opens as the cut expects: by indentation, with no anchor,
    /// tag or key of its own but plain entries in the cut's column, under the key found where
    /// the cut says (the head), or with its first entry on the cut's line (a piece).
    private func sectionOpens(_ frame: Frame, at mark: yaml_mark_t, keyedBy key: YAMLNode?) -> Bool {
        guard frame.isMapping, !frame.isFlow, frame.anchor == nil, frame.tag == .none,
              mark.column == sectionIndent else { return false }
        if let key {
            return key.line == sectionKeyLine && key.column == 1 && key.tag == .none
        }
        return mark.line == 0
    }

    /// Whether the section's mapping closes in a way the other parts can follow: no merge key
    /// (it would merge into one part only). The head keeps its keys, to find any a piece
    /// repeats.
    private mutating func sectionCloses(_ frame: Frame) -> Bool {
        guard role != .whole else { return true }
        guard frame.merges.isEmpty else { return false }
        if role == .head { split.sectionKeys = frame.keys.positions?.mapValues { $0 - frame.start } }
        return true
    }

    /// Whether the value about to open under `root` belongs to the streamed top-level key.
    private func isStreamedSectionKey(_ root: Frame) -> Bool {
        guard let section = streamedSection, root.isMapping,
              case .scalar(let name, _)? = root.pendingKey?.content else { return false }
        return name == section
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

    /// ``applyMerges(_:)`` for the top stored mapping, whose pairs are in `entry`.
    private mutating func applyStoredMerges(in entry: ValueStore) {
        let merges = storedExtras[storedExtras.count - 1].merges
        var pairs: [YAMLPair] = []
        if merges.count == 1, merges[0].tag != .placeholder, case .mapping(let merged) = merges[0].content {
            pairs = merged
        } else {
            forEachMergedPair(merges) { pairs.append($0) }
        }
        let top = storedStack.count - 1
        for pair in pairs {
            let key = entry.append(pair.key)
            if entry.isScalar(key), admitStoredKey(key, in: entry) != nil {
                entry.truncate(to: key)
                continue
            }
            _ = entry.append(pair.value)
            storedStack[top].count += 1
        }
    }

    private func style(_ style: yaml_scalar_style_t) -> YAMLScalarStyle {
        switch style {
        case YAML_SINGLE_QUOTED_SCALAR_STYLE: .singleQuoted
        case YAML_DOUBLE_QUOTED_SCALAR_STYLE: .doubleQuoted
        case YAML_LITERAL_SCALAR_STYLE: .literal
        case YAML_FOLDED_SCALAR_STYLE: .folded
        default: .plain
        }
    }

    private func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        guard let pointer else { return nil }
        return String(cString: pointer)
    }

    /// The tag libyaml read on a node; most nodes have none, and cost no call.
    @inline(__always)
    private mutating func readTag(_ pointer: UnsafeMutablePointer<yaml_char_t>?, line: Int32, column: Int32) -> YAMLTag {
        guard let pointer else { return .none }
        return readWrittenTag(pointer, line: line, column: column)
    }

    private mutating func readWrittenTag(_ pointer: UnsafeMutablePointer<yaml_char_t>, line: Int32, column: Int32) -> YAMLTag {
        let text = String(cString: pointer)
        if let tag = YAMLTag(text) { return tag }
        let shown = text.hasPrefix("tag:yaml.org,2002:") ? "!!" + text.dropFirst(18) : text
        diagnostics.append(.error(
            "unknown tag '\(shown)'; a manifest is plain data (tags allowed: !!str, !!int, !!float, !!bool, !!null, !!map, !!seq, !secret, !replace)",
            at: location(line: line, column: column)))
        return .none
    }

    static func displayTag(_ tag: YAMLTag) -> String {
        switch tag {
        case .none, .nonSpecific: "!"
        case .string: "!!str"
        case .int: "!!int"
        case .float: "!!float"
        case .bool: "!!bool"
        case .null: "!!null"
        case .map: "!!map"
        case .seq: "!!seq"
        case .merge: "!!merge"
        case .secret: "!secret"
        case .replace: "!replace"
        case .placeholder: "!"
        }
    }

    /// A positioned diagnostic for libyaml's error, with its context as a note.
    private func parserError(_ parser: yaml_parser_t, _ buffer: UnsafeBufferPointer<UInt8>) -> Diagnostic {
        let problem = parser.problem.map { String(cString: $0) } ?? "unknown error"
        switch parser.error {
        case YAML_MEMORY_ERROR:
            return .error("libyaml ran out of memory", at: SourceLocation(file: file, line: 1, column: 1))
        case YAML_READER_ERROR:
            let offset = min(Int(parser.problem_offset), buffer.count)
            let at = Self.location(ofByte: offset, in: buffer, file: file)
            let value = Int(parser.problem_value)
            let message: String
            if problem.hasPrefix("control characters") {
                message = value == 0
                    ? "NUL byte is not allowed in YAML"
                    : "control character U+\(String(value, radix: 16, uppercase: true).leftPadded(to: 4)) is not allowed in YAML"
            } else if value >= 0 && problem.contains("UTF-8") {
                message = "invalid UTF-8: \(problem) (byte 0x\(String(value, radix: 16, uppercase: true).leftPadded(to: 2)))"
            } else {
                message = "invalid UTF-8: \(problem)"
            }
            return .error(message, at: at)
        default:
            var message = problem
            let index = Int(parser.problem_mark.index)
            if index < buffer.count {
                switch buffer[index] {
                case UInt8(ascii: "\t"): message += " (tabs cannot indent YAML; use spaces)"
                case UInt8(ascii: "{") where index > 0 && buffer[index - 1] == UInt8(ascii: "$"):
                    message += " (inside { } or [ ], quote a value that holds '${…}')"
                case UInt8(ascii: "%"), UInt8(ascii: "@"), UInt8(ascii: "`"):
                    if problem.contains("cannot start any token") {
                        message += " (quote a value that starts with '\(Character(Unicode.Scalar(buffer[index])))')"
                    }
                default: break
                }
            }
            var notes: [Diagnostic.Note] = []
            if let context = parser.context.map({ String(cString: $0) }) {
                notes.append(Diagnostic.Note(context, at: location(parser.context_mark)))
            }
            return .error(message, at: location(parser.problem_mark), notes: notes)
        }
    }

    /// The line and column (in characters) of a byte offset.
    static func location(ofByte offset: Int, in buffer: UnsafeBufferPointer<UInt8>, file: String) -> SourceLocation {
        var line = 1, column = 1
        for byte in buffer[..<offset] {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return SourceLocation(file: file, line: line, column: column)
    }
}

/// The keys seen so far in one mapping: a linear scan while small, a dictionary once large.
/// Positions are indices into the scratch stack the mapping's pairs wait on, from `start` on.
/// Keyed as the section's index is (``NameKey``), which a head's section hands on as it is.
struct KeySet {
    private var index: [NameKey: Int]?

    /// Each key's position, once the mapping has enough keys to index them.
    var positions: [NameKey: Int]? { index }

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

    mutating func insert(_ key: String, at position: Int, in pairs: MoveStack<YAMLPair>, from start: Int) {
        if index != nil {
            index![key] = position
        } else if pairs.count - start >= 8 {
            var built = [NameKey: Int](minimumCapacity: 64)
            for i in start..<pairs.count {
                if case .scalar(let text, _) = pairs[i].key.content, built[text] == nil { built[text] = i }
            }
            built[key] = position
            index = built
        }
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
