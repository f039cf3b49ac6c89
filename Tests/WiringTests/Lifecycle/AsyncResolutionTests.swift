import Foundation
import Testing
@testable import Wiring

@Suite("Async resolution")
struct AsyncResolutionTests {
    static let manifest = """
        services:
          Pool: { factory: pool, scope: singleton }
          SQLStore: { factory: sql-store, scope: unique }
          EagerReport: { factory: report, scope: unique }
        """

    static func registry(_ counter: BuildCounter = BuildCounter(), delay: Duration = .zero) -> FactoryRegistry {
        let registry = FactoryRegistry()
        registry.factory("pool") { _ in
            counter.tick("pool")
            return try await Pool.connect(delay: delay)
        }
        registry.factory("sql-store") { r in SQLStore(pool: try await r.resolve(Pool.self)) }
        registry.factory("report") { r in
            _ = try r.resolve(Pool.self)
            return EagerReport()
        }
        return registry
    }

    @Test func anAsyncFactoryAndAnAsyncDependencyResolveWithAwait() async throws {
        let counter = BuildCounter()
        let container = try AsyncFixture.container(Self.manifest, registry: Self.registry(counter))
        let store = try await container.resolve(SQLStore.self)
        let again = try await container.resolve(SQLStore.self)
        #expect(store !== again)
        #expect(store.pool === again.pool)
        #expect(counter["pool"] == 1)
        let byKey = try await container.resolve(key: "SQLStore")
        #expect((byKey as? SQLStore)?.pool === store.pool)
        #expect(try await container.optional(UnitOfWork.self) == nil)
    }

    @Test func aSynchronousResolveOfAnUnbuiltAsyncServiceSaysHowToFixIt() async throws {
        let container = try AsyncFixture.container(Self.manifest, registry: Self.registry())
        let error = #expect(throws: ResolutionError.self) { try container.resolveSynchronously(Pool.self) }
        #expect(error?.message.hasPrefix("service Pool (") == true)
        #expect(error?.message.hasSuffix(
            "is async (factory 'pool') and not built yet: resolve it with await, or mark it `eager: true` and start the container") == true)
        guard case .awaitRequired("Pool") = error?.kind else {
            Issue.record("kind: \(String(describing: error?.kind))")
            return
        }
        // Once built, the kept instance resolves synchronously.
        let pool = try await container.resolve(Pool.self)
        #expect(try container.resolveSynchronously(Pool.self) === pool)
    }

    @Test func aSynchronousFactoryCannotAwaitAnAsyncDependency() async throws {
        let container = try AsyncFixture.container(Self.manifest, registry: Self.registry())
        let error = await #expect(throws: ResolutionError.self) { try await container.resolve(EagerReport.self) }
        #expect(error?.message.contains("; the synchronous factory of EagerReport cannot await it: make that factory async") == true)
        #expect(error?.path.map(\.service) == ["EagerReport", "Pool"])
    }

    @Test func twoHundredConcurrentFirstAwaitsBuildOnce() async throws {
        let counter = BuildCounter()
        let container = try AsyncFixture.container(Self.manifest, registry: Self.registry(counter, delay: .milliseconds(20)))
        let ids = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
            for _ in 0..<200 {
                group.addTask { ObjectIdentifier(try await container.resolve(Pool.self)) }
            }
            return try await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
        }
        #expect(ids.count == 1)
        #expect(counter["pool"] == 1)
    }

    @Test func aCancelledWaiterThrowsAndTheBuildGoesOnForTheOthers() async throws {
        let gate = Gate(), started = Gate(), counter = BuildCounter()
        let registry = FactoryRegistry()
        registry.factory("pool") { _ in
            counter.tick("pool")
            started.open()
            await gate.wait()
            return Pool()
        }
        let container = try AsyncFixture.container("services:\n  Pool: { factory: pool, scope: singleton }", registry: registry)
        let builder = Task { try await container.resolve(Pool.self) }
        await started.wait()
        let waiter = Task { try await container.resolve(Pool.self) }
        let other = Task { try await container.resolve(Pool.self) }
        try await Task.sleep(for: .milliseconds(20))
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
        gate.open()
        let built = try await builder.value
        #expect(try await other.value === built)
        #expect(counter["pool"] == 1)
    }

    @Test func aThrowingAsyncFactoryKeepsNothingAndIsRetried() async throws {
        let counter = BuildCounter()
        let registry = FactoryRegistry()
        registry.factory("pool") { _ -> Pool in
            counter.tick("pool")
            if counter["pool"] == 1 { throw StoreUnavailable() }
            return try await Pool.connect()
        }
        let container = try AsyncFixture.container("services:\n  Pool: { factory: pool, scope: singleton }", registry: registry)
        let error = await #expect(throws: ResolutionError.self) { try await container.resolve(Pool.self) }
        #expect(error?.message.hasPrefix("factory 'pool' of service Pool (") == true)
        let pool = try await container.resolve(Pool.self)
        #expect(try await container.resolve(Pool.self) === pool)
        #expect(counter["pool"] == 2)
    }

    @Test func aCycleThroughAsyncFactoriesIsReportedWithItsPath() async throws {
        let registry = FactoryRegistry()
        registry.factory("cycle-a") { r in
            _ = try await r.resolve(CycleB.self)
            return CycleA()
        }
        registry.factory("cycle-b") { r in
            _ = try await r.resolve(CycleA.self)
            return CycleB()
        }
        let container = try AsyncFixture.container("""
            services:
              CycleA: { factory: cycle-a, scope: singleton }
              CycleB: { factory: cycle-b, scope: unique }
            """, registry: registry)
        let error = await #expect(throws: ResolutionError.self) { try await container.resolve(CycleA.self) }
        #expect(error?.message.hasPrefix("circular dependency: CycleA (") == true)
        #expect(error?.message.contains(" → CycleB (") == true)
        #expect(error?.path.map(\.service) == ["CycleA", "CycleB", "CycleA"])
    }

    @Test func concurrentChildTasksOfOneFactoryShareTheResolution() async throws {
        let counter = BuildCounter()
        let registry = Self.registry(counter)
        registry.factory("request-context") { _ in counter.tick("request-context"); return RequestContext() }
        registry.factory("handler") { r in
            async let first = r.resolve(RequestContext.self)
            async let pool = r.resolve(Pool.self)
            let second = try resolveSynchronously(RequestContext.self, from: r)
            _ = try await pool
            return Handler(first: try await first, second: second)
        }
        let container = try AsyncFixture.container(Self.manifest + """

              Handler: { factory: handler, scope: unique }
              RequestContext: { factory: request-context, scope: graph }
            """, registry: registry)
        _ = try await container.resolve(Handler.self)
        #expect(counter["pool"] == 1)
        // Two branches may each build the graph instance; the resolution keeps the first.
        #expect(counter["request-context"] >= 1)
    }

    @Test func anAsyncFactoryThatKeepsItsContextKeepsItsResolutionAndItsContainer() async throws {
        // A top-level async resolution's first state is reused by the next one on the thread
        // once nothing holds it: a factory that keeps its context holds it.
        weak var released: Container?
        var later: AsyncLater?
        var betweenFirst: RequestContext?
        var byKey: AsyncLater?
        do {
            let registry = Self.registry()
            registry.factory("request-context") { _ in RequestContext() }
            registry.factory("later") { r in
                _ = try await r.resolve(Pool.self)
                return AsyncLater { try await r.resolve(RequestContext.self) }
            }
            registry.factory("other") { r in
                _ = try await r.resolve(Pool.self)
                return Session()
            }
            let container = try AsyncFixture.container(Self.manifest + """

                  AsyncLater: { factory: later, scope: unique }
                  Session: { factory: other, scope: unique }
                  RequestContext: { factory: request-context, scope: graph }
                """, registry: registry)
            released = container
            // By key, a resolution is kept as it is by type.
            byKey = try await container.resolve(key: "AsyncLater") as? AsyncLater
            later = try await container.resolve(AsyncLater.self)
            _ = try await container.resolve(Session.self)
            betweenFirst = try await container.resolve(RequestContext.self)
        }
        #expect(released != nil)
        let kept = try await #require(later).make()
        #expect(try await #require(later).make() === kept)   // the kept resolution's own graph instance
        #expect(kept !== betweenFirst)
        later = nil
        #expect(released != nil)
        #expect(try await #require(byKey).make() !== kept)
        byKey = nil
        #expect(released == nil)
    }

    @Test func aGraphInstanceIsSharedAcrossTheAwaitedAndSynchronousResolvesOfOneResolution() async throws {
        let counter = BuildCounter()
        let registry = Self.registry(counter)
        // Built by a synchronous resolve first (in a fork), then read with await and again synchronously.
        registry.factory("request-context") { _ in counter.tick("request-context"); return RequestContext() }
        registry.factory("handler") { r in
            let first = try resolveSynchronously(RequestContext.self, from: r)
            let second = try await r.resolve(RequestContext.self)
            #expect(try resolveSynchronously(RequestContext.self, from: r) === first)
            return Handler(first: first, second: second)
        }
        // Built by an async factory first, then read synchronously.
        registry.factory("async-context") { _ in
            counter.tick("async-context")
            await Task.yield()
            return Session()
        }
        registry.factory("session-handler") { r in
            let first: Session = try await r.resolve()
            #expect(try resolveSynchronously(Session.self, from: r) === first)
            #expect(try await r.resolve(Session.self) === first)
            return Token()
        }
        let container = try AsyncFixture.container(Self.manifest + """

              Handler: { factory: handler, scope: unique }
              RequestContext: { factory: request-context, scope: graph }
              Session: { factory: async-context, scope: graph }
              Token: { factory: session-handler, scope: unique }
            """, registry: registry)
        let handler = try await container.resolve(Handler.self)
        #expect(handler.first === handler.second)
        _ = try await container.resolve(Token.self)
        // Each resolution has its own.
        let other = try await container.resolve(Handler.self)
        #expect(other.first !== handler.first)
        _ = try await container.resolve(Token.self)
        #expect(counter["request-context"] == 2)
        #expect(counter["async-context"] == 2)
    }
}

/// Resolves later, through the context of the async factory that made it.
final class AsyncLater: Sendable {
    let make: @Sendable () async throws -> RequestContext
    init(_ make: @escaping @Sendable () async throws -> RequestContext) { self.make = make }
}

/// A factory's synchronous `resolve`, from an async factory (where Swift picks the async one).
func resolveSynchronously<T>(_ type: T.Type, from context: FactoryContext) throws(ResolutionError) -> T {
    try context.resolve(type)
}

extension Container {
    /// The synchronous `resolve`, called from an async test (where Swift picks the async one).
    func resolveSynchronously<T>(_ type: T.Type) throws(ResolutionError) -> T {
        try resolve(type)
    }
}
