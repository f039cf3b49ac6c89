import Foundation
import Testing
@testable import Wiring

/// The real container checked against the ``ReferenceModel`` on random programs: where they
/// disagree, one of them is wrong, and the smallest program that shows it is printed.
///
/// `swift test --filter ModelCheckTests` runs a fixed number from a fixed seed (what CI runs);
/// `Tests/Model/model.sh SECONDS [SEED]` runs as many as fit in the time from any seed
/// (`WIRING_MODEL_SECONDS`, `WIRING_MODEL_SEED`; `WIRING_MODEL_COUNT` stops it at a count).
@Suite("Reference model")
struct ModelCheckTests {
    /// What one program showed, where the two runs first differ.
    struct Disagreement: CustomStringConvertible {
        let program: ModelProgram
        let real: [String]
        let model: [String]
        var description: String {
            let first = zip(real, model).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(real.count, model.count)
            let shown = { (lines: [String]) in lines[min(first, lines.count)...].prefix(3).joined(separator: "\n    ") }
            return "\(program)first difference, line \(first):\n  real:\n    \(shown(real))\n  model:\n    \(shown(model))"
        }
    }

    /// How long one program may run on the real container before it counts as hung.
    static let timeLimit: Duration = .seconds(
        ProcessInfo.processInfo.environment["WIRING_MODEL_PROGRAM_SECONDS"].flatMap(Int.init) ?? 60)

    /// The model's lines for `program`, once the container agreed with them (a disagreement is
    /// an issue at the caller's line): the kept programs' tests expect what these lines say.
    static func agreedLines(_ program: ModelProgram, sourceLocation: Testing.SourceLocation = #_sourceLocation) async -> [String] {
        let disagreement = await check(program)
        #expect(disagreement == nil, "\(disagreement.map(String.init(describing:)) ?? "")", sourceLocation: sourceLocation)
        return ModelRunner.runModel(program).lines
    }

    /// The disagreement `program` shows, if any. A program that runs longer than ``timeLimit``
    /// disagrees as a hang (its run is left behind: a hung resolve cannot be cancelled).
    static func check(_ program: ModelProgram) async -> Disagreement? {
        // Unstructured, so that a run that hangs can be left behind: a task group would wait for it.
        let waiting = Locked<CheckedContinuation<[String]?, Never>?>(nil)
        let finish = { @Sendable (lines: [String]?) in waiting.withLock { $0.take() }?.resume(returning: lines) }
        let real = await withCheckedContinuation { (continuation: CheckedContinuation<[String]?, Never>) in
            waiting.withLock { $0 = continuation }
            let timer = Task {
                // Cancelled once the run returned: then it says nothing.
                guard (try? await Task.sleep(for: timeLimit)) != nil else { return }
                finish(nil)
            }
            Task {
                let lines = await ModelRunner.runReal(program).lines
                finish(lines)
                timer.cancel()
            }
        }
        guard let real else {
            return Disagreement(program: program, real: ["hung: still running after \(timeLimit)"], model: ModelRunner.runModel(program).lines)
        }
        let model = ModelRunner.runModel(program).lines
        return real == model ? nil : Disagreement(program: program, real: real, model: model)
    }

    /// The smallest program found that still disagrees: operations, then variants, tags,
    /// aliases and dependencies removed one at a time while the disagreement stays. A hang is
    /// not shrunk: each try could hang for the whole time limit.
    static func shrink(_ disagreement: Disagreement) async -> Disagreement {
        if disagreement.real.first?.hasPrefix("hung") == true { return disagreement }
        var smallest = disagreement
        var changed = true
        while changed {
            changed = false
            for candidate in smaller(smallest.program) {
                if let found = await check(candidate) {
                    smallest = found
                    changed = true
                    break
                }
            }
        }
        return smallest
    }

    /// Programs one step smaller than `program`.
    static func smaller(_ program: ModelProgram) -> [ModelProgram] {
        var candidates: [ModelProgram] = []
        for index in program.operations.indices.reversed() {
            var candidate = program
            candidate.operations.remove(at: index)
            // Places count the scopes and children made before them: keep the program valid.
            if isValid(candidate) { candidates.append(candidate) }
        }
        // Parts of operations: a child's overrides and shares, one of several concurrent
        // resolves, readers of a lazy read beyond two.
        for index in program.operations.indices {
            func with(_ operation: ModelProgram.Operation) {
                var candidate = program
                candidate.operations[index] = operation
                if isValid(candidate) { candidates.append(candidate) }
            }
            switch program.operations[index] {
            case .makeChild(let overrides, let shares, let parent, let adds):
                for offset in overrides.indices {
                    var fewer = overrides
                    fewer.remove(at: offset)
                    with(.makeChild(overrides: fewer, shares: shares, parent: parent, adds: adds))
                }
                for offset in shares.indices {
                    var fewer = shares
                    fewer.remove(at: offset)
                    with(.makeChild(overrides: overrides, shares: fewer, parent: parent, adds: adds))
                }
                if adds != nil { with(.makeChild(overrides: overrides, shares: shares, parent: parent)) }
            case .makeSeededScope:
                with(.makeScope)
            case .concurrently(let resolves):
                if resolves.count == 1 { with(.resolve(resolves[0].0, resolves[0].1)) }
                for offset in resolves.indices where resolves.count > 1 {
                    var fewer = resolves
                    fewer.remove(at: offset)
                    with(.concurrently(fewer))
                }
            case .lazyRead(let alias, let place, let readers) where readers > 2:
                with(.lazyRead(alias: alias, place, readers: 2))
            default:
                break
            }
        }
        for index in program.services.indices.reversed() {
            var candidate = program
            candidate.services.remove(at: index)
            if isValid(candidate) { candidates.append(candidate) }
        }
        for index in program.services.indices {
            let service = program.services[index]
            func with(_ change: (inout ModelProgram.Service) -> Void) {
                var candidate = program
                change(&candidate.services[index])
                if isValid(candidate) { candidates.append(candidate) }
            }
            for offset in service.dependencies.indices { with { $0.dependencies.remove(at: offset) } }
            if !service.variants.isEmpty { with { $0.variants = [] } }
            if !service.tags.isEmpty { with { $0.tags = [] } }
            if !service.aliases.isEmpty { with { $0.aliases = [] } }
            if service.scope != .unique { with { $0.scope = .unique; $0.ttl = nil; $0.eager = false } }
            if service.decorators > 0 { with { $0.decorators -= 1 } }
            if service.ttl != nil { with { $0.ttl = nil } }
            if service.eager { with { $0.eager = false } }
            if service.isAsync { with { $0.isAsync = false } }
            if service.takesArgument { with { $0.takesArgument = false } }
            if service.hook != nil { with { $0.hook = nil } }
            if service.failsShutdown { with { $0.failsShutdown = false } }
            if service.readsConfig { with { $0.readsConfig = false } }
            if !service.namedAliases.isEmpty { with { $0.namedAliases = [] } }
        }
        // The context: gone, inactive, or without one of its parts.
        if let context = program.context {
            func with(_ change: (inout ModelContext) -> Void) {
                var candidate = program
                change(&candidate.context!)
                if isValid(candidate) { candidates.append(candidate) }
            }
            var none = program
            none.context = nil
            if isValid(none) { candidates.append(none) }
            if context.active { with { $0.active = false } }
            for offset in context.changes.indices { with { $0.changes.remove(at: offset) } }
            for offset in context.overlayLabels.indices { with { $0.overlayLabels.remove(at: offset) } }
            if context.added != nil { with { $0.added = nil } }
        }
        return candidates
    }

    /// Whether every place, scope and child a program's operations name exists when it runs,
    /// and every variant, tag and alias it resolves is declared.
    static func isValid(_ program: ModelProgram) -> Bool {
        var scopes = 0, children = 0, keepers = 0
        var open = Set<Int>()
        func valid(_ target: ModelProgram.Target, _ place: ModelProgram.Place) -> Bool {
            switch place {
            case .root: break
            case .scope(let index): if index >= scopes { return false }
            case .child(let index): if index >= children { return false }
            }
            switch target {
            case .key(let key, let name):
                guard let service = program.service(key) else { return name == nil && program.allKeys.contains(key) }
                return name.map { name in service.variants.contains { $0.name == name } } ?? true
            case .alias(let alias): return program.services.contains { $0.aliases.contains(alias) }
            case .namedAlias(let alias): return program.services.contains { $0.namedAliases.contains(alias) }
            case .added: return true
            case .tagged(let tag): return program.services.contains { $0.tags.contains(tag) }
            }
        }
        if let context = program.context {
            if !(context.changes.map(\.key) + context.overlayLabels.map(\.key)).allSatisfy({ program.service($0) != nil }) { return false }
            for dependency in context.added?.dependencies ?? [] {
                if case .reference(let key, _) = dependency, program.service(key) == nil { return false }
            }
        }
        for service in program.services {
            if let hook = service.hook, program.service(hook) == nil { return false }
            for dependency in service.dependencies + service.variants.flatMap({ $0.dependencies ?? [] }) {
                switch dependency {
                case .reference(let key, let name):
                    guard let referenced = program.service(key) else { return false }
                    if let name, !referenced.variants.contains(where: { $0.name == name }) { return false }
                case .inCode(let key), .throughContainer(let key), .typed(let key):
                    if !program.allKeys.contains(key) { return false }
                case .autowired(let key):
                    if program.service(key) == nil { return false }
                case .wrapped(let alias):
                    if !program.services.contains(where: { $0.aliases.contains(alias) }) { return false }
                case .tagged:
                    break
                }
            }
        }
        for operation in program.operations {
            switch operation {
            case .resolve(let target, let place): if !valid(target, place) { return false }
            case .resolveTyped(let key, let place): if !valid(.key(key, name: nil), place) { return false }
            case .resolveAwaited(let target, let place): if !valid(target, place) { return false }
            case .resolveWithArguments(let key, _, let place): if !valid(.key(key, name: nil), place) { return false }
            case .resetChild(let index): if index >= children { return false }
            case .concurrently(let resolves): if !resolves.allSatisfy({ valid($0.0, $0.1) }) { return false }
            case .makeScope, .makeSeededScope:
                open.insert(scopes)
                scopes += 1
            case .endScope(let index):
                if index >= scopes { return false }
                open.remove(index)
            // A reload retires its container once its scopes ended: the program ends none after.
            case .reload: if !open.isEmpty { return false }
            case .shutDownChild(let index): if index >= children { return false }
            case .resetService(let key): if program.service(key) == nil { return false }
            case .makeChild(let overrides, let shares, let parent, let adds):
                if let parent, parent >= children { return false }
                children += 1
                if !(overrides.map(ModelNode.key(ofLabel:)) + shares).allSatisfy({ program.service($0) != nil }) { return false }
                if let adds, !program.allKeys.contains(adds) { return false }
            case .refresh(let key, _): if program.service(key)?.readsConfig != true { return false }
            case .lazyRead(let alias, let place, _): if !valid(.alias(alias), place) { return false }
            case .keepContext(let place):
                // Only its place: what it resolves (a `ModelKeeper`) every such program declares.
                if !valid(.added, place) { return false }
                keepers += 1
            case .resolveKept(let number, let key, _, _): if number >= keepers || program.service(key) == nil { return false }
            case .reset, .shutDown, .start, .advance, .resetScope: break
            }
        }
        return true
    }

    /// Runs programs from `seed` on, until `count` ran or `seconds` passed; the first
    /// disagreement, shrunk, fails the test.
    static func run(seed: UInt64, count: Int, seconds: Double?) async -> (ran: Int, disagreement: Disagreement?) {
        let deadline = seconds.map { Date().addingTimeInterval($0) }
        var generator = ModelGenerator(seed: seed)
        var ran = 0
        while ran < count, deadline.map({ Date() < $0 }) ?? true {
            let program = generator.program()
            ran += 1
            if let found = await check(program) { return (ran, await shrink(found)) }
            // Programs run synchronously for most of their length: yield between them, so that
            // the run (40 s under AddressSanitizer) does not hold one of the few threads of the
            // cooperative pool from the tests running beside it, whose timers then fire late.
            await Task.yield()
        }
        return (ran, nil)
    }

    @Test func theContainerAgreesWithTheModel() async throws {
        let environment = ProcessInfo.processInfo.environment
        let seed = environment["WIRING_MODEL_SEED"].flatMap(UInt64.init) ?? 1
        let seconds = environment["WIRING_MODEL_SECONDS"].flatMap(Double.init)
        // `WIRING_MODEL_COUNT` stops a timed run once that many agreed.
        let count = environment["WIRING_MODEL_COUNT"].flatMap(Int.init) ?? (seconds == nil ? 2_000 : Int.max)
        let start = Date()
        let (ran, disagreement) = await Self.run(seed: seed, count: count, seconds: seconds)
        print("model check: \(ran) programs from seed \(seed) in \(String(format: "%.1f", Date().timeIntervalSince(start))) s")
        if let disagreement { Issue.record("the container and the model disagree (seed \(seed)):\n\(disagreement)") }
    }

    // MARK: - What the model found, kept

    /// A scope of a container already shut down built instances (a singleton among them, kept
    /// by a container nothing would shut down again): its resolves now throw.
    @Test func aScopeOfAShutDownContainerResolvesNothing() async {
        let program = ModelProgram(services: [
            .init(key: "S0", scope: .unique, dependencies: [], aliases: [], tags: [], variants: [.init(name: "eu", scope: nil, dependencies: nil)]),
            .init(key: "S1", scope: .singleton, dependencies: [], aliases: [0], tags: [], variants: []),
        ], operations: [
            .makeScope, .shutDown,
            .resolve(.key("S0", name: "eu"), .scope(0)), .resolve(.key("S1", name: nil), .scope(0)), .resolve(.alias(0), .scope(0)),
        ])
        #expect(await Self.agreedLines(program).filter { $0.hasSuffix("error shutDown") }.count == 3)
    }

    /// A scoped service met again on its own path through a singleton: a circular dependency,
    /// not first a captive scope.
    @Test func aCycleThroughAKeptServiceIsReportedAsACycle() async {
        let program = ModelProgram(services: [
            .init(key: "S2", scope: .scoped, dependencies: [.reference("S3", name: nil)], aliases: [], tags: [], variants: []),
            .init(key: "S3", scope: .unique, dependencies: [.reference("S4", name: nil)], aliases: [], tags: [], variants: []),
            .init(key: "S4", scope: .singleton, dependencies: [.inCode("S2")], aliases: [], tags: [], variants: []),
        ], operations: [.makeScope, .resolve(.key("S2", name: nil), .scope(0))])
        #expect(await Self.agreedLines(program).first == "1: error circularDependency at S2")
    }

    /// A context kept past its resolution resolves nothing once its container is shut down:
    /// it built again a singleton the container no longer kept, whose shutdown hook never ran.
    @Test func aKeptContextResolvesNothingOnceItsContainerIsShutDown() async {
        let program = ModelProgram(services: [
            .init(key: "S4", scope: .singleton, dependencies: [], aliases: [], tags: [], variants: []),
        ], operations: [
            .keepContext(.root), .resolveKept(0, "S4", awaited: false), .shutDown,
            .resolveKept(0, "S4", awaited: false), .resolveKept(0, "S4", awaited: true),
        ])
        let lines = await Self.agreedLines(program)
        #expect(lines.contains("3: error shutDown") && lines.contains("4: error shutDown"), "\(lines)")
        #expect(lines.contains("built: S4×1"), "\(lines)")
    }

    /// An awaited resolve through a kept context adds the `graph` instances it builds to the
    /// kept resolution, as a synchronous one does: the next resolve through it gets them (it
    /// built another).
    @Test func anAwaitedResolveThroughAKeptContextAddsToItsResolution() async {
        let program = ModelProgram(services: [
            .init(key: "S0", scope: .unique, dependencies: [.reference("S1", name: nil)], aliases: [], tags: [], variants: []),
            .init(key: "S1", scope: .graph, dependencies: [], aliases: [], tags: [], variants: []),
        ], operations: [
            .keepContext(.root), .resolveKept(0, "S0", awaited: true), .resolveKept(0, "S1", awaited: false),
            .resolveKept(0, "S1", awaited: true),
        ])
        let lines = await Self.agreedLines(program)
        #expect(lines.contains("built: S0×1 S1×1"), "\(lines)")
    }

    /// Each form of autowired factory (the plain one, the one with `args:`, the async one with
    /// `args:`, the isolated one; each of fixed arity and through the parameter pack) resolves
    /// its parameter in its factory's resolution: a cycle back through a typed resolve is
    /// reported as one, not met in a resolution of its own (shrunk from a planted bug in the
    /// async form, which the model met only after 3,875 programs from seed 1).
    @Test(arguments: [(plainly: true, async: false, pack: false), (plainly: true, async: false, pack: true),
                      (plainly: false, async: false, pack: false), (plainly: false, async: false, pack: true),
                      (plainly: false, async: true, pack: false), (plainly: false, async: true, pack: true),
                      (plainly: true, async: true, pack: false), (plainly: true, async: true, pack: true)])
    func everyAutowiredFormResolvesItsParameterInItsResolution(form: (plainly: Bool, async: Bool, pack: Bool)) async {
        var autowired = ModelProgram.Service(key: "S3", scope: .unique, dependencies: [.autowired("S4")], aliases: [], tags: [], variants: [])
        autowired.autowiredPlainly = form.plainly
        autowired.isAsync = form.async
        autowired.autowiredThroughThePack = form.pack
        let program = ModelProgram(services: [
            autowired,
            .init(key: "S4", scope: .unique, dependencies: [.typed("S3")], aliases: [], tags: [], variants: []),
        ], operations: [.resolveAwaited(.key("S3", name: nil), .root), .resolve(.key("S3", name: nil), .root)])
        let lines = await Self.agreedLines(program)
        #expect(lines.contains("0: error circularDependency at S3"), "\(lines)")
        #expect(lines.contains("1: error \(form.async ? "awaitRequired" : "circularDependency") at S3"), "\(lines)")
    }

    /// An autowired factory's parameter is a reference only while that factory builds the
    /// service: a grandchild may override it and share a service that reaches the one its parent
    /// overrode (the parent's override takes no parameter). Seed 4242 of 2026-11-29 found the
    /// model refusing that child.
    @Test func anOverriddenAutowiredFactoryTakesItsParameterAlong() async {
        let program = ModelProgram(services: [
            .init(key: "S0", scope: .unique, dependencies: [.reference("S3", name: nil)], aliases: [], tags: [], variants: []),
            .init(key: "S3", scope: .unique, dependencies: [.autowired("S4")], aliases: [], tags: [], variants: []),
            .init(key: "S4", scope: .unique, dependencies: [], aliases: [], tags: [], variants: []),
        ], operations: [
            .makeChild(overrides: ["S3"], shares: []),
            .makeChild(overrides: ["S4"], shares: ["S0"], parent: 0),
            // Without the parent's override, the parameter reaches what the child overrides.
            .makeChild(overrides: ["S4"], shares: ["S0"]),
        ])
        #expect(await Self.agreedLines(program).filter { $0.hasSuffix("child refused") } == ["2: child refused"])
    }

    /// The other side of the same rule: a child may share a service its parent overrides,
    /// whose original autowired factory took what the child overrides (the parent's instance
    /// was built without it). The same run found the container refusing that child.
    @Test func aShareOfTheParentsOverrideIgnoresTheOriginalsParameter() async {
        let program = ModelProgram(services: [
            .init(key: "S0", scope: .unique, dependencies: [.autowired("S3")], aliases: [], tags: [], variants: []),
            .init(key: "S3", scope: .unique, dependencies: [], aliases: [], tags: [], variants: []),
        ], operations: [
            .makeChild(overrides: ["S0"], shares: []),
            .makeChild(overrides: ["S3"], shares: ["S0"], parent: 0),
            .makeChild(overrides: ["S3"], shares: ["S0"]),
        ])
        #expect(await Self.agreedLines(program).filter { $0.hasSuffix("child refused") } == ["2: child refused"])
    }

    /// What eager services build is theirs alone, a context's added service included: a start
    /// builds them concurrently, and an outcome that depended on which finished first (an async
    /// service one of them reaches synchronously, built already or not) could not be predicted.
    /// The long run of 2026-11-29 met a program where the added service joined two of them.
    @Test func eagerServicesNeverShareWhatTheyBuild() {
        var generator = ModelGenerator(seed: 20_261_129)
        for _ in 0..<3_000 {
            let program = generator.program().effective
            var claimed = Set<String>()
            for service in program.services where service.eager {
                let reached = ModelGenerator.reach(of: service.key, in: program.services)
                #expect(reached.isDisjoint(with: claimed), "\(program)")
                claimed.formUnion(reached)
            }
        }
    }
}

