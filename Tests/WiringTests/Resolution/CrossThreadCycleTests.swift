import Foundation
import Testing
@testable import Wiring

/// Two resolutions that each build one end of a cycle and then wait for the other's: the wait
/// that closes the cycle is an error (or, through property hooks, is handed the instance being
/// built), never a deadlock. The factories meet before resolving each other's service, so that
/// both builds are under way when the waits begin, on every run.
@Suite("Cycles across threads and tasks")
struct CrossThreadCycleTests {
    /// A singleton parent and child whose factories resolve each other, after `meeting`.
    func factoryCycle(_ meeting: Meeting) throws -> Container {
        let registry = FactoryRegistry()
        registry.factory("parent") { r in
            meeting.meet()
            let parent = CycleParent()
            parent.child = try r.resolve(CycleChild.self)
            return parent
        }
        registry.factory("child") { r in
            meeting.meet()
            return CycleChild(parent: try r.resolve(CycleParent.self))
        }
        return try Self.container(registry)
    }

    static func container(_ registry: FactoryRegistry) throws -> Container {
        try TypedFactoryFormsTests.container("""
            services:
              CycleParent: { factory: parent, scope: singleton }
              CycleChild: { factory: child, scope: singleton }
            """, registry)
    }

    @Test func aCycleAcrossTwoThreadsIsAnErrorOnBoth() throws {
        let meeting = Meeting()
        let container = try factoryCycle(meeting)
        let outcomes = Self.onThreads(Self.resolvingBothEnds(container))
        try #require(outcomes.allSatisfy { $0 != nil }, "a resolution is still waiting: a deadlock")
        let errors = outcomes.compactMap { outcome -> ResolutionError? in
            guard case .failure(let error as ResolutionError)? = outcome else { return nil }
            return error
        }
        #expect(errors.count == 2)
        #expect(errors.allSatisfy { if case .circularDependency = $0.kind { true } else { false } })
        // The resolution whose wait closes the cycle says so; the other, woken when that build
        // failed, builds the service again and meets the cycle on its own path.
        #expect(errors.contains { $0.message.hasPrefix("circular dependency across threads: ") && $0.message.hasSuffix("is being built by a resolution that waits for this one") })
        #expect(!meeting.timedOut)
        // Nothing is left half-built or waited for: a resolve afterwards meets the same cycle.
        let error = #expect(throws: ResolutionError.self) { try container.resolve(CycleParent.self) }
        #expect(error?.path.map(\.service) == ["CycleParent", "CycleChild", "CycleParent"])
    }

    /// The parent's property hook resolves the child while the other thread's child factory
    /// resolves the parent: the parent, whose factory has returned, is handed to the child, and
    /// both threads finish with the one pair.
    @Test func threadsMeetingInACycleOfPropertyHooksBothFinish() throws {
        let meeting = Meeting()
        let registry = FactoryRegistry()
        registry.factory("parent") { _ in CycleParent() }
            .resolvingProperties { (r, parent: CycleParent) in
                meeting.meet()
                parent.child = try r.resolve(CycleChild.self)
            }
        registry.factory("child") { r in
            meeting.meet()
            return CycleChild(parent: try r.resolve(CycleParent.self))
        }
        let container = try Self.container(registry)
        let outcomes = Self.onThreads(Self.resolvingBothEnds(container))
        try #require(outcomes.allSatisfy { $0 != nil }, "a resolution is still waiting: a deadlock")
        let parent = try #require(try outcomes[0]?.get() as? CycleParent)
        let child = try #require(try outcomes[1]?.get() as? CycleChild)
        #expect(parent.child === child)
        #expect(child.parent === parent)
        #expect(try container.resolve(CycleParent.self) === parent)
        #expect(!meeting.timedOut)
    }

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
        let container = try Self.container(registry)
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
    typealias Outcome = Result<any AnyObject & Sendable, any Error>

    /// One resolution of the parent and one of the child.
    static func resolvingBothEnds(_ container: Container) -> [@Sendable () -> Outcome] {
        [
            { Result { try container.resolve(CycleParent.self) } },
            { Result { try container.resolve(CycleChild.self) } },
        ]
    }

    /// Runs each body on a thread of its own, all at once; their results, or `nil` for one not
    /// returned within 30 seconds (a deadlock: its thread stays blocked, and the test fails).
    static func onThreads<R: Sendable>(_ bodies: [@Sendable () -> R]) -> [R?] {
        let results = Locked<[R?]>(Array(repeating: nil, count: bodies.count))
        let done = DispatchGroup()
        for (index, body) in bodies.enumerated() {
            done.enter()
            Thread.detachNewThread {
                let result = body()
                results.withLock { $0[index] = result }
                done.leave()
            }
        }
        _ = done.wait(timeout: .now() + 30)
        return results.withLock { $0 }
    }

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

/// Parties that meet: each `meet()` returns once `count` parties arrived (or after 10 seconds,
/// noted in `timedOut`), and every later one at once.
final class Meeting: Sendable {
    private let state = Locked<(arrived: Int, waiting: [CheckedContinuation<Void, Never>])>((0, []))
    private let condition = NSCondition()
    private let count: Int
    private let late = Locked(false)

    init(count: Int = 2) { self.count = count }

    var timedOut: Bool { late.withLock { $0 } }

    /// Blocks the calling thread until the meeting is complete.
    func meet() {
        let woken = arrive()
        for waiter in woken { waiter.resume() }
        condition.lock()
        defer { condition.unlock() }
        condition.broadcast()
        let deadline = Date(timeIntervalSinceNow: 10)
        while state.withLock({ $0.arrived }) < count {
            if !condition.wait(until: deadline) {
                late.withLock { $0 = true }
                return
            }
        }
    }

    /// Suspends until the meeting is complete.
    func meet() async {
        let woken = arrive()
        for waiter in woken { waiter.resume() }
        wakeThreads()
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                guard state.arrived < count else { return true }
                state.waiting.append(waiter)
                return false
            }
            if now { waiter.resume() }
        }
    }

    private func wakeThreads() {
        condition.lock()
        condition.broadcast()
        condition.unlock()
    }

    /// Counts one more party; the suspended ones to wake when that completes the meeting.
    private func arrive() -> [CheckedContinuation<Void, Never>] {
        state.withLock { state in
            state.arrived += 1
            guard state.arrived >= count else { return [] }
            defer { state.waiting = [] }
            return state.waiting
        }
    }
}
