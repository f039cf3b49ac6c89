/// Turns one file's YAML into a ``ManifestFile``, reporting every unknown key and every value
/// of the wrong kind at its position, and carrying on so that one pass finds them all.
///
/// It reads stored nodes (``StoredNode``): the entries the reader streams as the reader stored
/// them, and the rest of the file once stored in a store of its own. What outlives reading,
/// such as `args`, is copied into the decoder's value store.
package struct ManifestFileDecoder: YAMLSectionConsumer {
    package let file: String
    private let fileID: UInt32
    /// Where the values read from this file (or piece) are kept.
    private let values: ValueStore
    package private(set) var diagnostics: [Diagnostic] = []
    /// The environment `${NAME}` references are checked against.
    private let environment: [String: String]
    /// The `$(name)` references found so far, and the context being decoded.
    private var parameterReferences = ParameterReferences()
    private var currentContext: String?
    /// Services decoded as the reader streamed them, before the rest of the tree.
    private var streamedServices: [ServiceDefinition] = []
    /// Their keys, beside them (see ``ManifestFile/serviceKeys``), and their census.
    private var streamedKeys: [String] = []
    private var streamedCensus = ServiceCensus()
    /// Everything but the services, decoded while the reader still read the section's pieces.
    private var decodedRest: DecodedRest?
    /// Told the file's imports as soon as they are decoded, before the rest of the file: the
    /// loader may start reading them.
    package var importsFound: (@Sendable ([Located<String>]) -> Void)?

    /// The file without its services, decoded early (see ``readRest(_:)``), with what that
    /// reported and found, kept apart to join the rest in the order decoding it all gives.
    private struct DecodedRest {
        var file: ManifestFile
        /// From the keys before `services` (the version, imports, parameters, scopes), and after.
        var diagnostics: (before: [Diagnostic], after: [Diagnostic])
        var references: (before: ParameterReferences, after: ParameterReferences)
    }

    package init(file: String, environment: [String: String]) {
        self.file = file
        self.environment = environment
        fileID = SourceFileTable.intern(file)
        values = ValueStore(fileID: fileID)
    }

    private func location(_ node: StoredNode) -> SourceLocation {
        node.location
    }

    private mutating func error(_ message: String, at node: StoredNode) {
        diagnostics.append(.error(message, at: location(node)))
    }

    /// The tree without the entries of `services` that the reader streamed, which stand there
    /// as placeholders: they are decoded already, and storing them again would cost as much.
    private static func withoutStreamedEntries(_ root: YAMLNode) -> YAMLNode {
        guard case (var top, let index, var entries)? = root.section("services"),
              entries.contains(where: { $0.value.tag == .placeholder }) else { return root }
        entries.removeAll { $0.value.tag == .placeholder }
        top[index].value.content = .mapping(entries)
        var trimmed = root
        trimmed.content = .mapping(top)
        return trimmed
    }

    /// A tree of this file in a store of its own, to be read like a streamed entry.
    private func stored(_ node: YAMLNode) -> StoredNode {
        let store = ValueStore(fileID: fileID)
        return StoredNode(store: store, index: store.append(node))
    }

    // MARK: - Top level

    /// Decodes one entry of `services:` as soon as the reader completes it.
    package mutating func consume(_ entry: StoredPair) {
        guard let key = key(entry.key) else { return }
        let service = service(key, entry)
        streamedServices.append(service)
        streamedKeys.append(key)
        streamedCensus.note(service)
    }

    /// A decoder of the same file that has decoded nothing, for the entries the reader reads
    /// on another thread.
    package func emptyCopy() -> ManifestFileDecoder {
        var copy = ManifestFileDecoder(file: file, environment: environment)
        copy.importsFound = importsFound
        return copy
    }

    /// Sizes the value store for a piece of `count` bytes. The values kept (args above all)
    /// take about a slot for every 13 bytes of the loading benchmark's `services:` and a byte
    /// of short scalars for every 3.7; the estimate errs high, since falling short by one slot
    /// copies every slot once more, and ``finish()`` gives back the rest.
    package mutating func reserveCapacity(forBytes count: Int) {
        values.reserveCapacity(slots: count / 12, bytes: count / 3)
    }

    /// Trims the values this decoder stored, on the thread that read its piece.
    package mutating func finish() {
        values.seal()
    }

    /// Takes over the services, problems and references `later` decoded, which follow this
    /// decoder's in the file.
    package mutating func append(_ later: consuming ManifestFileDecoder) {
        streamedServices += later.streamedServices
        streamedKeys += later.streamedKeys
        streamedCensus.append(later.streamedCensus)
        diagnostics += later.diagnostics
        parameterReferences.append(contentsOf: later.parameterReferences)
        if let rest = later.decodedRest { decodedRest = rest }
    }

    /// Decodes everything but the services of the tree the reader read apart from the
    /// section's pieces, while another thread reads them; ``decode(_:sectionIndex:)`` then
    /// decodes only the services.
    package mutating func readRest(_ root: YAMLNode) {
        /// What `array` gained since `start`, split at `middle`, taken out of it.
        func taken<Element>(from array: inout [Element], since start: Int, splitAt middle: Int) -> (before: [Element], after: [Element]) {
            defer { array.removeSubrange(start...) }
            return (Array(array[start..<middle]), Array(array[middle...]))
        }
        let start = (diagnostics.count, parameterReferences.count)
        var manifest = ManifestFile(path: file)
        let top = decodeTop(Self.withoutStreamedEntries(root), into: &manifest)
        let middle = (diagnostics.count, parameterReferences.count)
        if let top { decodeContexts(top, into: &manifest) }
        let problems = taken(from: &diagnostics, since: start.0, splitAt: middle.0)
        let after = parameterReferences.take(from: middle.1)
        let found = (before: parameterReferences.take(from: start.1), after: after)
        // With no top level to decode, `decode` reports it as it reads the tree whole.
        if top != nil { decodedRest = DecodedRest(file: manifest, diagnostics: problems, references: found) }
    }

    /// Decodes the tree of the file, whose streamed entries this decoder received already.
    ///
    /// - Parameter sectionIndex: The reader's index of `services` (see ``SectionIndex``), which
    ///   gives each service's position when every pair of the section became a service.
    package mutating func decode(_ root: YAMLNode?, sectionIndex: SectionIndex? = nil) -> ManifestFile {
        if var rest = decodedRest.take() {
            // The rest was decoded while the pieces were read: the services are left.
            diagnostics += rest.diagnostics.before
            parameterReferences.append(contentsOf: rest.references.before)
            // A section read in pieces is a mapping: the entries left in it are those merged in
            // with `<<`, which the reader did not stream.
            if let root, case (let top, let index, let entries)? = Self.withoutStreamedEntries(root).section("services") {
                decodeServices(entries.isEmpty ? nil : stored(top[index].value), sectionIndex: sectionIndex, into: &rest.file)
            }
            diagnostics += rest.diagnostics.after
            parameterReferences.append(contentsOf: rest.references.after)
            rest.file.parameterReferences = parameterReferences
            values.seal()
            return rest.file
        }
        var manifest = ManifestFile(path: file)
        guard let fields = decodeTop(root.map(Self.withoutStreamedEntries), into: &manifest) else { return manifest }
        if let node = fields[.services] {
            decodeServices(node, sectionIndex: sectionIndex, into: &manifest)
        }
        decodeContexts(fields, into: &manifest)
        manifest.parameterReferences = parameterReferences
        values.seal()
        return manifest
    }

    /// Decodes the top level's keys before `services`: the format version, imports,
    /// parameters and scopes; `nil` when there is no top level to decode.
    private mutating func decodeTop(_ tree: YAMLNode?, into manifest: inout ManifestFile) -> Fields? {
        guard let root = tree.map({ stored($0) }) else {
            diagnostics.append(.error(
                "the manifest is empty; it needs at least 'wiring: 1'",
                at: SourceLocation(file: file, line: 1, column: 1)))
            return nil
        }
        guard root.isMapping else {
            error("a manifest must be a mapping of keys such as 'wiring' and 'services', found \(root.kindDescription)", at: root)
            return nil
        }
        let fields = self.fields(of: root, schema: .topLevel, in: "the manifest", ignoringExtensions: true)

        if let node = fields[.wiring] {
            if case .int(let version) = node.resolvedScalar {
                if ManifestSchema.supportedVersions.contains(version) {
                    manifest.version = Located(version, at: location(node))
                } else {
                    error("unsupported format version \(version); this version of Wiring reads 'wiring: 1'", at: node)
                }
            } else {
                error("'wiring' must be the format version 1, found \(node.kindDescription)", at: node)
            }
        } else {
            diagnostics.append(.error(
                "missing 'wiring: 1' (the format version) at the top level",
                at: location(root)))
        }
        if let node = fields[.imports] {
            manifest.imports = list(node, "'imports'").compactMap { string($0, "an import") }
            if !manifest.imports.isEmpty { importsFound?(manifest.imports) }
        }
        if let node = fields[.parameters] {
            manifest.parameters = parameters(node, in: "'parameters'")
        }
        if let node = fields[.scopes] {
            decodeScopes(node, into: &manifest)
        }
        return fields
    }

    /// Takes the services streamed to this decoder, and decodes those of `node` (the value of
    /// `services`, without the streamed entries) that were not streamed.
    private mutating func decodeServices(_ node: StoredNode?, sectionIndex: SectionIndex?, into manifest: inout ManifestFile) {
        let count = streamedServices.count
        let index = sectionIndex.flatMap { $0.pairs == count && $0.positions.count == count ? $0.positions : nil }
        manifest.setServices(streamedServices, keys: streamedKeys, census: streamedCensus, index: index)
        guard let node else { return }
        // Entries the reader did not stream (merged in with `<<`) are decoded here.
        for pair in pairs(node, "'services'") {
            guard let key = key(pair.key) else { continue }
            manifest.append(service(key, pair))
        }
    }

    private mutating func decodeContexts(_ fields: Fields, into manifest: inout ManifestFile) {
        guard let node = fields[.contexts] else { return }
        for pair in pairs(node, "'contexts'") {
            guard let name = key(pair.key) else { continue }
            currentContext = name
            manifest.contexts.append(context(name, pair))
            currentContext = nil
        }
    }

    private mutating func decodeScopes(_ node: StoredNode, into manifest: inout ManifestFile) {
        let fields = self.fields(of: node, schema: .scopes, in: "'scopes'")
        if let node = fields[.default] {
            manifest.defaultScope = scope(node, "'default' of 'scopes'")
        }
        guard let node = fields[.custom] else { return }
        for pair in pairs(node, "'custom' of 'scopes'") {
            guard let name = key(pair.key) else { continue }
            func what() -> String { "custom scope '\(name)'" }
            if Scope(name).isBuiltIn {
                error("custom scope '\(name)' has the name of a built-in scope", at: pair.key)
                continue
            }
            let fields = self.fields(of: pair.value, schema: .customScope, in: what())
            let ttl = fields[.ttl].flatMap { duration($0, "'ttl' of \(what())") }
            manifest.customScopes.append(CustomScope(name: name, timeToLive: ttl, location: location(pair.key)))
        }
    }

    // MARK: - Services and contexts

    private mutating func service(_ key: String, _ pair: StoredPair) -> ServiceDefinition {
        func what() -> String { "service '\(key)'" }
        let fields = self.fields(of: pair.value, schema: .service, in: what())
        return ServiceDefinition(
            key: key,
            location: location(pair.key),
            factory: fields[.factory].flatMap { string($0, "'factory' of \(what())") },
            scope: fields[.scope].flatMap { scope($0, "'scope' of \(what())") },
            timeToLive: fields[.ttl].flatMap { duration($0, "'ttl' of \(what())") },
            implements: fields[.implements].map { implements($0, of: what()) } ?? [],
            names: fields[.names].map { names($0, of: key) } ?? [],
            args: fields[.args].flatMap { map($0, "'args' of \(what())") },
            decorates: fields[.decorates].flatMap { string($0, "'decorates' of \(what())") })
    }

    private mutating func names(_ node: StoredNode, of service: String) -> [NamedVariant] {
        pairs(node, "'names' of service '\(service)'").compactMap { pair in
            guard let name = key(pair.key) else { return nil }
            func what() -> String { "named variant '\(name)' of service '\(service)'" }
            let fields = self.fields(of: pair.value, schema: .namedVariant, in: what())
            return NamedVariant(
                name: name,
                location: location(pair.key),
                factory: fields[.factory].flatMap { string($0, "'factory' of \(what())") },
                scope: fields[.scope].flatMap { scope($0, "'scope' of \(what())") },
                timeToLive: fields[.ttl].flatMap { duration($0, "'ttl' of \(what())") },
                args: fields[.args].flatMap { map($0, "'args' of \(what())") })
        }
    }

    private mutating func implements(_ node: StoredNode, of what: @autoclosure () -> String) -> [ImplementsEntry] {
        func entry(_ entry: StoredNode) -> ImplementsEntry? {
            if entry.isMapping {
                let fields = self.fields(of: entry, schema: .implementsEntry, in: "an 'implements' entry of \(what())")
                guard let typeNode = fields[.type] else {
                    error("an 'implements' entry written as a mapping needs 'type'", at: entry)
                    return nil
                }
                guard let type = string(typeNode, "'type' of an 'implements' entry") else { return nil }
                let name = fields[.name].flatMap { string($0, "'name' of an 'implements' entry") }
                return ImplementsEntry(type: type.value, name: name?.value, location: location(entry))
            }
            guard let type = string(entry, "an 'implements' entry of \(what()) (a type name, or { type:, name: })") else { return nil }
            return ImplementsEntry(type: type.value, name: nil, location: type.location)
        }
        if node.isScalar { return entry(node).map { [$0] } ?? [] }
        var entries: [ImplementsEntry] = []
        entries.reserveCapacity(node.isSequence ? node.store.count(node.index) : 0)
        for element in list(node, "'implements' of \(what())") {
            if let made = entry(element) { entries.append(made) }
        }
        return entries
    }

    private mutating func context(_ name: String, _ pair: StoredPair) -> ContextDefinition {
        let fields = self.fields(of: pair.value, schema: .context, in: "context '\(name)'")
        return contextBody(name, fields: fields, at: location(pair.key))
    }

    /// Decodes an overlay file (`services.staging.yaml`): the body of context `name`.
    package mutating func decodeOverlay(_ root: YAMLNode?, context name: String) -> (version: Located<Int>?, context: ContextDefinition) {
        let start = SourceLocation(fileID: fileID, line: 1, column: 1)
        guard let root = root.map(stored), root.isMapping else {
            diagnostics.append(.error(
                "an overlay file must be a mapping with 'wiring: 1' and the keys of a context",
                at: root.map { SourceLocation(fileID: fileID, line: Int($0.line), column: Int($0.column)) } ?? start))
            return (nil, ContextDefinition(name: name, location: start, services: [], parameters: [], added: []))
        }
        currentContext = name
        defer {
            currentContext = nil
            values.seal()
        }
        let fields = self.fields(of: root, schema: .overlay, in: "overlay file for context '\(name)'")
        var version: Located<Int>?
        if let node = fields[.wiring], case .int(let number) = node.resolvedScalar, ManifestSchema.supportedVersions.contains(number) {
            version = Located(number, at: location(node))
        } else {
            diagnostics.append(.error("an overlay file needs 'wiring: 1'", at: fields[.wiring].map(location) ?? start))
        }
        return (version, contextBody(name, fields: fields, at: start))
    }

    private mutating func contextBody(_ name: String, fields: Fields, at location: SourceLocation) -> ContextDefinition {
        func what() -> String { "context '\(name)'" }
        var overrides: [ServiceOverride] = []
        if let node = fields[.services] {
            for entry in pairs(node, "'services' of \(what())") {
                guard let key = key(entry.key) else { continue }
                overrides.append(override(key, entry, context: name))
            }
        }
        var added: [ServiceDefinition] = []
        if let node = fields[.add] {
            for entry in pairs(node, "'add' of \(what())") {
                guard let key = key(entry.key) else { continue }
                added.append(service(key, entry))
            }
        }
        let parameterOverrides = fields[.parameters].map { self.parameters($0, in: "'parameters' of \(what())") } ?? []
        return ContextDefinition(name: name, location: location, services: overrides, parameters: parameterOverrides, added: added)
    }

    private mutating func override(_ key: String, _ pair: StoredPair, context: String) -> ServiceOverride {
        func what() -> String { "the override of '\(key)' in context '\(context)'" }
        let fields = self.fields(of: pair.value, schema: .serviceOverride, in: what())
        var enabled: Located<Bool>?
        if let node = fields[.enabled], node.tag != .placeholder {
            if case .bool(let flag) = node.resolvedScalar {
                enabled = Located(flag, at: location(node))
            } else {
                error("'enabled' of \(what()) must be true or false, found \(node.kindDescription)", at: node)
            }
        }
        return ServiceOverride(
            key: key,
            location: location(pair.key),
            context: context,
            factory: fields[.factory].flatMap { string($0, "'factory' of \(what())") },
            scope: fields[.scope].flatMap { scope($0, "'scope' of \(what())") },
            timeToLive: fields[.ttl].flatMap { duration($0, "'ttl' of \(what())") },
            implements: fields[.implements].map { implements($0, of: what()) },
            names: fields[.names].map { names($0, of: key) },
            args: fields[.args].flatMap { map($0, "'args' of \(what())") },
            replacesArgs: fields[.args]?.tag == .replace,
            replacesNames: fields[.names]?.tag == .replace,
            decorates: fields[.decorates].flatMap { string($0, "'decorates' of \(what())") },
            enabled: enabled)
    }

    private mutating func parameters(_ node: StoredNode, in what: @autoclosure () -> String) -> [Parameter] {
        pairs(node, what()).compactMap { pair in
            guard let name = key(pair.key) else { return nil }
            return Parameter(name: name, location: location(pair.key), value: value(pair.value))
        }
    }

    // MARK: - Shapes

    /// The known fields of a mapping node; unknown keys are reported with a did-you-mean.
    /// A null node (a key with nothing after it) has no fields.
    private mutating func fields(
        of node: StoredNode, schema: FieldTable, in what: @autoclosure () -> String, ignoringExtensions: Bool = false
    ) -> Fields {
        var children = pairs(node, what()).children
        let store = children.store
        var fields = Fields(store: store, table: schema)
        while let index = children.next(), let value = children.next() {
            if let position = schema.position(ofKey: index, in: store) {
                // The reader dropped repeated keys: this is the only one.
                fields.set(position, to: value)
                continue
            }
            let keyNode = StoredNode(store: store, index: index)
            guard let key = key(keyNode), !(ignoringExtensions && key.hasPrefix("x-")) else { continue }
            let hint = Suggestion.hint(for: key, in: schema.keyNames)
            let extensions = ignoringExtensions && hint.isEmpty ? " (keys starting with 'x-' are ignored)" : ""
            let place = ignoringExtensions ? "unknown top-level key '\(key)'" : "unknown key '\(key)' in \(what())"
            error(place + hint + extensions, at: keyNode)
        }
        return fields
    }

    /// The pairs of a mapping node (none for a placeholder, or for a node of another kind,
    /// reported); a null node is an empty mapping.
    private mutating func pairs(_ node: StoredNode, _ what: @autoclosure () -> String) -> StoredNode.Pairs {
        if !node.isMapping, node.tag != .placeholder, node.resolvedScalar != .null {
            error("\(what()) must be a mapping, found \(node.kindDescription)", at: node)
        }
        return node.tag == .placeholder ? StoredNode.Pairs.none(in: node.store) : node.pairs
    }

    /// The elements of a sequence node (none for a placeholder, or for a node of another kind,
    /// reported); a null node is an empty list.
    private mutating func list(_ node: StoredNode, _ what: @autoclosure () -> String) -> StoredNode.Elements {
        if !node.isSequence, node.tag != .placeholder, node.resolvedScalar != .null {
            error("\(what()) must be a list, found \(node.kindDescription)", at: node)
        }
        return node.tag == .placeholder ? StoredNode.Elements.none(in: node.store) : node.elements
    }

    /// Whether a mapping key is a name (any non-empty scalar); reported when not.
    private mutating func isName(_ node: StoredNode) -> Bool {
        guard node.isScalar else {
            error("a key must be a name, found \(node.kindDescription)", at: node)
            return false
        }
        guard node.store.count(ofBytes: node.index) > 0 else {
            error("a key must be a name, found an empty key", at: node)
            return false
        }
        return true
    }

    /// A mapping key as a string: any non-empty scalar, as written.
    private mutating func key(_ node: StoredNode) -> String? {
        isName(node) ? node.store.text(node.index) : nil
    }

    private mutating func string(_ node: StoredNode, _ what: @autoclosure () -> String) -> Located<String>? {
        if node.tag == .placeholder { return nil }
        guard let text = node.stringValue else {
            error("\(what()) must be a string, found \(node.kindDescription)", at: node)
            return nil
        }
        guard !text.isEmpty else {
            error("\(what()) must not be empty", at: node)
            return nil
        }
        return Located(text, at: location(node))
    }

    private mutating func scope(_ node: StoredNode, _ what: @autoclosure () -> String) -> Located<Scope>? {
        string(node, what()).map { Located(Scope($0.value), at: $0.location) }
    }

    private mutating func duration(_ node: StoredNode, _ what: @autoclosure () -> String) -> Located<Duration>? {
        if node.tag == .placeholder { return nil }
        // Text such as `30s`, which most durations are, is parsed as it is; other values
        // (numbers, and anything to report) are read as a value would be.
        if let text = node.stringValue, let seconds = Duration.parseSeconds(text), let duration = Duration(manifestSeconds: seconds) {
            return Located(duration, at: location(node))
        }
        // Read where it is: a duration is kept as a `Duration`, not as a value.
        let value = ManifestValue(store: node.store, index: node.index)
        do {
            return Located(try value.decode(Duration.self), at: value.location)
        } catch {
            self.error("\(what()) must be \(Duration.manifestTypeDescription), found \(node.kindDescription)", at: node)
            return nil
        }
    }

    private mutating func map(_ node: StoredNode, _ what: @autoclosure () -> String) -> ManifestMap? {
        if node.tag == .placeholder { return nil }
        if node.isMapping {
            let store = values
            let (index, references) = store.append(node, checking: &self)
            return ManifestMap(store: store, index: index, references: references)
        }
        if node.resolvedScalar == .null { return ManifestMap([], at: location(node)) }
        error("\(what()) must be a mapping, found \(node.kindDescription)", at: node)
        return nil
    }

    /// Any node as a ``ManifestValue``, checked now and decoded when read.
    private mutating func value(_ node: StoredNode) -> ManifestValue {
        let store = values
        return ManifestValue(store: store, index: store.append(node, checking: &self).index)
    }
}

/// The decoder checks the values it stores as the store copies them in: keys must be names, and
/// every template is checked and its references recorded for validation.
extension ManifestFileDecoder: ValueChecker {
    package mutating func invalidKey(_ key: StoredNode) {
        _ = isName(key)
    }

    package mutating func checkReferences(in utf8: UnsafeBufferPointer<UInt8>, of node: StoredNode) -> ReferenceScan {
        // Untagged, a scalar with a `$` is a string: it reads as no null, boolean or number. A tag
        // its text is not was reported by the reader, and replaced by `!!str`.
        if node.tag != .none, !node.isStringScalar { return ReferenceScan(scanning: utf8) }
        func text(_ range: Range<Int>) -> String {
            String(decoding: UnsafeBufferPointer(rebasing: utf8[range]), as: UTF8.self)
        }
        // The walk that checks the references also says whether one reads the environment.
        var found: ReferenceScan = .dollar
        do {
            try StringTemplate.scan(utf8: utf8) { reference in
                switch reference {
                case .parameter(let name):
                    parameterReferences.append(name: UnsafeBufferPointer(rebasing: utf8[name]), at: location(node))
                case .environment(let name, let fallback):
                    found.insert(.environment)
                    let name = text(name)
                    guard fallback == nil, environment[name] == nil else { break }
                    let place = currentContext.map { " (context '\($0)')" } ?? ""
                    diagnostics.append(.warning(
                        "environment variable '\(name)' is not set and has no default\(place); building a container will fail unless it is set",
                        at: location(node)))
                case .literal:
                    break
                }
            }
        } catch {
            self.error(error.message, at: node)
            return ReferenceScan(scanning: utf8)
        }
        return found
    }
}
