/// A value written in a manifest (a service's `args`, a parameter), with its position.
///
/// Scalars are typed by the YAML 1.2 core schema: `8080` is an integer, `"8080"` a string,
/// `true` a boolean (`yes` is a string). A string that holds `${VAR}` or `$(param)` is filled
/// in when a container is built; the values a factory reads are filled in, and one read before
/// that is its text as written. Read values typed with ``decode(_:)``:
///
/// ```swift
/// let port = try service.args?.decode("port", as: Int.self)
/// ```
public struct ManifestValue: Sendable, CustomStringConvertible {
    /// The kinds of value.
    public enum Kind: Sendable {
        /// `null`, `~`, or nothing after the colon.
        case null
        /// `true` or `false`.
        case bool(Bool)
        /// An integer: `8080`, `-1`, `0x1F`.
        case int(Int)
        /// A floating-point number: `0.5`, `1e3`, `.inf`.
        case double(Double)
        /// Any other scalar, or a quoted one: `"8080"` is a string.
        case string(String)
        /// A sequence: `[a, b]` or `- a` lines.
        case list([ManifestValue])
        /// A mapping: `{ key: value }` or indented `key: value` lines, in the order written.
        case map(ManifestMap)
        /// `!service Key` or `!service { service: Key, name: n }`: another service, resolved
        /// when the factory reads the argument.
        case service(ServiceReference)
        /// `!tagged tag`: every service with the tag, in manifest order.
        case tagged(String)
    }

    /// What a value holds as the package reads it: a string with references stays a template
    /// until a container is built, where ``kind`` shows its text.
    package enum Content: Sendable {
        case template(StringTemplate)
        case value(Kind)
    }

    /// Where the value comes from: the store of the file the loader read (decoded when asked
    /// for, so loading a large manifest does not build every value twice), or content built in
    /// code.
    private enum Source: Sendable {
        case stored(NodeStore, NodeStore.Index)
        case built(Content)
    }

    private let source: Source
    /// Where it was written.
    public let location: SourceLocation
    /// Whether the value must not be shown: tagged `!secret`, or read from the environment.
    public let isSecret: Bool
    /// Whether a string was produced by interpolation, so that typed reads may parse it
    /// (`${PORT:-8080}` read as an `Int`).
    let isInterpolated: Bool

    /// Creates a value.
    public init(_ kind: Kind, at location: SourceLocation, isSecret: Bool = false) {
        self.init(kind, at: location, isSecret: isSecret, isInterpolated: false)
    }

    package init(_ kind: Kind, at location: SourceLocation, isSecret: Bool, isInterpolated: Bool) {
        self.init(content: .value(kind), at: location, isSecret: isSecret, isInterpolated: isInterpolated)
    }

    init(content: Content, at location: SourceLocation, isSecret: Bool, isInterpolated: Bool) {
        source = .built(content)
        self.location = location
        self.isSecret = isSecret
        self.isInterpolated = isInterpolated
    }

    /// A value the loader read and checked, at `index` of its file's `store`.
    package init(store: NodeStore, index: NodeStore.Index) {
        source = .stored(store, index)
        location = store.location(index)
        isSecret = store.tag(index) == .secret
        isInterpolated = false
    }

    /// The value; a string not yet filled in is its text as written.
    public var kind: Kind {
        switch source {
        case .built(.value(let kind)): kind
        case .built(.template(let template)): .string(template.source)
        case .stored(let store, let index): store.kind(index)
        }
    }

    /// The value, a string not yet filled in kept as its template.
    package var content: Content {
        switch source {
        case .built(let content): content
        case .stored(let store, let index): store.content(index)
        }
    }

    /// A short name of the value's kind for messages: "a string", "an integer", "a list".
    public var kindDescription: String {
        switch kind {
        case .null: "null"
        case .bool: "a boolean"
        case .int: "an integer"
        case .double: "a number"
        case .string: "a string"
        case .list: "a list"
        case .map: "a mapping"
        case .service: "a service reference"
        case .tagged: "a tagged-services reference"
        }
    }

    /// The value as YAML-like text; secret values print as `<redacted>`.
    public var description: String {
        if isSecret { return "<redacted>" }
        switch kind {
        case .null: return "null"
        case .bool(let value): return String(value)
        case .int(let value): return String(value)
        case .double(let value): return String(value)
        case .string(let value): return value
        case .list(let values): return "[" + values.map(\.description).joined(separator: ", ") + "]"
        case .map(let map): return "{" + map.entries.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "}"
        case .service(let reference): return "!service \(reference)"
        case .tagged(let tag): return "!tagged \(tag)"
        }
    }

    /// Whether the value may hold a `${…}` or `$(…)` reference, nested ones included: when it
    /// does not, filling in references would give the same value back, so that work is skipped.
    var mayHoldReferences: Bool { mayHold(environmentOnly: false) }

    /// Whether the value may hold a reference (`environmentOnly`: a `${…}` reference to the
    /// environment), nested ones included.
    func mayHold(environmentOnly: Bool) -> Bool {
        switch source {
        case .stored(let store, let index):
            return store.mayHold(index, environmentOnly: environmentOnly)
        case .built(let content):
            switch content {
            case .template(let template): return !environmentOnly || !template.environmentVariables.isEmpty
            case .value(.list(let values)): return values.contains { $0.mayHold(environmentOnly: environmentOnly) }
            case .value(.map(let map)): return map.mayHold(environmentOnly: environmentOnly)
            case .value: return false
            }
        }
    }

    /// Whether this value, filled in, surely stays within `limit` bytes when it reads no `${…}`
    /// and each parameter fills in to at most `longestParameter` bytes: judged from the length
    /// of its written text alone, each `$(…)` taking at least four bytes of it, so that the
    /// values of an ordinary manifest are not parsed to find out (parsing each one that reads
    /// a parameter cost 21 % more to load 500 services). `false` when that cannot be told
    /// without parsing (a list, a mapping, a value built in code).
    func staysWithin(_ limit: Int, longestParameter: Int) -> Bool {
        guard case .stored(let store, let index) = source, store.isScalar(index) else { return false }
        return Self.staysWithin(limit, written: store.count(ofBytes: index), longestParameter: longestParameter)
    }

    /// Whether a scalar `written` bytes long stays within `limit` filled in (see above).
    static func staysWithin(_ limit: Int, written: Int, longestParameter: Int) -> Bool {
        written + (written / 4) * longestParameter <= limit
    }

    /// Every template inside this value, nested ones included.
    func forEachTemplate(_ body: (StringTemplate, SourceLocation) -> Void) {
        switch content {
        case .template(let template): body(template, location)
        case .value(.list(let values)): values.forEach { $0.forEachTemplate(body) }
        case .value(.map(let map)): map.entries.forEach { $0.value.forEachTemplate(body) }
        case .value: break
        }
    }
}

/// A mapping of a manifest, its keys in source order, each with its position.
public struct ManifestMap: Sendable {
    /// One key and its value.
    public struct Entry: Sendable {
        /// The key.
        public let key: String
        /// Where the key was written.
        public let keyLocation: SourceLocation
        /// The value.
        public let value: ManifestValue

        /// Creates an entry.
        public init(key: String, keyLocation: SourceLocation, value: ManifestValue) {
            self.key = key
            self.keyLocation = keyLocation
            self.value = value
        }
    }

    private enum Source: Sendable {
        /// The mapping at `index` of a file's store.
        case stored(NodeStore, NodeStore.Index, references: ReferenceScan?)
        case built([Entry])
    }

    private let source: Source
    /// Where the mapping starts.
    public let location: SourceLocation

    /// Creates a mapping.
    public init(_ entries: [Entry], at location: SourceLocation) {
        source = .built(entries)
        self.location = location
    }

    /// The mapping the loader read and checked (keys are names) at `index` of its file's
    /// `store`.
    ///
    /// - Parameter references: What a scan of the pairs' scalars found, when the loader already
    ///   made one; without it, each question about references scans the pairs again.
    package init(store: NodeStore, index: NodeStore.Index, references: ReferenceScan? = nil) {
        source = .stored(store, index, references: references)
        location = store.location(index)
    }

    /// The entries, in source order.
    public var entries: [Entry] {
        switch source {
        case .built(let entries):
            return entries
        case .stored(let store, let index, _):
            return store.pairs(of: index).map { pair in
                Entry(key: store.text(pair.key), keyLocation: store.location(pair.key),
                      value: ManifestValue(store: store, index: pair.value))
            }
        }
    }

    /// Calls `body` with each value that may hold a reference and, filled in, may pass `limit`
    /// bytes when each parameter fills in to at most `longestParameter` (see
    /// ``ManifestValue/staysWithin(_:longestParameter:)``), or that reads a `${…}` when
    /// `withEnvironment`. A stored mapping is walked in its store, making a value only for
    /// those: a check of an ordinary manifest's arguments then makes none (making each value
    /// and key, as ``entries`` does, cost 10 % more to load 500 services, in callgrind's count).
    func forEachValue(mayPass limit: Int, longestParameter: Int, withEnvironment: Bool, _ body: (ManifestValue) -> Void) {
        switch source {
        case .built(let entries):
            for entry in entries where entry.value.mayHoldReferences {
                if withEnvironment && entry.value.mayHold(environmentOnly: true)
                    || !entry.value.staysWithin(limit, longestParameter: longestParameter) {
                    body(entry.value)
                }
            }
        case .stored(let store, let index, _):
            var children = store.children(of: index)
            while children.next() != nil, let value = children.next() {
                guard store.mayHold(value, environmentOnly: false) else { continue }
                if !(withEnvironment && store.mayHold(value, environmentOnly: true)),
                   store.isScalar(value), ManifestValue.staysWithin(limit, written: store.count(ofBytes: value), longestParameter: longestParameter) {
                    continue
                }
                body(ManifestValue(store: store, index: value))
            }
        }
    }

    /// Whether a value may hold a `${…}` or `$(…)` reference (see ``ManifestValue``).
    var mayHoldReferences: Bool { mayHold(environmentOnly: false) }

    /// Whether a value may be tagged `!service` or `!tagged`: `false` only when the loader's
    /// scan found none.
    var mayHoldServiceReferences: Bool {
        if case .stored(_, _, let scan?) = source { return scan.contains(.services) }
        return true
    }

    /// Calls `found` with each well-formed `!service` or `!tagged` value under the mapping,
    /// where it sits, and what it refers to. A stored mapping is walked in its store, building
    /// no value, not even for the references.
    func forEachServiceReference(_ found: (_ path: ArgumentPath, _ target: DeclaredReference.Target) -> Void) {
        switch source {
        case .built(let entries):
            for entry in entries { Self.walk(entry.value, path: entry.key, found) }
        case .stored(let store, let index, _):
            var children = store.children(of: index)
            // Empty for a reference that is an argument's value: the common case allocates nothing.
            var steps: [ArgumentPath.Step] = []
            while let key = children.next(), let value = children.next() {
                store.forEachServiceReference(under: value, steps: &steps) { node, steps in
                    guard let target = store.referenceTarget(node) else { return }
                    found(ArgumentPath(store: store, key: key, steps: steps), target)
                }
            }
        }
    }

    private static func walk(_ value: ManifestValue, path: String, _ found: (ArgumentPath, DeclaredReference.Target) -> Void) {
        switch value.kind {
        case .service(let reference): found(ArgumentPath(path), .service(reference))
        case .tagged(let tag): found(ArgumentPath(path), .tagged(tag, at: value.location))
        case .list(let values): for (offset, element) in values.enumerated() { walk(element, path: "\(path)[\(offset)]", found) }
        case .map(let map): for entry in map.entries { walk(entry.value, path: "\(path).\(entry.key)", found) }
        default: break
        }
    }

    func mayHold(environmentOnly: Bool) -> Bool {
        switch source {
        case .built(let entries): entries.contains { $0.value.mayHold(environmentOnly: environmentOnly) }
        case .stored(_, _, let scan?): environmentOnly ? scan.contains(.environment) : scan.contains(.dollar)
        case .stored(let store, let index, nil): store.mayHold(index, environmentOnly: environmentOnly)
        }
    }

    /// The number of entries.
    public var count: Int {
        switch source {
        case .built(let entries): entries.count
        case .stored(let store, let index, _): store.count(index)
        }
    }

    /// The keys, in source order.
    public var keys: [String] {
        switch source {
        case .built(let entries): entries.map(\.key)
        case .stored(let store, let index, _): store.pairs(of: index).map { store.text($0.key) }
        }
    }

    /// This mapping with `overrides` laid over it key by key, as a named variant's `args` are
    /// laid over its service's; located at `overrides`.
    package func overlaid(by overrides: ManifestMap) -> ManifestMap {
        ManifestMap(entries.filter { overrides[$0.key] == nil } + overrides.entries, at: overrides.location)
    }

    /// The value for `key`, if present.
    public subscript(key: String) -> ManifestValue? {
        switch source {
        case .built(let entries):
            return entries.first { $0.key == key }?.value
        case .stored(let store, let index, _):
            for pair in store.pairs(of: index) where store.scalar(pair.key, is: key) {
                return ManifestValue(store: store, index: pair.value)
            }
            return nil
        }
    }
}

/// A reference to a service written in a manifest value: `!service NoteStore`, or
/// `!service { service: NoteStore, name: archive }`.
public struct ServiceReference: Sendable, Hashable, CustomStringConvertible {
    /// The key of the service referred to.
    public let service: String
    /// The named variant, if any.
    public let name: String?
    /// Where the reference was written.
    public let location: SourceLocation

    /// Creates a reference.
    public init(service: String, name: String? = nil, at location: SourceLocation) {
        self.service = service
        self.name = name
        self.location = location
    }

    /// `NoteStore` or `NoteStore[archive]`.
    public var description: String { shownService(service, name: name) }
}
