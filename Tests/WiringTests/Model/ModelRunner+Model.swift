/// Running a program on the ``ReferenceModel``: the same operations, recorded the same way.
extension ModelRunner {
    static func runModel(_ program: ModelProgram) -> Observation {
        var observation = Observation()
        let model = ReferenceModel(program)
        if model.isAmbiguous {
            observation.note("manifest refused: ambiguous")
            return observation
        }
        let concurrent = program.concurrentOperations
        observation.concurrent = concurrent
        var scopes: [ReferenceModel.Scope] = []
        var children: [ReferenceModel.World?] = []
        var keepers: [(world: ReferenceModel.World, scope: ReferenceModel.Scope?, resolution: ReferenceModel.Resolution)?] = []
        func place(_ place: ModelProgram.Place) -> (ReferenceModel.World, ReferenceModel.Scope?)? {
            switch place {
            case .root: return (model.root, nil)
            case .scope(let index): return (scopes[index].world, scopes[index])
            case .child(let index): return children[index].map { ($0, nil) }
            }
        }
        func resolve(_ target: ModelProgram.Target, in world: ReferenceModel.World, scope: ReferenceModel.Scope?,
                     awaiting: Bool = false) -> Observation.Outcome {
            // A scope of a container shut down resolves nothing, declared or not.
            if scope != nil, world.isShutDown { return .failure(kind: "shutDown", service: nil) }
            do throws(ReferenceModel.Failure) {
                switch target {
                case .key(let key, let name):
                    return .instance(try model.resolve(.init(key: key, name: name), in: world, scope: scope, awaiting: awaiting))
                case .alias(let alias), .namedAlias(let alias):
                    let named = target == .namedAlias(alias)
                    guard let registration = model.registration(implementing: alias, named: named) else {
                        // The type known under no name, asked for by name: the name is unknown.
                        let failure = named ? ReferenceModel.Failure(kind: model.registration(implementing: alias) == nil ? "unknownService" : "unknownName",
                                                                     service: nil) : model.unimplemented(alias)
                        return .failure(kind: failure.kind, service: failure.service)
                    }
                    return .instance(try model.resolve(registration, in: world, scope: scope))
                case .added:
                    return .instance(try model.resolve(ReferenceModel.added, in: world, scope: scope))
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
            model.operation = index
            model.concurrent = concurrent.contains(index)
            switch operation {
            case .resolve(let target, let where_):
                guard let (world, scope) = place(where_) else { observation.note("\(index): skipped"); continue }
                observation.record("\(index)", resolve(target, in: world, scope: scope))
            case .resolveWithArguments(let key, let arguments, let where_):
                guard let (world, scope) = place(where_) else { observation.note("\(index): skipped"); continue }
                do throws(ReferenceModel.Failure) {
                    observation.record("\(index)", .instance(try model.resolve(.init(key: key, name: nil), in: world, scope: scope,
                                                                             arguments: arguments)))
                } catch {
                    observation.record("\(index)", .failure(kind: error.kind, service: error.service))
                }
            case .resolveAwaited(let target, let where_):
                guard let (world, scope) = place(where_) else { observation.note("\(index): skipped"); continue }
                observation.record("\(index)", resolve(target, in: world, scope: scope, awaiting: true))
            case .resolveTyped(let key, let where_):
                guard let (world, scope) = place(where_) else { observation.note("\(index): skipped"); continue }
                observation.record("\(index)", resolve(.key(key, name: nil), in: world, scope: scope))
            case .concurrently(let resolves):
                for (offset, (target, where_)) in resolves.enumerated() {
                    guard let (world, scope) = place(where_) else { observation.note("\(index).\(offset): skipped"); continue }
                    observation.record("\(index).\(offset)", resolve(target, in: world, scope: scope), concurrent: true)
                }
            case .start:
                let (succeeded, hooks) = model.start()
                observation.note("\(index): \(succeeded ? "started" : "start failed")")
                if !succeeded { observation.recordHooks("\(index)", hooks, concurrent: concurrent) }
            case .advance(let seconds):
                model.now += seconds
            case .reset:
                model.reset(model.root)
            case .resetService(let key):
                model.reset(model.root, key: key)
            case .resetScope(let scope):
                model.reset(model.root, scope: scope)
            case .resetChild(let number):
                if let child = children[number] { model.reset(child) }
            case .makeScope:
                scopes.append(ReferenceModel.Scope(world: model.root))
            case .makeSeededScope:
                let seeds = model.program.services.filter(\.seeded).map { ($0.key, ModelNode(label: "seed:\($0.key)", dependencies: [])) }
                scopes.append(ReferenceModel.Scope(world: model.root, seeds: Dictionary(uniqueKeysWithValues: seeds)))
            case .endScope(let number):
                let hooks = model.end(scopes[number])
                observation.noteFailures("\(index)", ReferenceModel.failures(hooks))
                observation.recordHooks("\(index)", hooks, concurrent: concurrent)
            case .makeChild(let overrides, let shares, let parent, let adds):
                let parentWorld = parent.map { children[$0] } ?? model.root
                // Adding what the parent declares (its own addition included) is refused.
                if let parentWorld, !parentWorld.isShutDown, !model.refusesChild(of: parentWorld, overrides: Set(overrides), shares: Set(shares)),
                   adds == nil || model.adding(in: parentWorld) == nil {
                    let child = ReferenceModel.World(parent: parentWorld, overrides: Set(overrides), shares: Set(shares), adds: adds)
                    parentWorld.children.append(child)
                    children.append(child)
                } else {
                    children.append(nil)
                    observation.note("\(index): child refused")
                }
            case .shutDownChild(let number):
                guard let child = children[number] else { observation.note("\(index): skipped"); continue }
                child.parent?.children.removeAll { $0 === child }
                let (hooks, failures) = model.shutDown(child)
                observation.noteFailures("\(index)", failures)
                observation.recordHooks("\(index)", hooks, concurrent: concurrent)
            case .shutDown:
                let (hooks, failures) = model.shutDown(model.root)
                observation.noteFailures("\(index)", failures)
                observation.recordHooks("\(index)", hooks, concurrent: concurrent)
            case .refresh(let key, let value):
                guard let hooks = model.refresh(key, to: value) else { observation.note("\(index): skipped"); continue }
                observation.recordHooks("\(index)", hooks, concurrent: concurrent)
            case .reload:
                guard let (applied, hooks, failures) = model.reload() else {
                    observation.note("\(index): not reloaded")
                    observation.recordHooks("\(index)", [], concurrent: concurrent)
                    continue
                }
                observation.note("\(index): \(applied ? "reloaded" : "not reloaded")")
                observation.noteFailures("\(index)", failures)
                observation.recordHooks("\(index)", hooks, concurrent: concurrent)
            case .keepContext(let where_):
                guard let (world, scope) = place(where_) else {
                    keepers.append(nil)
                    observation.note("\(index): skipped")
                    continue
                }
                // A `unique` service with no dependency: kept unless the container is shut down.
                guard !world.isShutDown else {
                    keepers.append(nil)
                    observation.record("\(index)", .failure(kind: "shutDown", service: nil))
                    continue
                }
                keepers.append((world, scope, ReferenceModel.Resolution()))
                observation.record("\(index)", .list([]))
            case .resolveKept(let number, let key, let awaited, _):   // by key or by its class: the same service
                guard let keeper = keepers[number] else { observation.note("\(index): skipped"); continue }
                // As a scope's: a kept context of a container shut down says so, declared or not.
                guard !keeper.world.isShutDown else {
                    observation.record("\(index)", .failure(kind: "shutDown", service: nil))
                    continue
                }
                do throws(ReferenceModel.Failure) {
                    observation.record("\(index)", .instance(try model.resolve(.init(key: key, name: nil), in: keeper.world, scope: keeper.scope,
                                                                             awaiting: awaited, below: keeper.resolution)))
                } catch {
                    observation.record("\(index)", .failure(kind: error.kind, service: error.service))
                }
            case .lazyRead(let alias, let where_, let readers):
                // One resolve, of its own, whose outcome every reader gets.
                guard let (world, _) = place(where_) else { observation.note("\(index): skipped"); continue }
                // A wrapper of a container shut down reads nothing, declared or not.
                let outcome = world.isShutDown ? .failure(kind: "shutDown", service: nil) : resolve(.alias(alias), in: world, scope: nil)
                for reader in 0..<readers { observation.record("\(index).\(reader)", outcome) }
            }
        }
        model.operation = program.operations.count
        model.concurrent = false
        let (hooks, failures) = model.shutDown(model.root)
        observation.noteFailures("end", failures)
        observation.recordHooks("end", hooks, concurrent: concurrent)
        observation.recordCounts(model.counts, model.concurrentCounts, of: model.program)
        return observation
    }
}
