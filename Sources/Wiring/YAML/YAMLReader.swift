internal import CYAML

/// What reading one YAML file produced: its root node (absent when the file is empty or could
/// not be read) and every problem found on the way.
package struct YAMLReadResult: Sendable {
    package var root: YAMLNode?
    package var diagnostics: [Diagnostic]
    /// Whether the streamed section was read in pieces on two threads (``YAMLPipelining/split``).
    package var readSplit = false
    /// The streamed section's keys, when it was read in pieces: joining them indexed the keys,
    /// to find one repeated across pieces.
    package var sectionIndex: SectionIndex?
}

/// The keys of a streamed section, each with its position among the section's pairs.
package struct SectionIndex: Sendable {
    /// Each scalar key's position; no key repeats.
    package var positions: [NameKey: Int]
    /// The section's pairs, whatever their keys.
    package var pairs: Int
}

/// How the reader puts a second thread to work on a large file; the result is the same either
/// way, and the same as reading on one thread.
package enum YAMLPipelining: Sendable {
    /// For inputs of at least ``YAMLPipelining/threshold`` bytes, when this process may run on
    /// a second processor (``Parallelism``): split when the streamed section can be cut into
    /// pieces, and pipelined otherwise.
    case automatic
    /// Pipelined whatever the size: libyaml parses on a second thread while this one builds
    /// the tree (tests use it to read small files both ways).
    case always
    /// The streamed section cut into pieces whatever the size, each parsed and built on
    /// whichever of two threads is free, the rest of the file on this one; on one thread when
    /// the section cannot be cut (see ``SectionCut``).
    case split
    /// Never: one thread parses and builds.
    case never

    /// The size from which `automatic` uses a second thread: below it, starting one costs more
    /// than the overlap saves.
    package static let threshold = 128 << 10

    /// Whether libyaml parses on a second thread for an input of `count` bytes.
    func pipelines(toBytes count: Int) -> Bool {
        switch self {
        case .automatic: count >= Self.threshold && Parallelism.isAvailable
        case .always: true
        case .split, .never: false
        }
    }

    /// Whether a streamed section of an input of `count` bytes is split, if it can be cut.
    func splits(toBytes count: Int) -> Bool {
        switch self {
        case .automatic: count >= Self.threshold && Parallelism.isAvailable
        case .split: true
        case .always, .never: false
        }
    }
}

/// Receives the entries of the section the reader streams, each as soon as it is complete.
///
/// When the reader splits the section, each piece's entries go to an ``emptyCopy()``, perhaps on
/// another thread, and the copies are then appended to this consumer in order.
package protocol YAMLSectionConsumer: Sendable {
    /// Receives the next entry, stored as the reader read it. The store is the reader's
    /// scratch space, emptied once this returns: keep a copy of what must last.
    mutating func consume(_ entry: StoredPair)
    /// A consumer of the same kind that has received nothing, sharing no storage with this
    /// one: each piece gets one of its own, and pieces are read on two threads at once.
    func emptyCopy() -> Self
    /// Takes over what `later` received, all of which follows what this consumer received.
    mutating func append(_ later: consuming Self)
    /// Called on the consumer of a piece before its entries come, with the piece's size in
    /// bytes: the place to size storage once rather than grow it entry by entry.
    mutating func reserveCapacity(forBytes count: Int)
    /// Called once the reader has handed over every entry of this consumer's part, on the
    /// thread that read it: the place to tidy up before the consumer is appended.
    mutating func finish()
    /// Called when the section is read in pieces, with the tree of everything else (the
    /// section holding only the entries read before the first piece), on the thread that read
    /// it, before ``finish()`` and before that thread goes on to read pieces: what needs only
    /// the rest of the file is done here, while the other thread reads pieces, rather than once
    /// they are joined. The tree must not be kept: the pieces are joined into it.
    mutating func readRest(_ root: YAMLNode)
}

extension YAMLSectionConsumer {
    package mutating func reserveCapacity(forBytes count: Int) {}
    package mutating func finish() {}
    package mutating func readRest(_ root: YAMLNode) {}
}

/// A ``YAMLSectionConsumer`` that keeps the entries, in order, as trees.
package struct YAMLEntryCollector: YAMLSectionConsumer {
    package private(set) var entries: [YAMLPair] = []

    package init() {}

    package mutating func consume(_ entry: StoredPair) { entries.append(YAMLPair(key: entry.key.node, value: entry.value.node)) }

    package func emptyCopy() -> YAMLEntryCollector { YAMLEntryCollector() }

    package mutating func append(_ later: consuming YAMLEntryCollector) { entries += later.entries }

    /// `root`, read while streaming `section` to this collector, with the collected entries back
    /// in the places where the tree keeps only their keys: the tree a read that builds every
    /// node gives. The section's first pairs are the streamed ones, in order; pairs merged in
    /// with `<<` follow them.
    package func restoring(into root: YAMLNode?, section: String) -> YAMLNode? {
        guard var root, case (var top, let index, var pairs)? = root.section(section) else { return root }
        for (position, entry) in entries.enumerated() where position < pairs.count {
            pairs[position] = entry
        }
        top[index].value.content = .mapping(pairs)
        root.content = .mapping(top)
        return root
    }
}

/// Reads YAML through libyaml's event API into Wiring's own ``YAMLNode`` tree.
///
/// Syntax errors and exceeded limits stop reading; duplicate keys, undefined aliases and unknown
/// tags are reported and reading goes on, so one pass finds all of them.
package enum YAMLReader {
    /// Reads `bytes`, naming `file` in every position.
    ///
    /// - Parameter pipelining: Whether libyaml parses on a second thread; the result is the same.
    package static func read(
        _ bytes: [UInt8], file: String, limits: YAMLLimits = .default, pipelining: YAMLPipelining = .automatic
    ) -> YAMLReadResult {
        if let refused = refusal(of: bytes, file: file, limits: limits) { return refused }
        var builder = TreeBuilder(file: file, limits: limits, pipelined: pipelining.pipelines(toBytes: bytes.count))
        bytes.withUnsafeBufferPointer { builder.run($0) }
        return YAMLReadResult(root: builder.root, diagnostics: builder.diagnostics)
    }

    /// Reads `bytes`, naming `file` in every position, and hands the entries of one top-level
    /// mapping to `consumer` as soon as each is complete, while its nodes are still in cache.
    ///
    /// - Parameters:
    ///   - section: The top-level key whose entries are streamed. The tree keeps their keys,
    ///     each with a placeholder value.
    ///   - consumer: Receives each such entry, in order.
    ///   - pipelining: How a second thread helps; the result is the same.
    package static func read<Consumer: YAMLSectionConsumer>(
        _ bytes: [UInt8], file: String, limits: YAMLLimits = .default,
        streaming section: String, into consumer: inout Consumer, pipelining: YAMLPipelining = .automatic
    ) -> YAMLReadResult {
        if let refused = refusal(of: bytes, file: file, limits: limits) { return refused }
        if pipelining.splits(toBytes: bytes.count),
           let split = readSplit(
               bytes, file: file, limits: limits, section: section, pieces: splitPieces,
               minimumPiece: pipelining == .split ? 1 : SectionCut.worthwhilePiece, into: &consumer) {
            return split
        }
        var builder = TreeBuilder(file: file, limits: limits, pipelined: pipelining.pipelines(toBytes: bytes.count))
        builder.streamedSection = section
        bytes.withUnsafeBufferPointer { builder.run($0, feeding: &consumer) }
        return YAMLReadResult(root: builder.root, diagnostics: builder.diagnostics)
    }

    /// The result for input that is not read at all: too large, or empty.
    private static func refusal(of bytes: [UInt8], file: String, limits: YAMLLimits) -> YAMLReadResult? {
        if bytes.count > limits.maxFileSize {
            let error = Diagnostic.error(
                "file is \(bytes.count) bytes, more than the limit of \(limits.maxFileSize) bytes",
                at: SourceLocation(file: file, line: 1, column: 1))
            return YAMLReadResult(root: nil, diagnostics: [error])
        }
        if bytes.isEmpty { return YAMLReadResult(root: nil, diagnostics: []) }
        return nil
    }
}
