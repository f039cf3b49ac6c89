import Foundation
@testable import Wiring

/// Running a program on the real container, through the public API.
extension ModelRunner {
    static func runReal(_ program: ModelProgram) async -> Observation {
        var observation = Observation()
        let journal = Journal()
        let clock = ModelClock()
        let configuration = ModelConfiguration(keys: program.services.filter(\.readsConfig).map(\.key))
        let refreshes = RefreshCounter()
        let root: ModelRoot
        do {
            root = try ModelRoot(program, registry: registry(journal, for: program),
                                 options: .init(environment: [:], now: { clock.now }, configuration: configuration, observers: [refreshes]))
        } catch {
            observation.note("manifest refused: \("\(error)".contains("is implemented by both") ? "ambiguous" : "\(error)")")
            return observation
        }
        journal.container.withLock { $0 = root.container }
        // The factories hold the journal, and the container holds the factories: dropped with
        // the program, so that the container and what it keeps are released.
        defer { journal.container.withLock { $0 = nil } }
        let concurrent = program.concurrentOperations
        observation.concurrent = concurrent
        var scopes: [ContainerScope] = []
        var children: [Container?] = []
        var keepers: [ModelKeeper?] = []
        var started = false
        func place(_ place: ModelProgram.Place) -> (Container, ContainerScope?)? {
            switch place {
            case .root: return (root.container, nil)
            case .scope(let index): return (scopes[index].container, scopes[index])
            case .child(let index): return children[index].map { ($0, nil) }
            }
        }
        for (index, operation) in program.operations.enumerated() {
            journal.operation.withLock { $0 = (index, concurrent.contains(index)) }
            switch operation {
            case .resolve(let target, let where_):
                guard let (resolving, scope) = place(where_) else { observation.note("\(index): skipped"); continue }
                observation.record("\(index)", resolve(target, container: resolving, scope: scope))
            case .resolveWithArguments(let key, let arguments, let where_):
                guard let (resolving, scope) = place(where_) else { observation.note("\(index): skipped"); continue }
                let passed: [any Sendable] = arguments.map { argument in
                    switch argument {
                    case .number(let value): value
                    case .text(let value): value
                    }
                }
                observation.record("\(index)", outcome {
                    switch (passed.count, scope) {
                    case (0, nil): try resolving.resolve(key: key)
                    case (0, let scope?): try scope.resolve(key: key)
                    case (1, nil): try resolving.resolve(key: key, arguments: passed[0])
                    case (1, let scope?): try scope.resolve(key: key, arguments: passed[0])
                    case (_, nil): try resolving.resolve(key: key, arguments: passed[0], passed[1])
                    case (_, let scope?): try scope.resolve(key: key, arguments: passed[0], passed[1])
                    }
                })
            case .resolveAwaited(let target, let where_):
                guard let (resolving, scope) = place(where_) else { observation.note("\(index): skipped"); continue }
                guard case .key(let key, let name) = target else {
                    observation.record("\(index)", resolve(target, container: resolving, scope: scope))
                    continue
                }
                // Unnamed by type, named by key: both awaited.
                observation.record("\(index)", await awaitedOutcome { () async throws -> Any in
                    if name == nil { return try await resolveTypedAwaiting(ModelNode.type(of: key), container: resolving, scope: scope) }
                    if let scope { return try await scope.resolve(key: key, name: name) }
                    return try await resolving.resolve(key: key, name: name)
                })
            case .resolveTyped(let key, let where_):
                guard let (resolving, scope) = place(where_) else { observation.note("\(index): skipped"); continue }
                observation.record("\(index)", outcome { try resolveTyped(ModelNode.type(of: key), container: resolving, scope: scope) })
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
            case .start:
                do {
                    try await root.start()
                    started = true
                    observation.note("\(index): started")
                } catch {
                    observation.note("\(index): start failed")
                    observation.recordHooks("\(index)", journal.takeHooks(), concurrent: concurrent)
                }
            case .advance(let seconds):
                clock.advance(seconds)
            case .reset:
                root.container.reset()
            case .resetService(let key):
                root.container.reset(service: key)
            case .resetScope(let scope):
                root.container.reset(scope: Scope(scope.rawValue))
            case .resetChild(let number):
                children[number]?.reset()
            case .makeScope:
                scopes.append(root.makeScope())
            case .makeSeededScope:
                let scope = root.makeScope()
                for service in program.effective.services where service.seeded {
                    do {
                        try seed(ModelNode.type(of: service.key), in: scope)
                    } catch {
                        observation.note("\(index): \(error)")
                    }
                }
                scopes.append(scope)
            case .endScope(let number):
                do {
                    try await scopes[number].end()
                } catch {
                    note(error, "\(index)", &observation)
                }
                observation.recordHooks("\(index)", journal.takeHooks(), concurrent: concurrent)
            case .makeChild(let overrides, let shares, let parent, let adds):
                guard let parentContainer = parent.map({ children[$0] }) ?? root.container else {
                    children.append(nil)
                    observation.note("\(index): child refused")
                    continue
                }
                do {
                    children.append(try parentContainer.child { child in
                        for label in overrides {
                            let key = ModelNode.key(ofLabel: label)
                            let name = label.contains("[") ? String(label.dropFirst(key.count + 1).dropLast()) : nil
                            child.override(key: key, name: name) { _ in
                                let node = ModelNode.make(key: key, label: "override:\(label)", dependencies: [])
                                journal.built(node)
                                return node
                            }
                        }
                        for key in shares { child.share(key: key) }
                        if let adds {
                            child.add(ModelAdded.self) { r in
                                let node = ModelAdded(label: "added", dependencies: [try r.resolve(key: adds) as! ModelNode])
                                journal.built(node)
                                return node
                            }
                        }
                    })
                } catch {
                    children.append(nil)
                    observation.note("\(index): child refused")
                }
            case .shutDownChild(let number):
                guard let child = children[number] else { observation.note("\(index): skipped"); continue }
                await shutDown(child, "\(index)", journal, &observation, concurrent: concurrent)
            case .shutDown:
                do {
                    try await root.shutdown()
                } catch {
                    note(error, "\(index)", &observation)
                }
                observation.recordHooks("\(index)", journal.takeHooks(), concurrent: concurrent)
            case .refresh(let key, let value):
                guard started, !root.container.isShutDown else { observation.note("\(index): skipped"); continue }
                let before = refreshes.count
                await configuration.watched()
                configuration.set(key, to: value)
                while refreshes.count == before { try? await Task.sleep(for: .milliseconds(1)) }
                observation.recordHooks("\(index)", journal.takeHooks(), concurrent: concurrent)
            case .reload:
                let (applied, failure) = await root.reload()
                journal.container.withLock { $0 = root.container }
                observation.note("\(index): \(applied ? "reloaded" : "not reloaded")")
                if let failure { note(failure, "\(index)", &observation) }
                if applied { started = true }
                observation.recordHooks("\(index)", journal.takeHooks(), concurrent: concurrent)
            case .keepContext(let where_):
                guard let (resolving, scope) = place(where_) else {
                    keepers.append(nil)
                    observation.note("\(index): skipped")
                    continue
                }
                var keeper: ModelKeeper?
                // Kept: an empty list; else the resolve's failure.
                observation.record("\(index)", outcome { () throws -> Any in
                    keeper = try scope?.resolve(ModelKeeper.self) ?? resolving.resolve(ModelKeeper.self)
                    return [ModelNode]()
                })
                keepers.append(keeper)
            case .resolveKept(let number, let key, let awaited, let typed):
                guard let keeper = keepers[number] else { observation.note("\(index): skipped"); continue }
                switch (awaited, typed) {
                case (true, false):
                    observation.record("\(index)", await awaitedOutcome { try await keeper.context.resolve(key: key) })
                case (true, true):
                    observation.record("\(index)", await awaitedOutcome { try await resolveTypedAwaiting(ModelNode.type(of: key), through: keeper.context) })
                case (false, false):
                    observation.record("\(index)", outcome { try keeper.context.resolve(key: key) })
                case (false, true):
                    observation.record("\(index)", outcome { try resolveTyped(ModelNode.type(of: key), through: keeper.context) })
                }
            case .lazyRead(let alias, let where_, let readers):
                guard let (resolving, _) = place(where_) else { observation.note("\(index): skipped"); continue }
                let outcomes = await TestSupport.onThreadOfItsOwn { lazyRead(alias, from: resolving, readers: readers) }
                for (reader, outcome) in outcomes.enumerated() {
                    observation.record("\(index).\(reader)", outcome)
                }
            }
        }
        do {
            try await root.shutdown()
        } catch {
            note(error, "end", &observation)
        }
        observation.recordHooks("end", journal.takeHooks(), concurrent: concurrent)
        let counts = journal.counts.withLock { $0 }
        observation.recordCounts(counts.outside, counts.inside, of: program.effective)
        return observation
    }

    /// Notes what a shutdown or a scope's end threw: the registrations whose hooks failed.
    private static func note(_ error: any Error, _ label: String, _ observation: inout Observation) {
        guard let error = error as? ShutdownError else {
            observation.note("\(label): \(error)")
            return
        }
        observation.noteFailures(label, error.failures.map(\.service.description))
    }

    /// Seeds `scope` with an instance of the service class `type` (`seed:S3`).
    private static func seed<T: ModelService>(_ type: T.Type, in scope: ContainerScope) throws(ResolutionError) {
        let key = String(describing: type)
        try scope.seed(T(label: "seed:\(key)", dependencies: []), as: T.self)
    }

    private static func shutDown(_ container: Container, _ label: String, _ journal: Journal, _ observation: inout Observation,
                                 concurrent: Set<Int>) async {
        do {
            try await container.shutdown()
        } catch {
            note(error, label, &observation)
        }
        observation.recordHooks(label, journal.takeHooks(), concurrent: concurrent)
    }
}
