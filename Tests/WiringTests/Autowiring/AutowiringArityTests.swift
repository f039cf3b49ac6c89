import Testing
@testable import Wiring

/// Every number of autowired parameters, through each form of `autowire`: Swift picks a form
/// of fixed arity for a function of up to six parameters (synchronous, async or isolated) and
/// the parameter pack's form for more, and both must fill each kind of parameter alike.
@Suite("Autowiring, every number of parameters")
struct AutowiringArityTests {
    enum Form: String, CaseIterable, Sendable {
        case key, type, args, keyThroughThePack, typeThroughThePack, argsThroughThePack
        case asyncKey, asyncType, asyncArgs, asyncKeyThroughThePack, asyncTypeThroughThePack, asyncArgsThroughThePack
        case isolatedKey, isolatedType, isolatedKeyThroughThePack, isolatedTypeThroughThePack

        var readsArguments: Bool { [.args, .argsThroughThePack, .asyncArgs, .asyncArgsThroughThePack].contains(self) }
        var isTypeKeyed: Bool { rawValue.lowercased().hasSuffix("type") || rawValue.lowercased().hasSuffix("typethroughthepack") }
        var isAsync: Bool { rawValue.hasPrefix("async") }
        var isIsolated: Bool { rawValue.hasPrefix("isolated") }
        /// The type `form` builds, whose name a type-keyed registration takes.
        var builtType: String { isAsync ? "AsyncArityBuilt" : isIsolated ? "IsolatedArityBuilt" : "ArityBuilt" }
    }

    static let parts = ["a", "b", "c", "d", "nil", "f", "g"]
    static let dependencies = ["ArityA", "ArityProtocol", "ArityC?", "ArityD", "ArityE?", "ArityF", "ArityG"]

    static func container(arity: Int, form: Form) throws -> (Container, FactoryRegistry) {
        let registry = FactoryRegistry()
        registry.factory("a") { _ in ArityA() }
        registry.factory("b") { _ in ArityB() }
        registry.factory("c") { _ in ArityC() }
        registry.factory("d") { _ in ArityD() }
        registry.factory("f") { _ in ArityF() }
        registry.factory("g") { _ in ArityG() }
        ArityRegistration.register(registry, arity: arity, form: form)
        let built = form.isTypeKeyed ? "\(form.builtType): {}" : "built: { factory: built\(form.readsArguments ? ", args: { size: 3 }" : "") }"
        let manifest = try AutowiringFixture.temporaryManifest("""
            services:
              ArityA: { factory: a, scope: singleton }
              ArityB: { factory: b, implements: [ArityProtocol] }
              ArityC: { factory: c }
              ArityD: { factory: d }
              ArityF: { factory: f }
              ArityG: { factory: g }
              \(built)

            """)
        return (try Container(manifest: manifest, registry: registry, contexts: .none), registry)
    }

    /// What `form` registered, resolved: awaited for an async function, else synchronously.
    static func built(_ container: Container, form: Form) async throws -> any ArityBuilding {
        if form.isIsolated {
            if form.isTypeKeyed { return try await container.resolve(IsolatedArityBuilt.self) }
            return try #require(try await container.resolve(key: "built") as? IsolatedArityBuilt)
        }
        guard form.isAsync else { return try builtSynchronously(container, form: form) }
        if form.isTypeKeyed { return try await container.resolve(AsyncArityBuilt.self) }
        return try #require(try await container.resolve(key: "built") as? AsyncArityBuilt)
    }

    static func builtSynchronously(_ container: Container, form: Form) throws -> ArityBuilt {
        if form.isTypeKeyed { return try container.resolve(ArityBuilt.self) }
        return try #require(try container.resolve(key: "built") as? ArityBuilt)
    }

    @Test(arguments: 0...7, Form.allCases)
    func eachParameterIsFilledByItsKind(arity: Int, form: Form) async throws {
        let (container, registry) = try Self.container(arity: arity, form: form)
        let built = try await Self.built(container, form: form)
        let resolved = form.readsArguments ? max(arity - 1, 0) : arity
        let expected = (form.readsArguments && arity > 0 ? ["args:3"] : []) + Self.parts.prefix(resolved)
        #expect(built.parts == expected)
        if resolved > 0 {
            // The singleton the container keeps, not another instance.
            #expect(built.first === (try await container.resolve(ArityA.self)))
        }
        let key = form.isTypeKeyed ? form.builtType : "built"
        #expect(registry.autowiredDependencies[key]?.map(\.description) == Array(Self.dependencies.prefix(resolved)))
    }

    /// A parameter given a service of another type is a type mismatch in either lane, at the
    /// first build and at a later one (the pack's lane remembers a cast that succeeded).
    @Test(arguments: [Form.key, .keyThroughThePack, .asyncKey, .asyncKeyThroughThePack, .isolatedKey, .isolatedKeyThroughThePack])
    func aServiceOfAnotherTypeIsATypeMismatch(form: Form) async throws {
        let (container, _) = try Self.container(arity: 4, form: form)
        _ = try await Self.built(container, form: form)
        let protocols = try container.child {
            $0.override(key: "ArityB") { _ in ArityA() }
        }
        await #expect(throws: ResolutionError.self) { try await Self.built(protocols, form: form) }
        let classes = try container.child { $0.override(key: "ArityD") { _ in ArityA() } }
        await #expect(throws: ResolutionError.self) { try await Self.built(classes, form: form) }
    }
}
