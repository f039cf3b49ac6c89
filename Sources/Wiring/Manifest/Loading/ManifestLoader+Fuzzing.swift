extension ManifestLoader {
    /// Runs one in-memory manifest through everything a load does, and more: the YAML reader,
    /// the decoder, assembly, validation, each context applied, and `explain` and `graph` of the
    /// result. For the fuzzer, which must find no input that crashes, hangs or leaks.
    package static func exercise(_ bytes: [UInt8]) {
        let file = "fuzz.yaml"
        let environment = ["HOME": "/root", "EMPTY": ""]
        var decoder = ManifestFileDecoder(file: file, environment: environment)
        let limits = YAMLLimits(maxFileSize: 1 << 20, maxDepth: 64, maxAliasExpansion: 100_000)
        // Read on one thread, then pipelined, then split: all must give the same tree,
        // entries and problems.
        var streamed = YAMLEntryCollector()
        let yaml = YAMLReader.read(bytes, file: file, limits: limits, streaming: "services", into: &streamed, pipelining: .never)
        // Streamed entries are stored as read, not built as nodes: they must hold what a read
        // that builds every node gives, with the same problems.
        let built = YAMLReader.read(bytes, file: file, limits: limits, pipelining: .never)
        precondition(streamed.restoring(into: yaml.root, section: "services") == built.root
                     && yaml.diagnostics.map(\.description) == built.diagnostics.map(\.description),
                     "the YAML reader stores streamed entries differently from the nodes it builds")
        for pipelining in [YAMLPipelining.always, .split] {
            var otherStreamed = YAMLEntryCollector()
            let other = YAMLReader.read(bytes, file: file, limits: limits, streaming: "services", into: &otherStreamed,
                                        pipelining: pipelining)
            precondition(other.root == yaml.root && otherStreamed.entries == streamed.entries
                         && other.diagnostics.map(\.description) == yaml.diagnostics.map(\.description),
                         "the YAML reader reads differently \(pipelining == .always ? "pipelined" : "split")")
        }
        // The decoder too: in pieces, it decodes the rest of the file while they are read.
        func decoded(_ pipelining: YAMLPipelining) -> [String] {
            let (diagnostics, decodedFile) = readFile(bytes, path: file, limits: limits, environment: environment, pipelining: pipelining)
            return diagnostics.map(\.description) + decodedFile.services.map(\.key) + decodedFile.contexts.map(\.name)
                + decodedFile.parameterReferences.all.map { "\($0.value) \($0.location)" }
        }
        precondition(decoded(.split) == decoded(.never), "the decoder decodes a file read in pieces differently")
        let entries = ValueStore(fileID: SourceFileTable.intern(file))
        for pair in streamed.entries {
            let (key, value) = (entries.append(pair.key), entries.append(pair.value))
            decoder.consume(StoredPair(key: StoredNode(store: entries, index: key), value: StoredNode(store: entries, index: value)))
        }
        guard yaml.root != nil || !yaml.diagnostics.containsErrors else { return }
        let manifestFile = decoder.decode(yaml.root)
        var assembler = ManifestAssembler()
        let manifest = assembler.assemble([manifestFile])
        var validator = ManifestValidator(manifest: manifest)
        validator.run()
        // A large container binds its manifest while another thread validates it: binding must
        // cope with a manifest that fails validation.
        var binder = Binder(manifest: manifest, registry: fuzzRegistry, environment: environment)
        _ = binder.bind()
        let diagnostics = decoder.diagnostics + assembler.diagnostics + validator.diagnostics
        for diagnostic in diagnostics {
            _ = diagnostic.description
        }
        // A manifest that validates and binds is resolved: every service and variant, twice,
        // so that kept instances are read back, through factories that resolve others.
        if !diagnostics.containsErrors,
           let container = try? Container(manifest: manifest, registry: fuzzRegistry, contexts: .none,
                                          options: Container.Options(environment: environment)) {
            _ = container.instantiateAll()
            _ = container.instantiateAll()
        }
        var resolver = ValueResolver(manifest: manifest, environment: environment)
        resolver.resolveParameters()
        for service in manifest.services.prefix(8) {
            _ = resolver.resolve(service.args, at: service.location)
            _ = try? manifest.explain(service.key, environment: environment).description
        }
        _ = manifest.graph(format: .dot)
        for context in manifest.contexts.prefix(4) {
            _ = try? manifest.applying(contexts: [context.name]).graph(format: .mermaid)
        }
    }
}

/// Factories under the keys fuzz inputs are likeliest to name: values, class instances, and
/// factories that resolve other services (by key and by type) and read their arguments.
private let fuzzRegistry: FactoryRegistry = {
    let registry = FactoryRegistry()
    for key in ["a", "b", "f", "factory"] { registry.factory(key) { _ in key } }
    registry.factory("logger") { r in FuzzInstance(name: r.serviceKey) }
    registry.factory("store") { r in
        if let text = try r.resolve(key: "a") as? String { return FuzzInstance(name: text) }
        return FuzzInstance(name: try r.resolve(FuzzInstance.self).name)
    }
    registry.factory("decorator") { r in FuzzInstance(name: try r.decorated(FuzzInstance.self).name + "+") }
    registry.factory("args") { r in try r.arg("url", default: "none") + "\(r.args.count)" }
    return registry
}()

/// A class instance for fuzz factories to build, so that resolves hand over class references.
private final class FuzzInstance: Sendable {
    let name: String
    init(name: String) { self.name = name }
}
