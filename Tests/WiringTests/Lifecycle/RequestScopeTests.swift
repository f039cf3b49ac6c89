import Foundation
import Logging
import Testing
@testable import Wiring

@Suite("Request scopes")
struct RequestScopeTests {
    /// A scope `withScope` ends after its body threw: the body's error is thrown, and a hook
    /// that fails on the way out is logged, not dropped.
    @Test func hooksFailingAfterTheBodyThrewAreLogged() async throws {
        struct BodyFailed: Error {}
        struct HookFailed: Error, CustomStringConvertible { var description: String { "the connection would not close" } }
        let registry = FactoryRegistry()
        registry.factory("connection") { _ in Connection() }.onShutdown { _ in throw HookFailed() }
        let records = LogRecords()
        let logger = Logging.Logger(label: "test") { _ in RecordingLogHandler(records: records) }
        let container = try Container(manifest: try TestSupport.temporaryFile("wiring: 1\nservices:\n  Connection: { factory: connection, scope: scoped }\n"),
                                      registry: registry, contexts: .none, options: .init(environment: [:], logger: logger))
        await #expect(throws: BodyFailed.self) {
            try await container.withScope { scope in
                _ = try await scope.resolve(Connection.self)
                throw BodyFailed()
            }
        }
        let logged = records.lines.filter { $0.hasPrefix("error: scope: ending the scope after an error:") }
        #expect(logged.count == 1)
        #expect(logged.first?.contains("the connection would not close") == true)
    }

    static let manifest = """
        services:
          UnitOfWork: { factory: unit-of-work, scope: scoped }
          Connection: { factory: connection, scope: scoped }
          Pool: { factory: pool, scope: singleton }
          Store: { factory: captive-store, scope: singleton }
        """

    static func registry(_ journal: Journal = Journal()) -> FactoryRegistry {
        let registry = FactoryRegistry()
        registry.factory("unit-of-work") { r in
            let unit = UnitOfWork(connection: try await r.resolve(Connection.self), pool: try await r.resolve(Pool.self))
            journal.record("build UnitOfWork")
            return unit
        }.onShutdown { _ in journal.record("close UnitOfWork") }
        registry.factory("connection") { _ in
            journal.record("build Connection")
            return Connection()
        }.onShutdown { _ in journal.record("close Connection") }
        registry.factory("pool") { _ in try await Pool.connect() }
        registry.factory("captive-store") { r in
            _ = try r.resolve(Connection.self)
            return Store()
        }
        return registry
    }

    @Test func oneInstancePerScopeSharedWithinIt() async throws {
        let container = try AsyncFixture.container(Self.manifest, registry: Self.registry())
        let (first, again, connection) = try await container.withScope { scope in
            (try await scope.resolve(UnitOfWork.self), try await scope.resolve(UnitOfWork.self), try scope.resolveSynchronously(Connection.self))
        }
        #expect(first === again)
        #expect(first.connection === connection)
        let other = try await container.withScope { scope in try await scope.resolve(UnitOfWork.self) }
        #expect(other !== first)
        #expect(other.connection !== first.connection)
        #expect(other.pool === first.pool)
    }

    /// `optional` in a scope: the scope's instance when the service is declared, else `nil`,
    /// awaited or not.
    @Test func anOptionalFromAScopeIsItsInstanceOrNil() async throws {
        final class NotDeclared: Sendable {}
        let container = try AsyncFixture.container(Self.manifest, registry: Self.registry())
        try await container.withScope { scope in
            let connection = try #require(try await scope.optional(Connection.self))
            #expect(connection === (try scope.resolveSynchronously(Connection.self)))
            #expect(try await scope.optional(NotDeclared.self) == nil)
            let now: (ContainerScope) throws -> Connection? = { try $0.optional(Connection.self) }
            #expect(try now(scope) === connection)
            let absentNow: (ContainerScope) throws -> NotDeclared? = { try $0.optional(NotDeclared.self) }
            #expect(try absentNow(scope) == nil)
        }
    }

    @Test func aScopedServiceFromTheContainerIsAnError() async throws {
        let container = try AsyncFixture.container(Self.manifest, registry: Self.registry())
        let error = await #expect(throws: ResolutionError.self) { try await container.resolve(UnitOfWork.self) }
        #expect(error?.message.hasPrefix("service UnitOfWork (") == true)
        #expect(error?.message.hasSuffix(
            ") is scoped: resolve it from a scope (container.makeScope() or container.withScope), not from the container") == true)
        #expect(throws: ResolutionError.self) { try container.resolveSynchronously(Connection.self) }
    }

    @Test func aSingletonCannotHoldAScopedInstance() async throws {
        let container = try AsyncFixture.container(Self.manifest, registry: Self.registry())
        let scope = container.makeScope()
        let error = #expect(throws: ResolutionError.self) { try scope.resolve(Store.self) }
        #expect(error?.message.hasPrefix("singleton service Store (") == true)
        #expect(error?.message.contains(") depends on scoped service Connection (") == true)
        #expect(error?.path.map(\.service) == ["Store", "Connection"])
        try await scope.end()
    }

    @Test func endingAScopeRunsItsHooksInReverseOnce() async throws {
        let journal = Journal()
        let container = try AsyncFixture.container(Self.manifest, registry: Self.registry(journal))
        let scope = container.makeScope()
        _ = try await scope.resolve(UnitOfWork.self)
        try await scope.end()
        try await scope.end()
        #expect(journal.all == ["build Connection", "build UnitOfWork", "close UnitOfWork", "close Connection"])
        let error = await #expect(throws: ResolutionError.self) { try await scope.resolve(UnitOfWork.self) }
        #expect(error?.message.hasPrefix("the scope has ended; service UnitOfWork (") == true)
        // The container's instances are not the scope's: shutting it down closes none of them.
        try await container.shutdown()
        #expect(journal.count("close Connection") == 1)
    }

    @Test func concurrentScopesEachHaveTheirOwnInstances() async throws {
        let journal = Journal()
        let container = try AsyncFixture.container(Self.manifest, registry: Self.registry(journal))
        // The units themselves are kept, so that no two can share an address.
        let units = try await withThrowingTaskGroup(of: UnitOfWork.self) { group in
            for _ in 0..<100 {
                group.addTask {
                    try await container.withScope { scope in
                        async let a = scope.resolve(UnitOfWork.self)
                        async let b = scope.resolve(UnitOfWork.self)
                        let (one, two) = try await (a, b)
                        #expect(one === two)
                        return one
                    }
                }
            }
            return try await group.reduce(into: [UnitOfWork]()) { $0.append($1) }
        }
        #expect(Set(units.map { ObjectIdentifier($0) }).count == 100)
        #expect(Set(units.map { ObjectIdentifier($0.pool) }).count == 1)
        #expect(journal.count("build UnitOfWork") == 100)
        #expect(journal.count("close UnitOfWork") == 100)
        #expect(journal.count("close Connection") == 100)
    }

    /// The synchronous dry run ends its scope as the awaited one does: the hooks of the scoped
    /// instances it built run, a failing one is reported; when one is async, none can run, and
    /// the dry run says so instead of dropping them unsaid.
    @Test(arguments: [false, true])
    func theSynchronousDryRunEndsItsScope(asyncHook: Bool) throws {
        let journal = Journal()
        let registry = FactoryRegistry()
        registry.factory("connection") { _ in Connection() }.onShutdown { _ in journal.record("close Connection") }
        let session = registry.factory("session") { _ in Session() }
        if asyncHook {
            session.onShutdown { (_: Session) async in journal.record("close Session") }
        } else {
            session.onShutdown { (_: Session) throws in throw StoreUnavailable() }
        }
        let path = try TestSupport.temporaryFile(
            "wiring: 1\nservices:\n  Connection: { factory: connection, scope: scoped }\n  Session: { factory: session, scope: scoped }\n")
        let container = try Container(manifest: path, registry: registry, contexts: .none, options: .init(environment: [:]))
        let diagnostics = container.instantiateAll()
        if asyncHook {
            #expect(journal.all.isEmpty)
            #expect(diagnostics.map(\.severity) == [.info])
            #expect(diagnostics.first?.message == "the dry run's scope ended without running its shutdown hooks, "
                    + "since some are async (of Connection, Session): a synchronous dry run cannot await them")
        } else {
            #expect(journal.all == ["close Connection"])
            #expect(diagnostics.map(\.severity) == [.error])
            #expect(diagnostics.first?.message.contains("connection refused") == true, "\(diagnostics)")
        }
    }

    @Test func aSynchronousHookRunsInPlaceAnAsyncOneInItsOwnTaskAndBothFailuresAreCollected() async throws {
        // Which task each hook ran in, by the task's hash.
        let hookTasks = Locked<[String: Int?]>([:])
        let registry = FactoryRegistry()
        registry.factory("unit-of-work") { r in
            UnitOfWork(connection: try await r.resolve(Connection.self), pool: try await r.resolve(Pool.self))
        }.onShutdown { _ in
            hookTasks.withLock { $0["UnitOfWork"] = withUnsafeCurrentTask { $0?.hashValue } }
            throw StoreUnavailable()
        }
        registry.factory("connection") { _ in Connection() }.onShutdown { _ in
            await Task.yield()
            hookTasks.withLock { $0["Connection"] = withUnsafeCurrentTask { $0?.hashValue } }
            throw StoreUnavailable()
        }
        registry.factory("pool") { _ in try await Pool.connect() }
        registry.factory("captive-store") { _ in Store() }
        let container = try AsyncFixture.container(Self.manifest, registry: registry)
        let scope = container.makeScope()
        _ = try await scope.resolve(UnitOfWork.self)
        let ending = withUnsafeCurrentTask { $0?.hashValue }
        let error = await #expect(throws: ShutdownError.self) { try await scope.end() }
        #expect(error?.failures.map(\.service) == ["UnitOfWork", "Connection"])
        let tasks = hookTasks.withLock { $0 }
        #expect(tasks["UnitOfWork"] == ending)
        #expect(tasks["Connection"] != nil && tasks["Connection"] != ending)
    }

    @Test func anAsyncFactoryReadsBuiltSynchronousAndUnbuiltAsyncReferencesOnceEach() async throws {
        let manifest = """
            services:
              UnitOfWork:
                factory: unit
                scope: scoped
                args: { connection: !service Connection, pool: !service Pool, again: !service Connection }
              Connection: { factory: connection, scope: unique }
              Pool: { factory: pool, scope: singleton }
            """
        let journal = Journal()
        let registry = FactoryRegistry()
        registry.factory("unit") { r in
            let unit = UnitOfWork(connection: try await r.resolve(arg: "connection"), pool: try await r.resolve(arg: "pool"))
            // A `unique` service read with the wrong type is built once, and the error names it.
            do {
                _ = try await r.resolve(arg: "again", as: Pool.self)
            } catch let error as ResolutionError {
                journal.record(error.message.contains("which produced Connection, not a Pool") ? "mismatch named" : error.message)
            }
            return unit
        }
        registry.factory("connection") { _ in
            journal.record("build Connection")
            return Connection()
        }
        registry.factory("pool") { _ in
            journal.record("build Pool")
            return try await Pool.connect()
        }
        let container = try AsyncFixture.container(manifest, registry: registry)
        let (first, second) = try await container.withScope { scope in
            (try await scope.resolve(UnitOfWork.self), try await container.withScope { try await $0.resolve(UnitOfWork.self) })
        }
        #expect(first.pool === second.pool)
        #expect(first.connection !== second.connection)
        #expect(journal.all == ["build Connection", "build Pool", "build Connection", "mismatch named",
                                "build Connection", "build Connection", "mismatch named"])
    }

    @Test func aFailedSynchronousResolveLeavesTheScopedSlotFree() async throws {
        let registry = Self.registry()
        registry.factory("cycle-a") { r in try r.resolve(Token.self) as Any }
        registry.factory("cycle-b") { r in try r.resolve(Session.self) as Any }
        let container = try AsyncFixture.container(Self.manifest + """

              Session: { factory: cycle-a, scope: scoped }
              Token: { factory: cycle-b, scope: scoped }
            """, registry: registry)
        let scope = container.makeScope()
        // UnitOfWork's factory is async: a synchronous resolve says so, and claims nothing.
        let early = #expect(throws: ResolutionError.self) { try scope.resolveSynchronously(UnitOfWork.self) }
        #expect(early?.message.contains("is async (factory 'unit-of-work') and not built yet") == true)
        let unit = try await scope.resolve(UnitOfWork.self)
        #expect(try scope.resolveSynchronously(UnitOfWork.self) === unit)
        // A cycle between scoped services is reported each time, and leaves their slots free.
        for _ in 0..<2 {
            let cycle = #expect(throws: ResolutionError.self) { try scope.resolveSynchronously(Session.self) }
            #expect(cycle?.path.map(\.service) == ["Session", "Token", "Session"])
        }
        try await scope.end()
    }

    @Test func scopedDependenciesOfASynchronousFactoryAreKeptAndShutDownInReverse() async throws {
        let journal = Journal()
        let registry = Self.registry(journal)
        registry.factory("session") { r in
            _ = try r.resolve(Connection.self)
            journal.record("build Session")
            return Session()
        }.onShutdown { _ in journal.record("close Session") }
        registry.factory("token") { r in
            let session = try r.arg("session", as: Session.self)
            #expect(try r.resolve(Session.self) === session)
            journal.record("build Token")
            return Token()
        }.onShutdown { _ in journal.record("close Token") }
        let container = try AsyncFixture.container(Self.manifest + """

              Session: { factory: session, scope: scoped }
              Token: { factory: token, scope: scoped, args: { session: !service Session } }
            """, registry: registry)
        let scope = container.makeScope()
        let token = try scope.resolveSynchronously(Token.self)
        #expect(try scope.resolveSynchronously(Token.self) === token)
        let other = try await container.withScope { try $0.resolveSynchronously(Session.self) }
        #expect(other !== (try scope.resolveSynchronously(Session.self)))
        try await scope.end()
        #expect(journal.all == ["build Connection", "build Session", "build Token", "build Connection", "build Session",
                                "close Session", "close Connection", "close Token", "close Session", "close Connection"])

        // Threads resolving at once in one scope: one build of each, the others wait for it.
        let shared = container.makeScope()
        let tokens = Locked<[ObjectIdentifier]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            if let token = try? shared.resolveSynchronously(Token.self) { tokens.withLock { $0.append(ObjectIdentifier(token)) } }
        }
        #expect(tokens.withLock { $0.count } == 8)
        #expect(Set(tokens.withLock { $0 }).count == 1)
        #expect(journal.count("build Session") == 3)
        try await shared.end()
    }

    @Test func synchronousHooksThatFailAreAllRunInReverseAndAllReported() async throws {
        let journal = Journal()
        let registry = Self.registry(journal)
        registry.factory("unit-of-work", overriding: true) { r in
            UnitOfWork(connection: try await r.resolve(Connection.self), pool: try await r.resolve(Pool.self))
        }.onShutdown { _ in
            journal.record("close UnitOfWork")
            throw StoreUnavailable()
        }
        registry.factory("connection", overriding: true) { _ in Connection() }.onShutdown { _ in
            journal.record("close Connection")
            throw StoreUnavailable()
        }
        let container = try AsyncFixture.container(Self.manifest, registry: registry)
        let scope = container.makeScope()
        _ = try await scope.resolve(UnitOfWork.self)
        let error = await #expect(throws: ShutdownError.self) { try await scope.end() }
        #expect(error?.failures.map(\.service) == ["UnitOfWork", "Connection"])
        #expect(error?.failures.allSatisfy { $0.error is StoreUnavailable } == true)
        #expect(journal.all == ["close UnitOfWork", "close Connection"])
        try await scope.end()
        #expect(journal.all.count == 2)
    }

    @Test func theBodyOfWithScopeSeesItsErrorAndTheScopeStillEnds() async throws {
        let journal = Journal()
        let container = try AsyncFixture.container(Self.manifest, registry: Self.registry(journal))
        await #expect(throws: StoreUnavailable.self) {
            try await container.withScope { scope in
                _ = try scope.resolveSynchronously(Connection.self)
                throw StoreUnavailable()
            }
        }
        #expect(journal.all == ["build Connection", "close Connection"])
    }

    @Test func anInstanceWhoseBuildOutlastsItsScopeIsHandedOverButNotKept() async throws {
        let (building, started) = AsyncStream<Void>.makeStream()
        let (released, release) = AsyncStream<Void>.makeStream()
        let registry = Self.registry()
        registry.factory("unit-of-work", overriding: true) { r in
            let connection = try await r.resolve(Connection.self)
            started.yield()
            for await _ in released { break }
            return UnitOfWork(connection: connection, pool: try await r.resolve(Pool.self))
        }
        let container = try AsyncFixture.container(Self.manifest, registry: registry)
        let scope = container.makeScope()
        let build = Task { try await scope.resolve(UnitOfWork.self) }
        for await _ in building { break }
        try await scope.end()
        release.yield()
        // The resolve that was under way gets its instance; the ended scope keeps nothing.
        _ = try await build.value
        let error = await #expect(throws: ResolutionError.self) { try await scope.resolve(UnitOfWork.self) }
        #expect(error?.message.hasPrefix("the scope has ended; service UnitOfWork (") == true)
    }

    /// A scoped class instance without hooks, and a scoped value, are kept once per scope, and
    /// the scope lets go of them when it ends.
    @Test func aScopeKeepsItsInstancesUntilItEnds() async throws {
        struct Ticket: Sendable { let number: Int }
        let tickets = Locked(0)
        let registry = FactoryRegistry()
        registry.factory("connection") { _ in Connection() }
        registry.factory("ticket") { _ in Ticket(number: tickets.withLock { $0 += 1; return $0 }) }
        let container = try AsyncFixture.container("""
            services:
              Connection: { factory: connection, scope: scoped }
              Ticket: { factory: ticket, scope: scoped }
            """, registry: registry)
        let scope = container.makeScope()
        weak let connection = try scope.resolveSynchronously(Connection.self)
        #expect(connection != nil)
        #expect(connection === (try scope.resolveSynchronously(Connection.self)))
        #expect(try await scope.resolve(Connection.self) === connection)
        #expect(try scope.resolveSynchronously(Ticket.self).number == 1)
        #expect(try await scope.resolve(Ticket.self).number == 1)
        let other = container.makeScope()
        #expect(try other.resolveSynchronously(Connection.self) !== connection)
        #expect(try other.resolveSynchronously(Ticket.self).number == 2)
        try await scope.end()
        #expect(connection == nil)
        try await other.end()
    }

    /// A decorated scoped service has a hook per layer: the decorator's runs first, on the
    /// decorator's instance, then the factory's, and the services built after it end before
    /// it. With an async hook among them the scope's hooks await, in the same order.
    @Test(arguments: [false, true])
    func aDecoratedScopedServiceEndsLayerByLayerAfterWhatWasBuiltOnIt(asyncDecoratorHook: Bool) async throws {
        let journal = Journal()
        let registry = FactoryRegistry()
        registry.factory("connection") { _ in Connection() }.onShutdown { _ in journal.record("close Connection") }
        let decorator = registry.factory("traced") { r in
            _ = try r.decorated(Connection.self)
            return Connection()
        }
        if asyncDecoratorHook {
            decorator.onShutdown { (_: Connection) async in journal.record("close traced Connection") }
        } else {
            decorator.onShutdown { _ in journal.record("close traced Connection") }
        }
        registry.factory("unit-of-work") { r in UnitOfWork(connection: try r.resolve(Connection.self), pool: try r.resolve(Pool.self)) }
            .onShutdown { _ in journal.record("close UnitOfWork") }
        registry.factory("pool") { _ in Pool() }
        let container = try AsyncFixture.container("""
            services:
              Connection: { factory: connection, scope: scoped }
              TracedConnection: { factory: traced, decorates: Connection }
              UnitOfWork: { factory: unit-of-work, scope: scoped }
              Pool: { factory: pool, scope: singleton }
            """, registry: registry)
        let scope = container.makeScope()
        _ = try await scope.resolve(UnitOfWork.self)
        try await scope.end()
        #expect(journal.all == ["close UnitOfWork", "close traced Connection", "close Connection"])
    }

    /// A scope records each instance with hooks: many of them, dropped without ending the
    /// scope, are released one at a time, not one nested in the other's release.
    @Test func aScopeWithManyRecordedInstancesIsReleasedWhetherItEndsOrNot() async throws {
        let count = 100_000
        let closed = Journal()
        let registry = FactoryRegistry()
        registry.factory("part") { _ in Connection() }.onShutdown { _ in closed.record("close") }
        let manifest = "services:\n" + (0..<count).map { "  Part\($0): { factory: part, scope: scoped }" }.joined(separator: "\n")
        let container = try AsyncFixture.container(manifest, registry: registry)
        func filledScope() throws -> ContainerScope {
            let scope = container.makeScope()
            for index in 0..<count { _ = try scope.resolve(key: "Part\(index)") }
            return scope
        }
        _ = try filledScope()
        #expect(closed.all.isEmpty)
        try await filledScope().end()
        #expect(closed.count("close") == count)
    }
}

extension ContainerScope {
    /// The synchronous `resolve`, called from async code (where Swift picks the async one).
    func resolveSynchronously<T>(_ type: T.Type) throws(ResolutionError) -> T {
        try resolve(type)
    }
}
