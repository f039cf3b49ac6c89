extension ManifestLoader {
    /// Runs one in-memory manifest through everything a load does, and more: the YAML reader,
    /// the decoder, assembly, validation, each context applied, and `explain` and `graph` of the
    /// result. For the fuzzer, which must find no input that crashes, hangs or leaks.
    package static func exercise(_ bytes: [UInt8]) {
        let file = "fuzz.yaml"
        let environment = ["HOME": "/root", "EMPTY": ""]
        var decoder = ManifestFileDecoder(file: file, environment: environment)
        let limits = YAMLLimits(maxFileSize: 1 << 20, maxDepth: 64, maxAliasExpansion: 100_000)
        // Read on one thread, then on two: both must give the same tree, entries and problems.
        var streamed: [YAMLPair] = [], pipelinedStreamed: [YAMLPair] = []
        let yaml = YAMLReader.read(bytes, file: file, limits: limits, streaming: "services",
                                   to: { streamed.append($0) }, pipelining: .never)
        let pipelined = YAMLReader.read(bytes, file: file, limits: limits, streaming: "services",
                                        to: { pipelinedStreamed.append($0) }, pipelining: .always)
        precondition(pipelined.root == yaml.root && pipelinedStreamed == streamed
                     && pipelined.diagnostics.map(\.description) == yaml.diagnostics.map(\.description),
                     "the YAML reader reads differently on two threads")
        for pair in streamed { decoder.decodeStreamedService(pair) }
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
        for diagnostic in decoder.diagnostics + assembler.diagnostics + validator.diagnostics {
            _ = diagnostic.description
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

/// Factories under the keys fuzz inputs are likeliest to name.
private let fuzzRegistry: FactoryRegistry = {
    let registry = FactoryRegistry()
    for key in ["a", "b", "f", "factory", "logger", "store"] { registry.factory(key) { _ in key } }
    return registry
}()
