import Foundation
@testable import Wiring

/// Runs a ``ModelProgram`` on the real ``Container`` and on the ``ReferenceModel``, each
/// giving its ``Observation``.
enum ModelRunner {
    // MARK: - The real container

    /// What the real factories count and record: builds by label, and the instances whose
    /// shutdown hooks ran, in order. Behind `Locked`, which ThreadSanitizer understands (it
    /// reports false races inside `Mutex` on Linux), since CI runs these under it.
    final class Journal: Sendable {
        let counts = Locked<[String: Int]>([:])
        let hooks = Locked<[ModelNode]>([])
        func built(_ label: String) { counts.withLock { $0[label, default: 0] += 1 } }
        func takeHooks() -> [ModelNode] { hooks.withLock { hooks in defer { hooks = [] }; return hooks } }
    }

    static func registry(_ journal: Journal) -> FactoryRegistry {
        let registry = FactoryRegistry()
        registry.factory("node") { r in
            let label: String = try r.arg("label")
            var dependencies: [ModelNode] = []
            if r.args["references"] != nil { dependencies += try r.arg("references", as: [ModelNode].self) }
            if r.args["tagged"] != nil { dependencies += try r.arg("tagged", as: [ModelNode].self) }
            if r.args["code"] != nil {
                for key in try r.arg("code", as: [String].self) {
                    dependencies.append(try r.resolve(key: key) as! ModelNode)
                }
            }
            // As `@Injected var value: any ModelAlias0` of what the factory builds resolves,
            // with its error seen instead of stopping the program.
            if r.args["wrapped"] != nil {
                for alias in try r.arg("wrapped", as: [Int].self) {
                    dependencies.append(try resolveAlias(alias, from: nil, name: nil, in: nil))
                }
            }
            journal.built(label)
            return ModelNode(label: label, dependencies: dependencies)
        }.onShutdown { (node: ModelNode) in journal.hooks.withLock { $0.append(node) } }
        return registry
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
            let value = try body()
            if let node = value as? ModelNode { return .instance(node) }
            if let nodes = value as? [ModelNode] { return .list(nodes) }
            return .failure(kind: "not a node: \(type(of: value))", service: nil)
        } catch let error as ResolutionError {
            let service = error.path.last.map { step in step.name.map { "\(step.service)[\($0)]" } ?? step.service }
            switch error.kind {
            case .circularDependency: return .failure(kind: "circularDependency", service: service)
            case .scopeRequired: return .failure(kind: "scopeRequired", service: service)
            case .shutDown: return .failure(kind: "shutDown", service: service)
            default: return .failure(kind: "\(error.kind): \(error.message)", service: service)
            }
        } catch {
            return .failure(kind: "\(error)", service: nil)
        }
    }

    /// A synchronous resolve of `target` from `container` or `scope`.
    static func resolve(_ target: ModelProgram.Target, container: Container, scope: ContainerScope?) -> Observation.Outcome {
        outcome {
            switch target {
            case .key(let key, let name):
                if let scope { return try scope.resolve(key: key, name: name) }
                return try container.resolve(key: key, name: name)
            case .alias(let alias):
                let type: Any.Type = [(any ModelAlias0).self, (any ModelAlias1).self, (any ModelAlias2).self, (any ModelAlias3).self][alias]
                return try scope.map { try $0.resolveAny(type) } ?? container.resolveAny(type)
            case .tagged(let tag):
                return try container.resolveAll(ModelNode.self, tagged: tag)
            }
        }
    }

    static func runReal(_ program: ModelProgram) async -> Observation {
        var observation = Observation()
        let journal = Journal()
        let container: Container
        do {
            container = try Container(manifest: try TestSupport.temporaryFile(program.yaml, name: "services.yaml"),
                                      registry: registry(journal), contexts: .none, options: .init(environment: [:]))
        } catch {
            observation.note("manifest refused: \(error)")
            return observation
        }
        let ordered = !program.operations.contains { if case .concurrently = $0 { true } else { false } }
        var scopes: [ContainerScope] = []
        var children: [Container?] = []
        func place(_ place: ModelProgram.Place) -> (Container, ContainerScope?)? {
            switch place {
            case .root: return (container, nil)
            case .scope(let index): return (container, scopes[index])
            case .child(let index): return children[index].map { ($0, nil) }
            }
        }
        for (index, operation) in program.operations.enumerated() {
            switch operation {
            case .resolve(let target, let where_):
                guard let (resolving, scope) = place(where_) else { observation.note("\(index): skipped"); continue }
                observation.record("\(index)", resolve(target, container: resolving, scope: scope))
            case .concurrently(let resolves):
                let places = resolves.map { place($0.1) }
                let outcomes = await withTaskGroup(of: (Int, Observation.Outcome?).self) { group in
                    for (offset, resolve) in resolves.enumerated() {
                        let at = places[offset]
                        // On threads of their own: a resolve may wait for another's build, which
                        // would hold a thread of the cooperative pool the tests beside it need.
                        group.addTask {
                            guard let (resolving, scope) = at else { return (offset, nil) }
                            return (offset, await TestSupport.onThreadOfItsOwn { Self.resolve(resolve.0, container: resolving, scope: scope) })
                        }
                    }
                    var outcomes = [Observation.Outcome?](repeating: nil, count: resolves.count)
                    for await (offset, outcome) in group { outcomes[offset] = outcome }
                    return outcomes
                }
                for (offset, outcome) in outcomes.enumerated() {
                    if let outcome { observation.record("\(index).\(offset)", outcome, concurrent: true) } else { observation.note("\(index).\(offset): skipped") }
                }
            case .reset:
                container.reset()
            case .resetService(let key):
                container.reset(service: key)
            case .makeScope:
                scopes.append(container.makeScope())
            case .endScope(let number):
                do {
                    try await scopes[number].end()
                } catch {
                    observation.note("\(index): \(error)")
                }
                observation.recordHooks("\(index)", journal.takeHooks(), ordered: ordered)
            case .makeChild(let overrides, let shares):
                do {
                    children.append(try container.child { child in
                        for key in overrides {
                            child.override(key: key) { _ in
                                journal.built("override:\(key)")
                                return ModelNode(label: "override:\(key)", dependencies: [])
                            }
                        }
                        for key in shares { child.share(key: key) }
                    })
                } catch {
                    children.append(nil)
                    observation.note("\(index): child refused")
                }
            case .shutDownChild(let number):
                guard let child = children[number] else { observation.note("\(index): skipped"); continue }
                await shutDown(child, "\(index)", journal, &observation, ordered: ordered)
            case .shutDown:
                await shutDown(container, "\(index)", journal, &observation, ordered: ordered)
            case .lazyRead(let alias, let where_, let readers):
                guard let (resolving, _) = place(where_) else { observation.note("\(index): skipped"); continue }
                let outcomes = await TestSupport.onThreadOfItsOwn { lazyRead(alias, from: resolving, readers: readers) }
                for (reader, outcome) in outcomes.enumerated() {
                    observation.record("\(index).\(reader)", outcome)
                }
            }
        }
        await shutDown(container, "end", journal, &observation, ordered: ordered)
        observation.recordCounts(journal.counts.withLock { $0 }, of: program)
        return observation
    }

    private static func shutDown(_ container: Container, _ label: String, _ journal: Journal, _ observation: inout Observation,
                                 ordered: Bool) async {
        do {
            try await container.shutdown()
        } catch {
            observation.note("\(label): \(error)")
        }
        observation.recordHooks(label, journal.takeHooks(), ordered: ordered)
    }

    // MARK: - The model

    static func runModel(_ program: ModelProgram) -> Observation {
        var observation = Observation()
        let model = ReferenceModel(program)
        let ordered = !program.operations.contains { if case .concurrently = $0 { true } else { false } }
        var scopes: [ReferenceModel.Scope] = []
        var children: [ReferenceModel.World?] = []
        func place(_ place: ModelProgram.Place) -> (ReferenceModel.World, ReferenceModel.Scope?)? {
            switch place {
            case .root: return (model.root, nil)
            case .scope(let index): return (model.root, scopes[index])
            case .child(let index): return children[index].map { ($0, nil) }
            }
        }
        func resolve(_ target: ModelProgram.Target, in world: ReferenceModel.World, scope: ReferenceModel.Scope?) -> Observation.Outcome {
            do throws(ReferenceModel.Failure) {
                switch target {
                case .key(let key, let name):
                    return .instance(try model.resolve(.init(key: key, name: name), in: world, scope: scope))
                case .alias(let alias):
                    guard let registration = model.registration(implementing: alias) else { return .failure(kind: "unknownService", service: nil) }
                    return .instance(try model.resolve(registration, in: world, scope: scope))
                case .tagged(let tag):
                    var nodes: [ModelNode] = []
                    for member in model.tagged(tag) { nodes.append(try model.resolve(member, in: world, scope: nil)) }
                    return .list(nodes)
                }
            } catch {
                return .failure(kind: error.kind, service: error.service)
            }
        }
        for (index, operation) in program.operations.enumerated() {
            switch operation {
            case .resolve(let target, let where_):
                guard let (world, scope) = place(where_) else { observation.note("\(index): skipped"); continue }
                observation.record("\(index)", resolve(target, in: world, scope: scope))
            case .concurrently(let resolves):
                for (offset, (target, where_)) in resolves.enumerated() {
                    guard let (world, scope) = place(where_) else { observation.note("\(index).\(offset): skipped"); continue }
                    observation.record("\(index).\(offset)", resolve(target, in: world, scope: scope), concurrent: true)
                }
            case .reset:
                model.reset(model.root)
            case .resetService(let key):
                model.reset(model.root, key: key)
            case .makeScope:
                scopes.append(ReferenceModel.Scope())
            case .endScope(let number):
                observation.recordHooks("\(index)", model.end(scopes[number]), ordered: ordered)
            case .makeChild(let overrides, let shares):
                if model.root.isShutDown || model.refusesChild(overrides: Set(overrides), shares: Set(shares)) {
                    children.append(nil)
                    observation.note("\(index): child refused")
                } else {
                    let child = ReferenceModel.World(parent: model.root, overrides: Set(overrides), shares: Set(shares))
                    model.root.children.append(child)
                    children.append(child)
                }
            case .shutDownChild(let number):
                guard let child = children[number] else { observation.note("\(index): skipped"); continue }
                model.root.children.removeAll { $0 === child }
                observation.recordHooks("\(index)", model.shutDown(child), ordered: ordered)
            case .shutDown:
                observation.recordHooks("\(index)", model.shutDown(model.root), ordered: ordered)
            case .lazyRead(let alias, let where_, let readers):
                // One resolve, of its own, whose outcome every reader gets.
                guard let (world, _) = place(where_) else { observation.note("\(index): skipped"); continue }
                let outcome = resolve(.alias(alias), in: world, scope: nil)
                for reader in 0..<readers { observation.record("\(index).\(reader)", outcome) }
            }
        }
        observation.recordHooks("end", model.shutDown(model.root), ordered: ordered)
        observation.recordCounts(model.counts, of: program)
        return observation
    }
}

extension Container {
    /// Resolves the service declared for the type `type` names, whatever it is.
    func resolveAny(_ type: Any.Type) throws(ResolutionError) -> Any {
        try resolveInstance(type, name: nil, arguments: .none, state: nil)
    }
}

extension ContainerScope {
    /// Resolves, in this scope, the service declared for the type `type` names.
    func resolveAny(_ type: Any.Type) throws(ResolutionError) -> Any {
        try checkOpen()
        let state = ResolutionState.acquire()
        state.scope = self
        defer { ResolutionState.recycle(state, container: container) }
        return try container.resolveInstance(type, name: nil, arguments: .none, state: state)
    }
}
