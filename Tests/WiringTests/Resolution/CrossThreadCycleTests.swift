import Foundation
import Testing
@testable import Wiring

/// Two resolutions that each build one end of a cycle and then wait for the other's: the wait
/// that closes the cycle is an error (or, through property hooks, is handed the instance being
/// built), never a deadlock. The factories meet before resolving each other's service, so that
/// both builds are under way when the waits begin, on every run. The threads' cases run in
/// ContextProbe (Tests/ContextProbe/CrossThreadCycles.swift).
/// Two services whose factories resolve each other through the container.
final class RoundA: Sendable {}
final class RoundB: Sendable {}

@Suite("Cycles across threads and tasks")
struct CrossThreadCycleTests {
    /// Two threads, each resolving one end of a cycle through factories: both fail with the
    /// cycle. The resolution whose wait closes it says so; the other, woken when that build
    /// failed, builds the service again and meets the cycle on its own path. In a process of
    /// its own, since a deadlock would block two threads for good.
    @Test func aCycleAcrossTwoThreadsIsAnErrorOnBoth() throws {
        let output = try BinaryRunner.run("ContextProbe", ["cycle-across-threads"], timeout: .seconds(60))
        #expect(output.status == 0, "a deadlock, or a crash: \(output.stderr)")
        let lines = output.stdout.split(separator: "\n").map(String.init)
        try #require(lines.count == 3, "\(output.stdout)")
        #expect(lines[0].hasPrefix("parent: circular dependency") && lines[1].hasPrefix("child: circular dependency"), "\(lines)")
        #expect(lines.contains { $0.contains(": circular dependency across threads: ") && $0.hasSuffix(" is being built by a resolution that waits for this one") },
                "\(lines)")
        // Nothing is left half-built or waited for: a resolve afterwards meets the same cycle.
        #expect(lines[2].hasPrefix("afterwards: circular dependency: ProbeParent ("), "\(lines)")
        #expect(output.stderr.isEmpty, "\(output.stderr)")
    }

    /// The parent's property hook resolves the child while the other thread's child factory
    /// resolves the parent: the parent, whose factory has returned, is handed to the child, and
    /// both threads finish with the one pair.
    @Test func threadsMeetingInACycleOfPropertyHooksBothFinish() throws {
        let output = try BinaryRunner.run("ContextProbe", ["hook-cycle-across-threads"], timeout: .seconds(60))
        #expect(output.status == 0, "a deadlock, or a crash: \(output.stderr)")
        #expect(output.stdout == "parent: ok, linked\nchild: ok, linked\none parent: true\nafterwards: ok, linked\n")
        #expect(output.stderr.isEmpty, "\(output.stderr)")
    }

    /// A factory that resolves through the container instead of its context starts a
    /// resolution of its own, whose path cannot show the cycle: a wait there for a build below
    /// it on the same thread (or for one that waits for such a build) is the cycle's error, not
    /// a deadlock, with or without a second thread.
    @Test func aCycleThroughTheContainerIsAnErrorNotADeadlock() throws {
        let output = try BinaryRunner.run("ContextProbe", ["cycle-through-the-container"], timeout: .seconds(60))
        #expect(output.status == 0, "a deadlock, or a crash: \(output.stderr)")
        let lines = output.stdout.split(separator: "\n").map(String.init)
        try #require(lines.count == 5, "\(output.stdout)")
        // The whole cycle, from the build below that the resolve through the container met again.
        let throughTheContainer = " (through a resolve that a factory on it started through a container, not through its context)"
        func cycle(_ line: String, _ label: String, _ services: [String]) -> Bool {
            line.hasPrefix("\(label): circular dependency: \(services[0]) (") && line.hasSuffix(throughTheContainer)
                && services.dropFirst().allSatisfy { line.contains(") → \($0) (") }
                && line.components(separatedBy: " → ").count == services.count
        }
        #expect(cycle(lines[0], "self", ["ProbeSelf", "ProbeSelf"]), "\(lines[0])")
        #expect(cycle(lines[1], "unique", ["ProbeHub", "ProbeSpoke", "ProbeHub"]), "\(lines[1])")
        #expect(cycle(lines[2], "pair", ["ProbeParent", "ProbeChild", "ProbeParent"]), "\(lines[2])")
        #expect(lines[3].hasPrefix("parent thread: circular dependency") && lines[4].hasPrefix("child thread: circular dependency"), "\(lines)")
        #expect(output.stderr.isEmpty, "\(output.stderr)")
    }

    /// The same through async factories that await a resolve through the container: back to
    /// the service being built, directly or through the factory of what it resolves. Both are
    /// the cycle's error; a factory that starts a task of its own that waits for the build is
    /// not (the build does not wait for that task). After 30 seconds a wait still under way is
    /// cancelled, and the test fails instead of hanging.
    @Test func anAwaitedCycleThroughTheContainerIsAnError() async throws {
        final class Holder: @unchecked Sendable { var container: Container? }
        let holder = Holder()
        let started = Locked<Task<CycleParent, any Error>?>(nil)
        let registry = FactoryRegistry()
        registry.factory("parent") { _ in
            let parent = CycleParent()
            parent.child = try await holder.container!.resolve(CycleChild.self)
            return parent
        }
        registry.factory("child") { r in CycleChild(parent: try await r.resolve(CycleParent.self)) }
        registry.factory("sibling") { _ in
            _ = try await holder.container!.resolve(CycleSibling.self)
            return CycleSibling()
        }
        registry.factory("logged") { _ in
            // A task of its own: the build returns without waiting for it.
            started.withLock { $0 = Task { try await holder.container!.resolve(CycleParent.self, name: "logged") } }
            await Task.yield()
            return LoggedParent(inner: CycleParent()) as CycleParent
        }
        let container = try TypedFactoryFormsTests.container("""
            services:
              CycleParent: { factory: parent, scope: singleton, names: { logged: { factory: logged } } }
              CycleChild: { factory: child, scope: singleton }
              CycleSibling: { factory: sibling, scope: singleton }
            """, registry)
        holder.container = container
        let outcomes = await Self.finishing([
            { _ = try await container.resolve(CycleSibling.self) },
            { _ = try await container.resolve(CycleParent.self) },
        ])
        try #require(!outcomes.contains { $0 is CancellationError }, "a resolution was still waiting: a deadlock")
        let messages = outcomes.map { ($0 as? ResolutionError)?.message ?? "\(String(describing: $0))" }
        #expect(messages[0].hasPrefix("circular dependency: CycleSibling (") && messages[0].components(separatedBy: " → ").count == 2,
                "\(messages[0])")
        #expect(messages[1].hasPrefix("circular dependency: CycleParent (") && messages[1].contains(") → CycleChild (")
                && messages[1].components(separatedBy: " → ").count == 3, "\(messages[1])")
        #expect(messages.allSatisfy { $0.hasSuffix(" (through a resolve that a factory on it started through a container, not through its context)") })

        let logged = try await container.resolve(CycleParent.self, name: "logged")
        let task = try #require(started.withLock { $0 })
        #expect(try await task.value === logged)
    }

    /// A `unique` or `graph` service whose factory resolves it again through the container, not
    /// its context: each such resolve builds another one, whose factory does the same. The
    /// second build is the cycle's error, sync or awaited, not a stack (or, awaited, memory)
    /// that runs out: the synchronous one said the resolution was "too deep for this thread's
    /// stack (0 services)" and asked about named variants or arguments. The factory runs once.
    @Test(arguments: ["unique", "graph"])
    func aServiceBuiltAgainThroughTheContainerIsACycle(scope: String) async throws {
        final class Holder: @unchecked Sendable { var container: Container? }
        let holder = Holder()
        let runs = Locked(0)
        let registry = FactoryRegistry()
        registry.factory("again") { _ in
            runs.withLock { $0 += 1 }
            _ = try holder.container!.resolve(CycleSibling.self)
            return CycleSibling()
        }
        registry.factory("round-a") { _ in
            _ = try holder.container!.resolve(RoundB.self)
            return RoundA()
        }
        registry.factory("round-b") { _ in
            _ = try holder.container!.resolve(RoundA.self)
            return RoundB()
        }
        registry.factory("awaited") { _ in CycleChild(parent: try await holder.container!.resolve(CycleParent.self)) }
        registry.factory("parent") { _ in
            let parent = CycleParent()
            parent.child = try await holder.container!.resolve(CycleChild.self)
            return parent
        }
        let container = try TypedFactoryFormsTests.container("""
            services:
              CycleSibling: { factory: again, scope: \(scope) }
              RoundA: { factory: round-a, scope: \(scope) }
              RoundB: { factory: round-b, scope: \(scope) }
              CycleParent: { factory: parent, scope: \(scope) }
              CycleChild: { factory: awaited, scope: \(scope) }
            """, registry)
        holder.container = container
        let suffix = " (through a resolve that a factory on it started through a container, not through its context)"
        let again = #expect(throws: ResolutionError.self) { try container.resolve(CycleSibling.self) }
        #expect(again?.message.hasPrefix("circular dependency: CycleSibling (") == true && again?.message.hasSuffix(suffix) == true,
                "\(String(describing: again))")
        #expect(again?.message.components(separatedBy: " → ").count == 2)
        // Met as the second resolution began, not once the stack ran out (the one-step lane of a
        // plain `unique` service resolved by type included).
        #expect(runs.withLock { $0 } == 1)
        // Through two resolutions started so: the first build of the third meets the first's.
        let round = #expect(throws: ResolutionError.self) { try container.resolve(RoundA.self) }
        #expect(round?.message.hasPrefix("circular dependency: RoundA (") == true && round?.message.contains(") → RoundB (") == true
                && round?.message.hasSuffix(suffix) == true, "\(String(describing: round))")
        #expect(round?.message.components(separatedBy: " → ").count == 3)
        let outcomes = await Self.finishing([{ _ = try await container.resolve(CycleParent.self) }])
        let awaited = try #require(outcomes[0] as? ResolutionError, "\(String(describing: outcomes[0]))")
        #expect(awaited.message.hasPrefix("circular dependency: CycleParent (") && awaited.message.contains(") → CycleChild (")
                && awaited.message.hasSuffix(suffix), "\(awaited.message)")
        #expect(awaited.message.components(separatedBy: " → ").count == 3)
    }

    /// The same through async factories, in two tasks. A deadlock here ends: the tasks still
    /// waiting after 30 seconds are cancelled, and their waits throw.
    @Test func anAwaitedCycleAcrossTwoTasksIsAnErrorOnBoth() async throws {
        let meeting = Meeting()
        let registry = FactoryRegistry()
        registry.factory("parent") { r in
            await meeting.meet()
            let parent = CycleParent()
            parent.child = try await r.resolve(CycleChild.self)
            return parent
        }
        registry.factory("child") { r in
            await meeting.meet()
            return CycleChild(parent: try await r.resolve(CycleParent.self))
        }
        let container = try TypedFactoryFormsTests.container("""
            services:
              CycleParent: { factory: parent, scope: singleton }
              CycleChild: { factory: child, scope: singleton }
            """, registry)
        let outcomes = await Self.finishing([
            { _ = try await container.resolve(CycleParent.self) },
            { _ = try await container.resolve(CycleChild.self) },
        ])
        try #require(!outcomes.contains { $0 is CancellationError }, "a resolution was still waiting: a deadlock")
        let errors = outcomes.compactMap { $0 as? ResolutionError }
        #expect(errors.count == 2)
        #expect(errors.allSatisfy { if case .circularDependency = $0.kind { true } else { false } })
        #expect(errors.contains { $0.message.hasPrefix("circular dependency across threads: ") })
        let error = await #expect(throws: ResolutionError.self) { try await container.resolve(CycleParent.self) }
        #expect(error?.path.map(\.service) == ["CycleParent", "CycleChild", "CycleParent"])
    }
}

extension CrossThreadCycleTests {
    /// Runs each body in a task of its own, all at once; the error each threw, or `nil`. After
    /// 30 seconds the tasks still running are cancelled (a deadlock: their waits then throw
    /// `CancellationError`).
    static func finishing(_ bodies: [@Sendable () async throws -> Void]) async -> [(any Error)?] {
        await withTaskGroup(of: (Int, (any Error)?)?.self) { group in
            for (index, body) in bodies.enumerated() {
                group.addTask {
                    do {
                        try await body()
                        return (index, nil)
                    } catch {
                        return (index, error)
                    }
                }
            }
            group.addTask {
                // Cancelled once every body ended: then it ends at once, and nothing timed out.
                try? await Task.sleep(for: .seconds(30))
                return nil
            }
            var errors = [(any Error)?](repeating: nil, count: bodies.count)
            var ended = 0
            while let next = await group.next() {
                guard let (index, error) = next else {
                    group.cancelAll()
                    continue
                }
                errors[index] = error
                ended += 1
                if ended == bodies.count { group.cancelAll() }
            }
            return errors
        }
    }
}

/// Two tasks that meet: each `meet()` returns once both arrived, and every later one at once.
final class Meeting: Sendable {
    private let state = Locked<(arrived: Int, waiting: [CheckedContinuation<Void, Never>])>((0, []))

    func meet() async {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let woken = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                state.arrived += 1
                guard state.arrived >= 2 else {
                    state.waiting.append(waiter)
                    return []
                }
                defer { state.waiting = [] }
                return state.waiting + [waiter]
            }
            for waiter in woken { waiter.resume() }
        }
    }
}
