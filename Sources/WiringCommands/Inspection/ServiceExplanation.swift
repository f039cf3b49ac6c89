public import Wiring

/// The effective definition of one service, after imports, overlay files and contexts: each
/// field with its value and the place (and context) it came from. `wiring explain` prints it.
///
/// ```text
/// NoteStore (config-examples/services.yaml:34:3), contexts: test
///   factory              in-memory-note-store   config-examples/services.yaml:78:19 (context test)
///   scope                unique                 config-examples/services.yaml:78:50 (context test)
///   args.directory       /tmp/wiring-notes-test config-examples/services.yaml:40:18 ← $(notesDirectory)
/// ```
public struct ServiceExplanation: Sendable, CustomStringConvertible {
    /// One field of the effective definition.
    public struct Field: Sendable {
        /// The field's path: `factory`, `args.url`, `names.replica.args.url`.
        public let path: String
        /// The value as shown (secret and environment values redacted unless asked).
        public let value: String
        /// Where the value was written, if anywhere.
        public let location: SourceLocation?
        /// The applied context the value came from, if any.
        public let context: String?
        /// The template it was filled in from (`$(dbURL)`, `${DATABASE_URL}`), if any.
        public let template: String?
    }

    /// The service key.
    public let service: String
    /// Where the service was declared.
    public let location: SourceLocation
    /// The contexts applied.
    public let contexts: [String]
    /// The fields, in a fixed order: factory, scope, ttl, seeded, eager, shutdownTimeout, implements,
    /// decorates, decorated by, tags, depends on, depended on by, args, names.
    public let fields: [Field]

    /// The explanation as aligned text.
    public var description: String {
        var lines = ["\(service) (\(location))" + (contexts.isEmpty ? "" : ", contexts: " + contexts.joined(separator: ", "))]
        let pathWidth = fields.map(\.path.count).max() ?? 0
        let valueWidth = min(fields.map(\.value.count).max() ?? 0, 48)
        for field in fields {
            var line = "  " + field.path.padding(to: pathWidth) + "  " + field.value.padding(to: valueWidth)
            if let location = field.location { line += "  \(location)" }
            if let context = field.context { line += " (context \(context))" }
            if let template = field.template { line += " ← \(template)" }
            lines.append(line.trailingSpacesRemoved)
        }
        return lines.joined(separator: "\n")
    }
}

extension String {
    fileprivate func padding(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }

    fileprivate var trailingSpacesRemoved: String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}

extension Manifest {
    /// Explains the effective definition of the service `key` in this manifest (apply contexts
    /// first with ``applying(contexts:)``).
    ///
    /// - Parameters:
    ///   - key: The service key.
    ///   - environment: The environment `${NAME}` references read.
    ///   - showingValues: Whether to show values read from the environment or tagged `!secret`;
    ///     they print as `<redacted>` otherwise.
    /// - Throws: ``ManifestError`` when no such service is declared (with a did-you-mean).
    public func explain(_ key: String, environment: [String: String], showingValues: Bool = false) throws(ManifestError) -> ServiceExplanation {
        guard let service = service(key) else {
            if let off = switchedOff[key] {
                throw ManifestError("service '\(key)' is switched off in context '\(off.value)'", at: off.location)
            }
            // A type that services implement is often what a user asks about: name them.
            let implementing = services.filter { $0.implements.contains { $0.type == key } }.map { "'\($0.key)'" }
            if let only = implementing.first {
                let which = implementing.count == 1
                    ? "service \(only) implements: explain it"
                    : "services \(implementing.joined(separator: ", ")) implement: explain one of them"
                throw ManifestError("no service '\(key)' is declared; '\(key)' is a type that \(which)", at: nil)
            }
            throw ManifestError("no service '\(key)' is declared\(Suggestion.hint(for: key, in: services.map(\.key)))", at: nil)
        }
        let origins = contextOrigins(of: key)
        var resolver = ValueResolver(manifest: self, environment: environment)
        var fields: [ServiceExplanation.Field] = []
        func add(_ path: String, _ value: String, _ location: SourceLocation?, template: String? = nil) {
            fields.append(.init(path: path, value: value, location: location,
                                context: location.flatMap { origins[$0] }, template: template))
        }
        func addArgs(_ args: ManifestMap?, prefix: String) {
            for entry in args?.entries ?? [] {
                let before = resolver.diagnostics.count
                let resolved = resolver.resolve(entry.value)
                var shown = resolved.isSecret && !showingValues ? "<redacted>" : Self.show(resolved)
                var template: StringTemplate?
                if case .template(let written) = entry.value.content { template = written }
                if resolver.diagnostics.count > before {
                    // A dotted name is a configuration key, read through the app's reader.
                    let readsConfiguration = template?.parts.contains {
                        if case .environment(let name, _) = $0 { return ExternalValues.isConfigurationKey(name) }
                        return false
                    } ?? false
                    shown = readsConfiguration ? "<from configuration>" : "<unset environment variable>"
                }
                add(prefix + entry.key, shown, entry.value.location, template: template?.source)
            }
        }
        func addLifecycle(_ lifecycle: Lifecycle, prefix: String) {
            if let seeded = lifecycle.seeded { add(prefix + "seeded", "\(seeded.value)", seeded.location) }
            if let eager = lifecycle.eager { add(prefix + "eager", "\(eager.value)", eager.location) }
            if let timeout = lifecycle.shutdownTimeout { add(prefix + "shutdownTimeout", "\(timeout.value)", timeout.location) }
        }
        if service.hasFactory { add("factory", service.factoryKey, service.factory?.location) }
        let scope = effectiveScope(of: service)
        add("scope", scope.name, service.scope?.location ?? defaultScope?.location)
        if let ttl = service.timeToLive { add("ttl", "\(ttl.value)", ttl.location) }
        addLifecycle(service.lifecycle, prefix: "")
        for entry in service.implements {
            add("implements", entry.name.map { "\(entry.type) (name \($0))" } ?? entry.type, entry.location)
        }
        if let target = service.decorates { add("decorates", target.value, target.location) }
        for decorator in services where decorator.decorates?.value == key {
            add("decorated by", decorator.key, decorator.location)
        }
        if let tags = service.tags, !tags.isEmpty {
            add("tags", tags.map(\.value).joined(separator: ", "), tags[0].location)
        }
        // The declared graph around it: what its args refer to, and who refers to it.
        let references = declaredReferences
        for reference in references where reference.owner == key {
            let owner = reference.ownerName.map { "names.\($0).args." } ?? "args."
            let via = reference.isAutowired ? "autowired" : owner + reference.argument
            switch reference.target {
            case .service(let target): add("depends on", "\(target) (\(via))", target.location)
            case .tagged(let tag, let location): add("depends on", "tagged \(tag) (\(owner)\(reference.argument))", location)
            }
        }
        for reference in references {
            let refersHere: Bool
            switch reference.target {
            case .service(let target): refersHere = target.service == key
            case .tagged(let tag, _): refersHere = service.tags?.contains { $0.value == tag } ?? false
            }
            guard refersHere else { continue }
            let owner = reference.ownerName.map { "\(reference.owner)[\($0)]" } ?? reference.owner
            add("depended on by", "\(owner) (\(reference.isAutowired ? "autowired" : reference.argument))", reference.location)
        }
        addArgs(service.args, prefix: "args.")
        for variant in service.names {
            add("names.\(variant.name)", variant.factory?.value ?? service.factoryKey, variant.factory?.location ?? variant.location)
            if let scope = variant.scope { add("names.\(variant.name).scope", scope.value.name, scope.location) }
            addLifecycle(variant.lifecycle, prefix: "names.\(variant.name).")
            addArgs(variant.args, prefix: "names.\(variant.name).args.")
        }
        return ServiceExplanation(service: key, location: service.location, contexts: appliedContexts, fields: fields)
    }

    /// The places an applied context wrote something about `key`, by location.
    private func contextOrigins(of key: String) -> [SourceLocation: String] {
        var origins: [SourceLocation: String] = [:]
        for name in appliedContexts {
            guard let context = context(name) else { continue }
            for override in context.services where override.key == key {
                for location in [override.factory?.location, override.scope?.location, override.timeToLive?.location,
                                 override.decorates?.location, override.enabled?.location,
                                 override.lifecycle.eager?.location, override.lifecycle.shutdownTimeout?.location].compactMap({ $0 }) {
                    origins[location] = name
                }
                for entry in override.implements ?? [] { origins[entry.location] = name }
                for variant in override.names ?? [] {
                    origins[variant.location] = name
                    for location in [variant.factory?.location, variant.scope?.location].compactMap({ $0 }) { origins[location] = name }
                    for entry in variant.args?.entries ?? [] { origins[entry.value.location] = name }
                }
                for entry in override.args?.entries ?? [] { origins[entry.value.location] = name }
            }
            for service in context.added where service.key == key {
                origins[service.location] = name
                if let factory = service.factory { origins[factory.location] = name }
                for entry in service.args?.entries ?? [] { origins[entry.value.location] = name }
            }
        }
        return origins
    }

    private static func show(_ value: ManifestValue) -> String {
        switch value.kind {
        case .string(let text): text.contains("\n") ? text.debugDescription : text
        default: value.description
        }
    }
}
