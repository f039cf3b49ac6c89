import Foundation
@testable import Wiring

/// Runs a ``ModelProgram`` on the real ``Container`` and on the ``ReferenceModel``, each
/// giving its ``Observation``. The real run goes through what apps call: resolves by key, by
/// type (`container.resolve(S3.self)`, the one-step lane included) and by `implements` type,
/// a factory's `r.resolve(S3.self)` and `r.resolve(key:)` (and `container.resolve(key:)`
/// through the container it captured), a kept context's `resolve(key:)`, `start()`, `reset`,
/// scopes, children and shutdown.
enum ModelRunner {
    // MARK: - The real container

    /// What the real factories count and record: builds by label, and the instances whose
    /// shutdown hooks ran, in order. Behind `Locked`, which ThreadSanitizer understands (it
    /// reports false races inside `Mutex` on Linux), since CI runs these under it. It holds
    /// every instance built, so that a `shared` one lives as long as the program, as the
    /// model's do.
    final class Journal: Sendable {
        /// How many times each factory built, by label: outside operations that build
        /// concurrently, and in them.
        let counts = Locked<(outside: [String: Int], inside: [String: Int])>(([:], [:]))
        let hooks = Locked<[ModelNode]>([])
        let held = Locked<[ModelNode]>([])
        /// The operation running, and whether it builds concurrently.
        let operation = Locked((index: -1, concurrent: false))
        /// The container in force, which factories that resolve through it capture.
        let container = Locked<Container?>(nil)
        func built(_ node: ModelNode) {
            let (index, concurrent) = operation.withLock { $0 }
            node.operation = index
            counts.withLock { counts in
                if concurrent { counts.inside[node.label, default: 0] += 1 } else { counts.outside[node.label, default: 0] += 1 }
            }
            held.withLock { $0.append(node) }
        }
        func takeHooks() -> [ModelNode] { hooks.withLock { hooks in defer { hooks = [] }; return hooks } }
    }

    /// The clock the container's `ttl`s are measured on, moved by the program.
    final class ModelClock: Sendable {
        private let start = ContinuousClock.now
        private let seconds = Locked(0)
        func advance(_ by: Int) { seconds.withLock { $0 += by } }
        var now: ContinuousClock.Instant { start + .seconds(seconds.withLock { $0 }) }
    }

    /// The factories of `program`'s services, which record what they build in `journal`.
    static func registry(_ journal: Journal, for program: ModelProgram) -> FactoryRegistry {
        let registry = FactoryRegistry()
        let node: @Sendable (FactoryContext) throws -> ModelNode = { r in
            let label = try label(of: r)
            var dependencies: [ModelNode] = []
            if r.args["references"] != nil { dependencies += try r.arg("references", as: [ModelNode].self) }
            if r.args["tagged"] != nil { dependencies += try r.arg("tagged", as: [ModelNode].self) }
            if r.args["code"] != nil {
                for key in try r.arg("code", as: [String].self) {
                    dependencies.append(try r.resolve(key: key) as! ModelNode)
                }
            }
            // Through the container, not the context: a resolution of its own.
            if r.args["container"] != nil {
                for key in try r.arg("container", as: [String].self) {
                    dependencies.append(try journal.container.withLock { $0 }!.resolve(key: key) as! ModelNode)
                }
            }
            if r.args["typed"] != nil {
                for key in try r.arg("typed", as: [String].self) {
                    dependencies.append(try resolveTyped(ModelNode.type(of: key), through: r))
                }
            }
            // As `@Injected var value: any ModelAlias0` of what the factory builds resolves,
            // with its error seen instead of stopping the program.
            if r.args["wrapped"] != nil {
                for alias in try r.arg("wrapped", as: [Int].self) {
                    dependencies.append(try resolveAlias(alias, from: nil, name: nil, in: nil))
                }
            }
            let node = ModelNode.make(key: ModelNode.key(ofLabel: label), label: label, dependencies: dependencies)
            node.failsShutdown = r.args["fails"] != nil
            journal.built(node)
            return node
        }
        // The same, awaiting what it asks for (but through its property wrappers, which cannot).
        let asyncNode: @Sendable (FactoryContext) async throws -> ModelNode = { r in
            let label = try label(of: r)
            var dependencies: [ModelNode] = []
            if r.args["references"] != nil { dependencies += try await r.resolve(arg: "references", as: [ModelNode].self) }
            if r.args["tagged"] != nil { dependencies += try await r.resolve(arg: "tagged", as: [ModelNode].self) }
            if r.args["code"] != nil {
                for key in try r.arg("code", as: [String].self) {
                    dependencies.append(try await r.resolve(key: key) as! ModelNode)
                }
            }
            if r.args["container"] != nil {
                for key in try r.arg("container", as: [String].self) {
                    let container = journal.container.withLock { $0 }!
                    dependencies.append(try await container.resolve(key: key) as! ModelNode)
                }
            }
            if r.args["typed"] != nil {
                for key in try r.arg("typed", as: [String].self) {
                    dependencies.append(try await resolveTypedAwaiting(ModelNode.type(of: key), through: r))
                }
            }
            if r.args["wrapped"] != nil {
                for alias in try r.arg("wrapped", as: [Int].self) {
                    dependencies.append(try resolveAlias(alias, from: nil, name: nil, in: nil))
                }
            }
            let node = ModelNode.make(key: ModelNode.key(ofLabel: label), label: label, dependencies: dependencies)
            node.failsShutdown = r.args["fails"] != nil
            journal.built(node)
            return node
        }
        let shutDown: @Sendable (ModelNode) throws -> Void = { node in
            journal.hooks.withLock { $0.append(node) }
            if node.failsShutdown { throw HookFailed() }
        }
        registry.factory("node", node).onShutdown(shutDown)
        registry.factory("keeper") { r in ModelKeeper(context: r) }
        registry.factory("async-node") { r in try await asyncNode(r) }.onShutdown(shutDown)
        // The same with a property hook, only for services that have one: the others stay plain.
        registry.factory("hooked-node", node).onShutdown(shutDown).resolvingProperties(runHook)
        registry.factory("hooked-async-node") { r in try await asyncNode(r) }.onShutdown(shutDown).resolvingProperties(runHook)
        // Autowired factories for each service class: built from one dependency of that class,
        // resolved by type, with its label (and whether its shutdown hook fails) from typed args,
        // synchronous and async, each in the form of fixed arity and through the parameter pack.
        @Sendable func autowiredNode(_ label: String, _ dependency: ModelNode, fails: Bool) -> ModelNode {
            let node = ModelNode.make(key: ModelNode.key(ofLabel: label), label: label, dependencies: [dependency])
            node.failsShutdown = fails
            journal.built(node)
            return node
        }
        func autowired<T: ModelService>(_ type: T.Type) {
            let make = { @Sendable (args: ModelAutowiredArgs, dependency: T) -> ModelNode in
                autowiredNode(args.label, dependency, fails: args.fails ?? false)
            }
            registry.autowire("auto-\(T.self)", make, args: ModelAutowiredArgs.self).onShutdown(shutDown)
            TestSupport.autowireThroughThePack(registry, "auto-packed-\(T.self)", make, args: ModelAutowiredArgs.self).onShutdown(shutDown)
            let makeAsync = { @concurrent @Sendable (args: ModelAutowiredArgs, dependency: T) async -> ModelNode in
                await Task.yield()
                return autowiredNode(args.label, dependency, fails: args.fails ?? false)
            }
            registry.autowire("auto-async-\(T.self)", makeAsync, args: ModelAutowiredArgs.self).onShutdown(shutDown)
            TestSupport.autowireThroughThePack(registry, "auto-async-packed-\(T.self)", makeAsync, args: ModelAutowiredArgs.self)
                .onShutdown(shutDown)
        }
        for type in ModelNode.types { autowired(type) }
        // The plain form takes nothing but the dependency: one factory per label it builds.
        func plainlyAutowired<T: ModelService>(_ type: T.Type, label: String, service: ModelProgram.Service) {
            let key = ModelProgram.plainlyAutowiredFactory(label, of: service), fails = service.failsShutdown
            let make = { @Sendable (dependency: T) -> ModelNode in autowiredNode(label, dependency, fails: fails) }
            let isolated = { @MainActor @Sendable (dependency: T) -> ModelNode in autowiredNode(label, dependency, fails: fails) }
            if service.isAsync, service.autowiredThroughThePack {
                TestSupport.autowireThroughThePack(registry, key, isolated: isolated).onShutdown(shutDown)
            } else if service.isAsync {
                registry.autowire(key, isolated: isolated).onShutdown(shutDown)
            } else if service.autowiredThroughThePack {
                TestSupport.autowireThroughThePack(registry, key, make).onShutdown(shutDown)
            } else {
                registry.autowire(key, make).onShutdown(shutDown)
            }
        }
        for (label, dependency, service) in program.plainlyAutowired {
            plainlyAutowired(ModelNode.type(of: dependency), label: label, service: service)
        }
        registry.factory("decorator") { r in
            let inner = try r.decorated(ModelNode.self)
            let node = ModelNode.make(key: ModelNode.key(ofLabel: inner.label), label: try r.arg("label"), dependencies: [inner])
            journal.built(node)
            return node
        }.onShutdown { (node: ModelNode) in journal.hooks.withLock { $0.append(node) } }
        return registry
    }

    /// What an autowired node's factory reads from its `args`.
    struct ModelAutowiredArgs: Decodable, Sendable {
        var label: String
        var fails: Bool?
    }

    /// A node's property hook: resolves by key the service its `hook` argument names.
    @Sendable static func runHook(_ context: FactoryContext, _ node: ModelNode) throws {
        node.hooked = try context.resolve(key: try context.arg("hook", as: String.self)) as? ModelNode
    }

    /// The label of what the factory of `context` builds: with the runtime argument it reads
    /// first, when its service takes one.
    static func label(of context: FactoryContext) throws(ResolutionError) -> String {
        let label: String = try context.arg("label")
        guard context.args["argument"] != nil else { return label }
        return "\(label)#\(try context.argument(0, as: Int.self))"
    }

    /// `r.resolve(T.self)` for the service class `type`.
    static func resolveTyped<T: ModelService>(_ type: T.Type, through context: FactoryContext) throws(ResolutionError) -> ModelNode {
        try context.resolve(type)
    }

    /// `try await r.resolve(T.self)` for the service class `type`.
    static func resolveTypedAwaiting<T: ModelService>(_ type: T.Type, through context: FactoryContext) async throws -> ModelNode {
        try await context.resolve(type)
    }

    /// `try await container.resolve(T.self)`, or the scope's, for the service class `type`.
    static func resolveTypedAwaiting<T: ModelService>(_ type: T.Type, container: Container, scope: ContainerScope?) async throws -> ModelNode {
        guard let scope else { return try await container.resolve(type) }
        return try await scope.resolve(type)
    }

    /// `container.resolve(T.self)`, or the scope's, for the service class `type`.
    static func resolveTyped<T: ModelService>(_ type: T.Type, container: Container, scope: ContainerScope?) throws(ResolutionError) -> ModelNode {
        guard let scope else { return try container.resolve(type) }
        return try scope.resolve(type)
    }

    /// The service implementing alias `alias`, resolved as its wrappers resolve it: joining the
    /// resolution building with `container`, or in `state`.
    static func resolveAlias(_ alias: Int, from container: Container?, name: String?, in state: ResolutionState?) throws(ResolutionError) -> ModelNode {
        func resolve<T>(_ type: T.Type) throws(ResolutionError) -> ModelNode {
            guard let state else {
                let (target, joining) = Container.wrapperTarget(for: container)
                return try target.resolve(type, name: name, joining: joining) as! ModelNode
            }
            return try container!.resolve(type, name: name, in: state) as! ModelNode
        }
        switch alias {
        case 0: return try resolve((any ModelAlias0).self)
        case 1: return try resolve((any ModelAlias1).self)
        case 2: return try resolve((any ModelAlias2).self)
        default: return try resolve((any ModelAlias3).self)
        }
    }

    /// A lazy wrapper's first read from `readers` threads at once, from `container`: its resolve
    /// starts once the other readers wait for it, so that every reader meets the first read.
    /// Blocks the calling thread until every reader is done: call it from a thread of its own.
    static func lazyRead(_ alias: Int, from container: Container, readers: Int) -> [Observation.Outcome] {
        let injection = Locked<LazyInjection<ModelNode>?>(nil)
        let lazy = LazyInjection<ModelNode>(name: nil, container: container) { container, name, state throws(ResolutionError) in
            while (injection.withLock { $0 }?.waitingReaders ?? 0) < readers - 1 { usleep(100) }
            return try resolveAlias(alias, from: container, name: name, in: state)
        }
        injection.withLock { $0 = lazy }
        let outcomes = Locked<[Int: Observation.Outcome]>([:])
        let done = DispatchGroup()
        for reader in 0..<readers {
            done.enter()
            Thread.detachNewThread {
                let outcome = Self.outcome { try lazy.read(from: container, name: nil).get() }
                outcomes.withLock { $0[reader] = outcome }
                done.leave()
            }
        }
        done.wait()
        injection.withLock { $0 = nil }
        return outcomes.withLock { outcomes in (0..<readers).map { outcomes[$0]! } }
    }

    static func outcome(_ body: () throws -> Any) -> Observation.Outcome {
        do {
            return observed(value: try body())
        } catch {
            return observed(error: error)
        }
    }

    /// ``outcome(_:)`` of an awaited resolve.
    static func awaitedOutcome(_ body: () async throws -> Any) async -> Observation.Outcome {
        do {
            return observed(value: try await body())
        } catch {
            return observed(error: error)
        }
    }

    private static func observed(value: Any) -> Observation.Outcome {
        if let node = value as? ModelNode { return .instance(node) }
        if let nodes = value as? [ModelNode] { return .list(nodes) }
        return .failure(kind: "not a node: \(type(of: value))", service: nil)
    }

    private static func observed(error: any Error) -> Observation.Outcome {
        switch error {
        case let error as ResolutionError:
            let service = error.path.last?.service.description
            switch error.kind {
            case .circularDependency: return .failure(kind: "circularDependency", service: service)
            case .awaitRequired: return .failure(kind: "awaitRequired", service: service)
            case .argument(let what): return .failure(kind: "argument \(what)", service: service)
            case .scopeRequired: return .failure(kind: "scopeRequired", service: service)
            case .shutDown: return .failure(kind: "shutDown", service: service)
            case .notSeeded: return .failure(kind: "notSeeded", service: service)
            // Where an unknown name is met (a factory's code, a wrapper, a resolve) is not the model's.
            case .unknownService: return .failure(kind: "unknownService", service: nil)
            // A type resolved without a name that services list only under names: the error
            // names the type.
            case .unknownName("", let type): return .failure(kind: "onlyByName \(type)", service: nil)
            case .unknownName: return .failure(kind: "unknownName", service: nil)
            default: return .failure(kind: "\(error.kind): \(error.message)", service: service)
            }
        default:
            return .failure(kind: "\(error)", service: nil)
        }
    }

    /// A synchronous resolve of `target` from `container` or `scope`, through the public API.
    static func resolve(_ target: ModelProgram.Target, container: Container, scope: ContainerScope?) -> Observation.Outcome {
        outcome {
            switch target {
            case .key(let key, let name):
                if let scope { return try scope.resolve(key: key, name: name) }
                return try container.resolve(key: key, name: name)
            case .alias(let alias), .namedAlias(let alias):
                let name: String? = target == .namedAlias(alias) ? "alt" : nil
                func typed<T>(_ type: T.Type) throws(ResolutionError) -> Any {
                    if let name, let scope { return try scope.resolve(type, name: name) }
                    if let name { return try container.resolve(type, name: name) }
                    guard let scope else { return try container.resolve(type) }
                    return try scope.resolve(type)
                }
                switch alias {
                case 0: return try typed((any ModelAlias0).self)
                case 1: return try typed((any ModelAlias1).self)
                case 2: return try typed((any ModelAlias2).self)
                default: return try typed((any ModelAlias3).self)
                }
            case .tagged(let tag):
                return try container.resolveAll(ModelNode.self, tagged: tag)
            case .added:
                guard let scope else { return try container.resolve(ModelAdded.self) }
                return try scope.resolve(ModelAdded.self)
            }
        }
    }

    /// What a failing shutdown hook of the model throws.
    struct HookFailed: Error {}
}

extension Container {
    /// Resolves the service declared for the type `type` names, whatever it is.
    func resolveAny(_ type: Any.Type) throws(ResolutionError) -> Any {
        try resolveInstance(type, name: nil, arguments: .none, state: nil)
    }
}
