extension YAMLReader {
    /// How many pieces a large section is cut into: enough that the thread that finishes first
    /// takes over pieces the other has not started, so that a slower processor does not hold
    /// the load up, and small enough that the thread that runs out of pieces seldom waits long
    /// for the other's last one. (At 16, the thread that joins the pieces waited a median 2 ms
    /// of a 36 ms load of 10,000 services; a piece costs about 25 µs of its own.)
    static let splitPieces = 64

    /// What reading one piece gave.
    private struct PieceRead<Consumer: YAMLSectionConsumer>: Sendable {
        var number: Int
        var root: YAMLNode?
        var consumer: Consumer
        var diagnostics: [Diagnostic]
        var check: TreeBuilder.SplitCheck
        var expandedNodes: Int
    }

    /// Reads the file with its streamed section cut into pieces (``SectionCut``). This thread
    /// reads everything but the pieces (the head), another thread reads pieces from the first
    /// on, and this one, once done with the head, reads pieces from the last back. The pieces'
    /// entries then join the section's first ones, in order.
    ///
    /// - Parameters:
    ///   - pieces: How many pieces to cut the section into, at most.
    ///   - minimumPiece: The smallest piece worth cutting, in bytes.
    /// - Returns: Exactly what reading on one thread gives, or `nil`, having given `consumer`
    ///   nothing, when it might not be: the section could not be cut, a cut fell inside an
    ///   entry, an alias crossed a cut, a key is repeated across one, or a part found a problem
    ///   (reading the whole file reports problems in their usual order).
    static func readSplit<Consumer: YAMLSectionConsumer>(
        _ bytes: [UInt8], file: String, limits: YAMLLimits, section: String, pieces: Int, minimumPiece: Int,
        into consumer: inout Consumer
    ) -> YAMLReadResult? {
        guard let cut = bytes.withUnsafeBufferPointer({
            SectionCut($0, section: section, pieces: pieces, minimumPiece: minimumPiece)
        }) else { return nil }
        let queue = TwoEndedQueue(count: cut.cuts.count)
        // What each piece's consumer is made from, on either thread.
        let template = consumer.emptyCopy()
        let other = OtherThread { () -> [PieceRead<Consumer>] in
            var seed: [String: TreeBuilder.Anchor] = [:]
            if cut.prefixHasAnchors {
                var prefix = TreeBuilder(file: file, limits: limits, pipelined: false)
                bytes.withUnsafeBufferPointer { prefix.run(UnsafeBufferPointer(rebasing: $0[..<cut.keyStart])) }
                // The head reports what is wrong before the section, and the whole file is read again.
                guard prefix.diagnostics.isEmpty else { return [] }
                seed = prefix.anchors
            }
            var read: [PieceRead<Consumer>] = []
            while let number = queue.takeFirst() {
                read.append(readPiece(number, of: bytes, file: file, limits: limits, cut: cut, seed: seed, like: template))
            }
            return read
        }

        var head = TreeBuilder(file: file, limits: limits, pipelined: false, part: .head(cut))
        head.streamedSection = section
        var headConsumer = consumer.emptyCopy()
        bytes.withUnsafeBufferPointer { head.run($0, feeding: &headConsumer) }
        if !head.split.broken, head.diagnostics.isEmpty, let root = head.root { headConsumer.readRest(root) }
        headConsumer.finish()
        var read: [PieceRead<Consumer>] = []
        if !head.split.broken {
            while let number = queue.takeLast() {
                read.append(readPiece(
                    number, of: bytes, file: file, limits: limits, cut: cut, seed: head.split.anchorsBeforeSection,
                    like: template))
            }
        } else {
            // Nothing is kept: the other thread need not start more pieces.
            queue.close()
        }
        read += other.join()
        read.sort { $0.number < $1.number }

        guard var root = head.root, !head.split.broken, head.diagnostics.isEmpty, read.count == cut.cuts.count,
              let index = join(read, into: &root, head: head, section: section, limits: limits)
        else { return nil }
        consumer.append(headConsumer)
        for piece in read { consumer.append(piece.consumer) }
        return YAMLReadResult(root: root, diagnostics: [], readSplit: true, sectionIndex: index)
    }

    /// Reads piece `number` into a consumer made from `template`, resolving aliases it cannot
    /// resolve itself from `seed`.
    private static func readPiece<Consumer: YAMLSectionConsumer>(
        _ number: Int, of bytes: [UInt8], file: String, limits: YAMLLimits, cut: SectionCut,
        seed: [String: TreeBuilder.Anchor], like template: Consumer
    ) -> PieceRead<Consumer> {
        // A consumer of its own: a consumer may keep what it decodes in storage that copies share.
        var consumer = template.emptyCopy()
        consumer.reserveCapacity(forBytes: cut.range(ofPiece: number).count)
        var builder = TreeBuilder(file: file, limits: limits, pipelined: false, part: .piece(cut, number: number))
        builder.split.seed = seed
        bytes.withUnsafeBufferPointer { builder.run($0, feeding: &consumer) }
        consumer.finish()
        return PieceRead(
            number: number, root: builder.root, consumer: consumer, diagnostics: builder.diagnostics,
            check: builder.split, expandedNodes: builder.expandedNodes)
    }

    /// Checks that the pieces read what the whole file holds at their place, and appends their
    /// entries to the section in the head's tree; returns the section's index (see
    /// ``YAMLReadResult/sectionIndex``), or `nil` when the pieces might not read what the whole
    /// file holds.
    private static func join<Consumer>(
        _ pieces: [PieceRead<Consumer>], into root: inout YAMLNode, head: TreeBuilder, section: String, limits: YAMLLimits
    ) -> SectionIndex? {
        var expanded = head.expandedNodes
        // Anchors defined in the section so far: a piece that took one of these names from
        // before the section missed the later definition.
        var definedInSection = head.split.anchorsInSection
        for piece in pieces {
            guard piece.root != nil, !piece.check.broken, piece.diagnostics.isEmpty,
                  piece.check.seedUses.isDisjoint(with: definedInSection) else { return nil }
            expanded += piece.expandedNodes
            definedInSection.formUnion(piece.check.definedAnchors)
        }
        // Aliases after the section would have seen the pieces' anchors.
        guard expanded <= limits.maxAliasExpansion,
              definedInSection.isDisjoint(with: head.split.aliasesAfterCut),
              case (var top, let index, var entries)? = root.section(section) else { return nil }

        // No key may repeat one of an earlier part. The head indexed its keys once it had a
        // few; a short head is indexed here. The index, with each key's position among the
        // section's pairs, is the reader's to give.
        var keys = head.split.sectionKeys ?? Self.index(entries)
        // Sized once: growing rehashes every key so far.
        keys.reserveCapacity(pieces.reduce(entries.count) { count, piece in
            guard case .mapping(let later)? = piece.root?.content else { return count }
            return count + later.count
        })
        var pairs = entries.count
        for piece in pieces {
            guard case .mapping(let later)? = piece.root?.content else { return nil }
            for pair in later {
                if let key = pair.key.scalar, keys.updateValue(pairs, forKey: key) != nil { return nil }
                pairs += 1
            }
        }

        // Released from the tree first, so that appending does not copy them.
        root.content = .sequence([])
        top[index].value.content = .sequence([])
        for piece in pieces {
            if case .mapping(let later)? = piece.root?.content { entries += later }
        }
        top[index].value.content = .mapping(entries)
        root.content = .mapping(top)
        return SectionIndex(positions: keys, pairs: pairs)
    }

    /// The scalar keys of `pairs`, each at its first position.
    private static func index(_ pairs: [YAMLPair]) -> [NameKey: Int] {
        var keys: [NameKey: Int] = [:]
        for (position, pair) in pairs.enumerated() {
            if let key = pair.key.scalar, keys[key] == nil { keys[key] = position }
        }
        return keys
    }
}
