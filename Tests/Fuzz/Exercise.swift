import Foundation
import Wiring
import WiringCommands

/// The fuzz harness: it reaches the loader's steps through the package's `package` API.
enum Exercise {
    /// Runs one in-memory manifest through everything a load does, and more: the YAML reader,
    /// the decoder, assembly, validation, each context applied, and `explain` and `graph` of the
    /// result. For the fuzzer, which must find no input that crashes, hangs or leaks.
    static func run(_ bytes: [UInt8]) {
        let file = "fuzz.yaml"
        let environment = ["HOME": "/root", "EMPTY": ""]
        let limits = YAMLLimits(maxFileSize: 1 << 20, maxDepth: 64, maxAliasExpansion: 100_000)
        let (readProblems, manifestFile, _) = ManifestLoader.readFile(bytes, path: file, limits: limits, values: ExternalValues(environment: environment))
        var assembler = ManifestAssembler()
        let manifest = assembler.assemble([manifestFile])
        var validator = ManifestValidator(manifest: manifest)
        validator.run()
        // Binding must cope with a manifest that fails validation.
        _ = manifest.bindingDiagnostics(registry: fuzzRegistry, values: ExternalValues(environment: environment))
        // Typed arguments checked as `validate --catalog` checks them.
        _ = manifest.argumentDiagnostics(schemas: fuzzRegistry.argumentSchemas, values: ExternalValues(environment: environment))
        let diagnostics = readProblems + assembler.diagnostics + validator.diagnostics
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
    registry.factory("typed", args: FuzzArguments.self) { _, args in FuzzInstance(name: args.name) }
    registry.factory("typed-async", args: FuzzArguments.self) { _, args in
        await Task.yield()
        return FuzzInstance(name: args.name)
    }
    // Autowired factories, whose parameter types are edges the reference checks walk: by key
    // and by type's name, with an optional (which may close a cycle through its own type),
    // async, with typed arguments, and through the parameter pack's form (which an app reaches
    // with seven parameters or more).
    let auto = { @Sendable (instance: FuzzInstance, other: FuzzAutowired?) in
        FuzzAutowired(instance: instance, text: other?.name)
    }
    registry.autowire("auto", auto)
    autowireThroughThePack(registry, "auto-packed", auto)
    registry.autowire(FuzzAutowired.init(instance:text:))
    registry.autowire("auto-async", FuzzAutowired.init(awaiting:))
    autowireThroughThePack(registry, "auto-async-packed", FuzzAutowired.init(awaiting:))
    registry.autowire("auto-typed", FuzzAutowired.init(arguments:instance:), args: FuzzArguments.self)
    return registry
}()

/// `registry.autowire(key, make)` through the parameter pack's form: `D` is a pack here, which
/// no form of fixed arity takes.
private func autowireThroughThePack<T, each D>(
    _ registry: FactoryRegistry, _ key: String, _ make: @escaping @Sendable (repeat each D) throws -> T
) {
    registry.autowire(key, make)
}

/// The same for an async function.
private func autowireThroughThePack<T, each D>(
    _ registry: FactoryRegistry, _ key: String, _ make: @escaping @concurrent @Sendable (repeat each D) async throws -> T
) {
    registry.autowire(key, make)
}

/// A service of autowired factories: each initializer's parameters are resolved by type.
private final class FuzzAutowired: Sendable {
    let name: String
    init(instance: FuzzInstance, text: String?) { name = instance.name + (text ?? "") }
    init(awaiting instance: FuzzInstance) async {
        await Task.yield()
        name = instance.name
    }
    init(arguments: FuzzArguments, instance: FuzzInstance) { name = arguments.name + instance.name }
}

/// Typed arguments with every shape a schema describes, a reference and a recursive node.
private struct FuzzArguments: Decodable, Sendable {
    enum Mode: String, Decodable, CaseIterable, Sendable { case fast, safe }
    struct Node: Decodable, Sendable {
        var name: String?
        var children: [Node]?
    }
    var name: String
    var size: Int8?
    var ratio: Double?
    var on: Bool?
    var mode: Mode?
    var timeout: Duration?
    var url: URL?
    var tags: [String]?
    var labels: [String: Int]?
    var tree: Node?
    @Reference var other: FuzzInstance
}

/// A class instance for fuzz factories to build, so that resolves hand over class references.
private final class FuzzInstance: Sendable {
    let name: String
    init(name: String) { self.name = name }
}
