/// The context `test` of a model program: changes to services in a `contexts:` block, labels
/// changed again by an overlay file (`services.test.yaml`, applied after the block), and a
/// service it adds. When `active`, the container is built with it (`.explicit("test")`); the
/// reference model runs the program's ``ModelProgram/effective`` services.
struct ModelContext {
    /// What the block changes of one service; what it leaves `nil` stays.
    struct Change {
        /// `scope:`.
        var scope: ModelProgram.Scope? = nil
        /// `args: { label: … }`, merged over the service's arguments.
        var label: String? = nil
        /// `args: !replace { label: … }`: the service's other arguments (references, runtime
        /// argument, failing hook) are gone.
        var replacesArgs = false
        /// `enabled: false`.
        var disabled = false
        /// `factory: async-node` or `node`.
        var isAsync: Bool? = nil
    }

    var active: Bool
    /// The block's changes, by service key, in the order written.
    var changes: [(key: String, change: Change)] = []
    /// The overlay's new labels, by service key.
    var overlayLabels: [(key: String, label: String)] = []
    /// The service under `add:`.
    var added: ModelProgram.Service? = nil

    /// The `contexts:` block of the manifest, its added service's label marked with the reload
    /// `generation` as the others are.
    func block(generation: Int) -> String {
        var text = "contexts:\n  test:\n    services:\n"
        if changes.isEmpty { text = "contexts:\n  test:\n    services: {}\n" }
        for (key, change) in changes {
            text += "      \(key):\n"
            if change.disabled { text += "        enabled: false\n" }
            if let scope = change.scope { text += "        scope: \(scope.rawValue)\n" }
            if let isAsync = change.isAsync { text += "        factory: \(isAsync ? "async-node" : "node")\n" }
            if let label = change.label { text += "        args: \(change.replacesArgs ? "!replace " : ""){ label: \"\(label)\" }\n" }
        }
        if let added { text += "    add:\n" + ModelProgram.declaration(of: added, generation: generation, indent: "      ") }
        return text
    }

    /// The overlay file beside the manifest, if it changes anything.
    var overlay: String? {
        guard !overlayLabels.isEmpty else { return nil }
        return "wiring: 1\nservices:\n" + overlayLabels.map { "  \($0.key):\n    args: { label: \"\($0.label)\" }\n" }.joined()
    }
}

extension ModelProgram {
    /// The services as the container declares them: the context's changes applied when it is
    /// active (the block's, then the overlay's; disabled services gone, the added one there).
    var effective: ModelProgram {
        var program = self
        program.context = nil
        guard let context, context.active else { return program }
        for (key, change) in context.changes {
            guard let index = program.services.firstIndex(where: { $0.key == key }) else { continue }
            var service = program.services[index]
            if let scope = change.scope { service.scope = scope }
            if let isAsync = change.isAsync { service.isAsync = isAsync }
            if let label = change.label { service.label = label }
            if change.replacesArgs {
                // Its variants wrote their references out; what they inherited is gone.
                service.variants = service.variants.map { variant in
                    var variant = variant
                    variant.dependencies = variant.dependencies ?? service.dependencies
                    return variant
                }
                service.dependencies = []
                service.takesArgument = false
                service.failsShutdown = false
            }
            program.services[index] = service
            if change.disabled { program.services.remove(at: index) }
        }
        for (key, label) in context.overlayLabels {
            guard let index = program.services.firstIndex(where: { $0.key == key }) else { continue }
            program.services[index].label = label
        }
        if let added = context.added { program.services.append(added) }
        return program
    }

    /// Every service key a program may name: its own and the one its context adds.
    var allKeys: [String] { services.map(\.key) + (context?.added.map { [$0.key] } ?? []) }
}
