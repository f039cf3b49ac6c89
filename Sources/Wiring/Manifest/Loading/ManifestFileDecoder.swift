/// Turns one file's YAML into a ``ManifestFile``, reporting every unknown key and every value
/// of the wrong kind at its position, and carrying on so that one pass finds them all.
///
/// It reads the document where the reader stored it (``StoredNode``); what outlives reading,
/// such as `args`, is copied into the decoder's own store of values.
package struct ManifestFileDecoder {
    package let file: String
    private let fileID: UInt32
    /// Where the values read from this file are kept.
    private let values: NodeStore
    package private(set) var diagnostics: [Diagnostic] = []
    /// What `${name}` references are checked against.
    private let external: ExternalValues
    /// The `$(name)` references found so far, and the context being decoded.
    private var parameterReferences = ParameterReferences()
    private var currentContext: String?
    /// The `${key}` references without a default found so far, when a configuration is given.
    private(set) var configurationReads: [ConfigurationRead] = []

    package init(file: String, values external: ExternalValues) {
        self.file = file
        self.external = external
        fileID = SourceFileTable.intern(file)
        values = NodeStore(fileID: fileID)
    }

    private func location(_ node: StoredNode) -> SourceLocation {
        node.location
    }

    private mutating func error(_ message: String, at node: StoredNode) {
        diagnostics.append(.error(message, at: location(node)))
    }

    // MARK: - Top level

    /// Decodes the document of the file.
    package mutating func decode(_ root: StoredNode?) -> ManifestFile {
        var manifest = ManifestFile(path: file)
        guard let fields = decodeTop(root, into: &manifest) else { return manifest }
        if let node = fields[.services] {
            for pair in pairs(node, "'services'") {
                guard let key = key(pair.key) else { continue }
                manifest.append(service(key, pair))
            }
        }
        decodeContexts(fields, into: &manifest)
        manifest.parameterReferences = parameterReferences
        manifest.configurationReads = configurationReads
        values.seal()
        return manifest
    }

    /// Decodes the top level's keys before `services`: the format version, imports,
    /// parameters and scopes; `nil` when there is no top level to decode.
    private mutating func decodeTop(_ root: StoredNode?, into manifest: inout ManifestFile) -> Fields? {
        guard let root else {
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
        }
        if let node = fields[.parameters] {
            manifest.parameters = parameters(node, in: "'parameters'")
        }
        if let node = fields[.scopes] {
            decodeScopes(node, into: &manifest)
        }
        return fields
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
            decorates: fields[.decorates].flatMap { string($0, "'decorates' of \(what())") },
            lifecycle: lifecycle(fields, what()),
            tags: fields[.tags].map { tags($0, what()) })
    }

    private mutating func tags(_ node: StoredNode, _ what: @autoclosure () -> String) -> [Located<String>] {
        var tags: [Located<String>] = []
        for element in list(node, "'tags' of \(what())") {
            if let tag = string(element, "a tag of \(what())") { tags.append(tag) }
        }
        return tags
    }

    private mutating func lifecycle(_ fields: Fields, _ what: @autoclosure () -> String) -> Lifecycle {
        Lifecycle(eager: fields[.eager].flatMap { bool($0, "'eager' of \(what())") },
                  shutdownTimeout: fields[.shutdownTimeout].flatMap { duration($0, "'shutdownTimeout' of \(what())") },
                  seeded: fields[.seeded].flatMap { bool($0, "'seeded' of \(what())") })
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
                args: fields[.args].flatMap { map($0, "'args' of \(what())") },
                lifecycle: lifecycle(fields, what()),
                tags: fields[.tags].map { tags($0, what()) })
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
    mutating func decodeOverlay(_ root: StoredNode?, context name: String) -> (version: Located<Int>?, context: ContextDefinition) {
        let start = SourceLocation(fileID: fileID, line: 1, column: 1)
        guard let root, root.isMapping else {
            diagnostics.append(.error(
                "an overlay file must be a mapping with 'wiring: 1' and the keys of a context",
                at: root?.location ?? start))
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
        let enabled = fields[.enabled].flatMap { bool($0, "'enabled' of \(what())") }
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
            enabled: enabled,
            lifecycle: lifecycle(fields, what()),
            tags: fields[.tags].map { tags($0, what()) })
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

    private mutating func bool(_ node: StoredNode, _ what: @autoclosure () -> String) -> Located<Bool>? {
        if node.tag == .placeholder { return nil }
        guard case .bool(let flag) = node.resolvedScalar else {
            error("\(what()) must be true or false, found \(node.kindDescription)", at: node)
            return nil
        }
        return Located(flag, at: location(node))
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

    package mutating func checkServiceReference(_ node: StoredNode) {
        let store = node.store
        if node.tag == .tagged {
            if !node.isScalar || store.count(ofBytes: node.index) == 0 {
                error("!tagged takes the name of a tag, found \(node.isScalar ? "an empty string" : node.kindDescription)", at: node)
            }
            return
        }
        if node.isScalar {
            if store.count(ofBytes: node.index) == 0 { error("!service takes a service key, found an empty string", at: node) }
            return
        }
        var hasService = false
        var children = node.pairs.children
        while let key = children.next(), let value = children.next() {
            let keyNode = StoredNode(store: store, index: key)
            let valueNode = StoredNode(store: store, index: value)
            let name = keyNode.isScalar ? store.text(key) : ""
            guard name == "service" || name == "name" else {
                error("unknown key '\(name)' in a !service reference\(Suggestion.hint(for: name, in: ["service", "name"])) (keys: service, name)", at: keyNode)
                continue
            }
            // Present, even with a value that is not a name (reported here, once).
            if name == "service" { hasService = true }
            guard valueNode.isScalar, store.count(ofBytes: value) > 0 else {
                error("'\(name)' of a !service reference must be a name, found \(valueNode.isScalar ? "an empty string" : valueNode.kindDescription)",
                      at: valueNode)
                continue
            }
        }
        if !hasService { error("a !service reference written as a mapping needs 'service'", at: node) }
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
                    guard fallback == nil else { break }
                    let place = currentContext.map { " (context '\($0)')" } ?? ""
                    if external.configuration != nil {
                        // A configuration was given (a container's, `validate --config FILE`): it
                        // is the one the container reads, so a key it lacks is an error. It is
                        // asked once the manifest is assembled, as the type it is needed as.
                        configurationReads.append(ConfigurationRead(name: name, location: location(node), context: currentContext))
                    } else if ExternalValues.isConfigurationKey(name) {
                        // A dotted name is a configuration key, read through the reader a
                        // container is given: not guessed at from the environment.
                        diagnostics.append(Diagnostic(.info, "reads configuration key '\(name)'\(place), not checked: pass the configuration to check it",
                                                 at: location(node)))
                    } else if external.environment[name] == nil {
                        diagnostics.append(.warning(
                            "environment variable '\(name)' is not set and has no default\(place); building a container will fail unless it is set",
                            at: location(node)))
                    }
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
