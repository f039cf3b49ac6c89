/// The pairs of a mapping, looked up by key. Mappings of a manifest are small, so a scan beats
/// building a dictionary for each.
private struct Fields {
    let pairs: [YAMLPair]

    subscript(name: String) -> YAMLNode? {
        for pair in pairs {
            if case .scalar(let key, _) = pair.key.content, key == name { return pair.value }
        }
        return nil
    }
}

/// Turns one file's YAML tree into a ``ManifestFile``, reporting every unknown key and every
/// value of the wrong kind at its position, and carrying on so that one pass finds them all.
package struct ManifestFileDecoder {
    package let file: String
    private let fileID: UInt32
    package private(set) var diagnostics: [Diagnostic] = []

    package init(file: String) {
        self.file = file
        fileID = SourceFileTable.intern(file)
    }

    private func location(_ node: YAMLNode) -> SourceLocation {
        SourceLocation(fileID: fileID, line: Int(node.line), column: Int(node.column))
    }

    private mutating func error(_ message: String, at node: YAMLNode) {
        diagnostics.append(.error(message, at: location(node)))
    }

    // MARK: - Top level

    package mutating func decode(_ root: YAMLNode?) -> ManifestFile {
        var manifest = ManifestFile(path: file)
        guard let root else {
            diagnostics.append(.error(
                "the manifest is empty; it needs at least 'wiring: 1'",
                at: SourceLocation(file: file, line: 1, column: 1)))
            return manifest
        }
        guard case .mapping = root.content else {
            error("a manifest must be a mapping of keys such as 'wiring' and 'services', found \(root.kindDescription)", at: root)
            return manifest
        }
        let fields = self.fields(of: root, schema: ManifestSchema.topLevel, in: "the manifest", ignoringExtensions: true)

        if let node = fields["wiring"] {
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
        if let node = fields["imports"] {
            manifest.imports = list(node, "'imports'").compactMap { string($0, "an import") }
        }
        if let node = fields["parameters"] {
            manifest.parameters = parameters(node, in: "'parameters'")
        }
        if let node = fields["scopes"] {
            decodeScopes(node, into: &manifest)
        }
        if let node = fields["services"] {
            for pair in pairs(node, "'services'") {
                guard let key = key(pair.key) else { continue }
                manifest.services.append(service(key, pair))
            }
        }
        if let node = fields["contexts"] {
            for pair in pairs(node, "'contexts'") {
                guard let name = key(pair.key) else { continue }
                manifest.contexts.append(context(name, pair))
            }
        }
        return manifest
    }

    private mutating func decodeScopes(_ node: YAMLNode, into manifest: inout ManifestFile) {
        let fields = self.fields(of: node, schema: ManifestSchema.scopes, in: "'scopes'")
        if let node = fields["default"] {
            manifest.defaultScope = scope(node, "'default' of 'scopes'")
        }
        guard let node = fields["custom"] else { return }
        for pair in pairs(node, "'custom' of 'scopes'") {
            guard let name = key(pair.key) else { continue }
            let what = "custom scope '\(name)'"
            if Scope(name).isBuiltIn {
                error("custom scope '\(name)' has the name of a built-in scope", at: pair.key)
                continue
            }
            let fields = self.fields(of: pair.value, schema: ManifestSchema.customScope, in: what)
            let ttl = fields["ttl"].flatMap { duration($0, "'ttl' of \(what)") }
            manifest.customScopes.append(CustomScope(name: name, timeToLive: ttl, location: location(pair.key)))
        }
    }

    // MARK: - Services and contexts

    private mutating func service(_ key: String, _ pair: YAMLPair) -> ServiceDefinition {
        let what = "service '\(key)'"
        let fields = self.fields(of: pair.value, schema: ManifestSchema.service, in: what)
        return ServiceDefinition(
            key: key,
            location: location(pair.key),
            factory: fields["factory"].flatMap { string($0, "'factory' of \(what)") },
            scope: fields["scope"].flatMap { scope($0, "'scope' of \(what)") },
            timeToLive: fields["ttl"].flatMap { duration($0, "'ttl' of \(what)") },
            implements: fields["implements"].map { implements($0, of: what) } ?? [],
            names: fields["names"].map { names($0, of: key) } ?? [],
            args: fields["args"].flatMap { map($0, "'args' of \(what)") },
            decorates: fields["decorates"].flatMap { string($0, "'decorates' of \(what)") })
    }

    private mutating func names(_ node: YAMLNode, of service: String) -> [NamedVariant] {
        pairs(node, "'names' of service '\(service)'").compactMap { pair in
            guard let name = key(pair.key) else { return nil }
            let what = "named variant '\(name)' of service '\(service)'"
            let fields = self.fields(of: pair.value, schema: ManifestSchema.namedVariant, in: what)
            return NamedVariant(
                name: name,
                location: location(pair.key),
                factory: fields["factory"].flatMap { string($0, "'factory' of \(what)") },
                scope: fields["scope"].flatMap { scope($0, "'scope' of \(what)") },
                timeToLive: fields["ttl"].flatMap { duration($0, "'ttl' of \(what)") },
                args: fields["args"].flatMap { map($0, "'args' of \(what)") })
        }
    }

    private mutating func implements(_ node: YAMLNode, of what: String) -> [ImplementsEntry] {
        let entries = node.scalar != nil ? [node] : list(node, "'implements' of \(what)")
        return entries.compactMap { entry in
            if case .mapping = entry.content {
                let fields = self.fields(of: entry, schema: ManifestSchema.implementsEntry, in: "an 'implements' entry of \(what)")
                guard let typeNode = fields["type"] else {
                    error("an 'implements' entry written as a mapping needs 'type'", at: entry)
                    return nil
                }
                guard let type = string(typeNode, "'type' of an 'implements' entry") else { return nil }
                let name = fields["name"].flatMap { string($0, "'name' of an 'implements' entry") }
                return ImplementsEntry(type: type.value, name: name?.value, location: location(entry))
            }
            guard let type = string(entry, "an 'implements' entry of \(what) (a type name, or { type:, name: })") else { return nil }
            return ImplementsEntry(type: type.value, name: nil, location: type.location)
        }
    }

    private mutating func context(_ name: String, _ pair: YAMLPair) -> ContextDefinition {
        let what = "context '\(name)'"
        let fields = self.fields(of: pair.value, schema: ManifestSchema.context, in: what)
        var overrides: [ServiceOverride] = []
        if let node = fields["services"] {
            for entry in pairs(node, "'services' of \(what)") {
                guard let key = key(entry.key) else { continue }
                overrides.append(override(key, entry, context: name))
            }
        }
        let parameterOverrides = fields["parameters"].map { self.parameters($0, in: "'parameters' of \(what)") } ?? []
        return ContextDefinition(name: name, location: location(pair.key), services: overrides, parameters: parameterOverrides)
    }

    private mutating func override(_ key: String, _ pair: YAMLPair, context: String) -> ServiceOverride {
        let what = "the override of '\(key)' in context '\(context)'"
        let fields = self.fields(of: pair.value, schema: ManifestSchema.serviceOverride, in: what)
        var enabled: Located<Bool>?
        if let node = fields["enabled"], node.tag != .placeholder {
            if case .bool(let flag) = node.resolvedScalar {
                enabled = Located(flag, at: location(node))
            } else {
                error("'enabled' of \(what) must be true or false, found \(node.kindDescription)", at: node)
            }
        }
        return ServiceOverride(
            key: key,
            location: location(pair.key),
            context: context,
            factory: fields["factory"].flatMap { string($0, "'factory' of \(what)") },
            scope: fields["scope"].flatMap { scope($0, "'scope' of \(what)") },
            timeToLive: fields["ttl"].flatMap { duration($0, "'ttl' of \(what)") },
            implements: fields["implements"].map { implements($0, of: what) },
            names: fields["names"].map { names($0, of: key) },
            args: fields["args"].flatMap { map($0, "'args' of \(what)") },
            decorates: fields["decorates"].flatMap { string($0, "'decorates' of \(what)") },
            enabled: enabled)
    }

    private mutating func parameters(_ node: YAMLNode, in what: String) -> [Parameter] {
        pairs(node, what).compactMap { pair in
            guard let name = key(pair.key) else { return nil }
            return Parameter(name: name, location: location(pair.key), value: value(pair.value))
        }
    }

    // MARK: - Shapes

    /// The known fields of a mapping node; unknown keys are reported with a did-you-mean.
    /// A null node (a key with nothing after it) has no fields.
    private mutating func fields(
        of node: YAMLNode, schema: [ManifestSchema.Field], in what: String, ignoringExtensions: Bool = false
    ) -> Fields {
        let pairs = pairs(node, what)
        for pair in pairs {
            guard let key = key(pair.key) else { continue }
            if schema.contains(where: { $0.name == key }) || (ignoringExtensions && key.hasPrefix("x-")) { continue }
            let hint = Suggestion.hint(for: key, in: schema.map(\.name))
            let extensions = ignoringExtensions && hint.isEmpty ? " (keys starting with 'x-' are ignored)" : ""
            let place = ignoringExtensions ? "unknown top-level key '\(key)'" : "unknown key '\(key)' in \(what)"
            error(place + hint + extensions, at: pair.key)
        }
        return Fields(pairs: pairs)
    }

    /// The pairs of a mapping node; a null node is an empty mapping.
    private mutating func pairs(_ node: YAMLNode, _ what: String) -> [YAMLPair] {
        if node.tag == .placeholder { return [] }
        switch node.content {
        case .mapping(let pairs): return pairs
        case .scalar where node.resolvedScalar == .null: return []
        default:
            error("\(what) must be a mapping, found \(node.kindDescription)", at: node)
            return []
        }
    }

    /// The elements of a sequence node; a null node is an empty list.
    private mutating func list(_ node: YAMLNode, _ what: String) -> [YAMLNode] {
        if node.tag == .placeholder { return [] }
        switch node.content {
        case .sequence(let elements): return elements
        case .scalar where node.resolvedScalar == .null: return []
        default:
            error("\(what) must be a list, found \(node.kindDescription)", at: node)
            return []
        }
    }

    /// A mapping key as a string.
    private mutating func key(_ node: YAMLNode) -> String? {
        switch node.resolvedScalar {
        case .string(let text) where !text.isEmpty: return text
        case .none:
            error("a key must be a name, found \(node.kindDescription)", at: node)
        default:
            guard let text = node.scalar, !text.isEmpty else {
                error("a key must be a name, found an empty key", at: node)
                return nil
            }
            return text
        }
        return nil
    }

    private mutating func string(_ node: YAMLNode, _ what: String) -> Located<String>? {
        if node.tag == .placeholder { return nil }
        guard case .string(let text) = node.resolvedScalar else {
            error("\(what) must be a string, found \(node.kindDescription)", at: node)
            return nil
        }
        guard !text.isEmpty else {
            error("\(what) must not be empty", at: node)
            return nil
        }
        return Located(text, at: location(node))
    }

    private mutating func scope(_ node: YAMLNode, _ what: String) -> Located<Scope>? {
        string(node, what).map { Located(Scope($0.value), at: $0.location) }
    }

    private mutating func duration(_ node: YAMLNode, _ what: String) -> Located<Duration>? {
        if node.tag == .placeholder { return nil }
        let value = value(node)
        do {
            return Located(try value.decode(Duration.self), at: value.location)
        } catch {
            self.error("\(what) must be \(Duration.manifestTypeDescription), found \(node.kindDescription)", at: node)
            return nil
        }
    }

    private mutating func map(_ node: YAMLNode, _ what: String) -> ManifestMap? {
        if node.tag == .placeholder { return nil }
        if case .mapping = node.content, case .map(let map) = value(node).kind { return map }
        if node.resolvedScalar == .null { return ManifestMap([], at: location(node)) }
        error("\(what) must be a mapping, found \(node.kindDescription)", at: node)
        return nil
    }

    /// Any node as a ``ManifestValue``, strings with `${…}` or `$(…)` parsed as templates.
    private mutating func value(_ node: YAMLNode) -> ManifestValue {
        let at = location(node)
        let secret = node.tag == .secret
        switch node.content {
        case .scalar(let text, _):
            switch node.resolvedScalar ?? .string(text) {
            case .null: return ManifestValue(.null, at: at, isSecret: secret)
            case .bool(let flag): return ManifestValue(.bool(flag), at: at, isSecret: secret)
            case .int(let number): return ManifestValue(.int(number), at: at, isSecret: secret)
            case .double(let number): return ManifestValue(.double(number), at: at, isSecret: secret)
            case .string(let text):
                do {
                    if let template = try StringTemplate.parse(text) {
                        return ManifestValue(.template(template), at: at, isSecret: secret)
                    }
                } catch {
                    self.error(error.message, at: node)
                }
                return ManifestValue(.string(text), at: at, isSecret: secret)
            }
        case .sequence(let elements):
            return ManifestValue(.list(elements.map { value($0) }), at: at, isSecret: secret)
        case .mapping(let pairs):
            var entries: [ManifestMap.Entry] = []
            entries.reserveCapacity(pairs.count)
            for pair in pairs {
                guard let key = key(pair.key) else { continue }
                entries.append(ManifestMap.Entry(key: key, keyLocation: location(pair.key), value: value(pair.value)))
            }
            return ManifestValue(.map(ManifestMap(entries, at: at)), at: at, isSecret: secret)
        }
    }
}
