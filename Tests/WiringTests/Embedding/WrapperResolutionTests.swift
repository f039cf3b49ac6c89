import Foundation
import Testing
@testable import Wiring

/// Services of the tests of wrappers that join a resolution: a `graph` service reached as
/// itself, through a protocol it implements, and as a named variant.
protocol Posting: AnyObject {}
final class Batch: Posting, @unchecked Sendable {}
final class Ledger: @unchecked Sendable {
    @Injected var work: Batch
    @Injected var journal: any Posting
    @Injected(name: "audit") var audit: Batch
    @OptionalInjected var optional: Batch?
    /// What the factory building the ledger resolved through its context, to compare.
    var resolved: (work: Batch, audit: Batch)?
    init() {}
}

/// Property wrappers that resolve while a factory builds their owner join that resolution: its
/// `graph` instances, its container, its scope; outside any resolution each starts its own.
@Suite("Property wrappers join the resolution building their owner")
struct WrapperResolutionTests {
    static let manifest = """
        wiring: 1
        services:
          Ledger: { factory: ledger }
          Batch: { factory: work, scope: graph, implements: [Posting], names: { audit: {} } }
        """

    func registry(counter: BuildCounter = BuildCounter(), async: Bool = false) -> FactoryRegistry {
        let registry = FactoryRegistry()
        registry.factory("work") { _ in counter.tick("work"); return Batch() }
        if async {
            registry.factory("ledger") { r async throws in
                try await Task.sleep(for: .milliseconds(1))   // resumed, maybe on another thread
                let ledger = Ledger()
                ledger.resolved = (try await r.resolve(Batch.self), try await r.resolve(Batch.self, name: "audit"))
                return ledger
            }
        } else {
            registry.factory("ledger") { r in
                let ledger = Ledger()
                ledger.resolved = (try r.resolve(Batch.self), try r.resolve(Batch.self, name: "audit"))
                return ledger
            }
        }
        return registry
    }

    func container(_ registry: FactoryRegistry, yaml: String = manifest) throws -> Container {
        try Container(manifest: try TestSupport.temporaryFile(yaml), registry: registry, contexts: .none)
    }

    /// One graph instance per resolution, however the wrappers reach it: as itself, through
    /// `implements`, optionally; the named variant is one instance of its own, shared too.
    func expectOneGraph(_ ledger: Ledger) throws {
        let resolved = try #require(ledger.resolved)
        #expect(ledger.work === resolved.work)
        #expect(ledger.journal === resolved.work)
        #expect(ledger.optional === resolved.work)
        #expect(ledger.audit === resolved.audit)
        #expect(ledger.audit !== ledger.work)
    }

    @Test func wrappersOfAnInstanceASynchronousFactoryBuildsShareItsGraph() throws {
        let counter = BuildCounter()
        let container = try container(registry(counter: counter))
        let first = try container.resolve(Ledger.self)
        try expectOneGraph(first)
        #expect(counter["work"] == 2)
        // The next resolution has graph instances of its own.
        let second = try container.resolve(Ledger.self)
        try expectOneGraph(second)
        #expect(second.work !== first.work)
    }

    @Test func wrappersOfAnInstanceAnAsyncFactoryBuildsShareItsGraph() async throws {
        let counter = BuildCounter()
        let container = try container(registry(counter: counter, async: true))
        let ledger = try await container.resolve(Ledger.self)
        try expectOneGraph(ledger)
        #expect(counter["work"] == 2)
        // From concurrent resolutions, each its own graph.
        let ledgers = try await withThrowingTaskGroup(of: Ledger.self) { group in
            for _ in 0..<8 { group.addTask { try await container.resolve(Ledger.self) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        for ledger in ledgers { try expectOneGraph(ledger) }
        #expect(Set(ledgers.map { ObjectIdentifier($0.work) }).count == 8)
    }

    @Test func outsideAnyResolutionEachWrapperResolvesOnItsOwn() throws {
        let container = try container(registry())
        let ledger = Container.using(container) { Ledger() }
        #expect(ledger.work !== ledger.journal)
        // An explicit container the thread is not building with is resolved on its own too.
        let other = try self.container(registry())
        let registry = registry()
        registry.factory("ledger", overriding: true) { r in
            let ledger = Ledger()
            ledger.resolved = (Injected<Batch>(container: other).wrappedValue, try r.resolve(Batch.self, name: "audit"))
            return ledger
        }
        let built = try self.container(registry).resolve(Ledger.self)
        #expect(built.resolved?.work !== built.work)
    }

    @Test func aFactoryThatThrowsLeavesNoResolutionForLaterWrappersToJoin() throws {
        // A plain `unique` service is built in one step, which makes its container the
        // thread's building container; a factory that throws must not leave it so.
        struct Refused: Error {}
        let failing = FactoryRegistry()
        failing.factory("work") { _ in Batch() }
        failing.factory("ledger") { r in
            _ = try r.resolve(Batch.self)
            throw Refused()
        }
        let broken = try container(failing, yaml: Self.manifest.replacingOccurrences(
            of: "Ledger: { factory: ledger }", with: "Ledger: { factory: ledger, scope: unique }"))
        #expect(throws: ResolutionError.self) { try broken.resolve(Ledger.self) }
        let counter = BuildCounter()
        let other = try container(registry(counter: counter))
        let ledger = Container.using(other) { Ledger() }
        // Made outside any resolution: each wrapper resolves on its own, from `other`.
        #expect(ledger.work !== ledger.journal)
        #expect(counter["work"] == 4)
    }

    @Test func wrappersJoinTheScopeOfTheResolutionBuildingTheirOwner() throws {
        final class Page: @unchecked Sendable {
            @Injected var work: Batch
            let direct: Batch
            init(direct: Batch) { self.direct = direct }
        }
        let registry = registry()
        registry.factory("page") { r in Page(direct: try r.resolve()) }
        let container = try container(registry, yaml: """
            wiring: 1
            services:
              Page: { factory: page, scope: scoped }
              Batch: { factory: work, scope: scoped }
            """)
        let scope = container.makeScope()
        let page = try scope.resolve(Page.self)
        #expect(page.work === page.direct)
        #expect(page.work === (try scope.resolve(Batch.self)))
        let other = container.makeScope()
        #expect(try other.resolve(Page.self).work !== page.work)
    }

    @Test func aChildsFactoriesWrappersResolveThroughTheChild() throws {
        let container = try container(registry())
        let replacement = Batch()
        let child = try container.child { $0.override(Batch.self) { _ in replacement } }
        let ledger = try child.resolve(Ledger.self)
        #expect(ledger.work === replacement)
        #expect(ledger.journal === replacement)
        #expect(ledger.resolved?.work === replacement)
        #expect(try container.resolve(Ledger.self).work !== replacement)
    }

    @Test func aWrappersResolveCountsAsADependencyOfTheServiceBuildingIt() throws {
        let registry = FactoryRegistry()
        registry.factory("work") { _ in Batch() }
        registry.factory("ledger") { _ in Ledger() }
        var options = Container.Options()
        options.recordsResolvedEdges = true
        let container = try Container(manifest: try TestSupport.temporaryFile(Self.manifest), registry: registry, contexts: .none,
                                      options: options)
        _ = try container.resolve(Ledger.self)
        #expect(container.resolvedEdges.map { "\($0.from) -> \($0.to)" } == ["Ledger -> Batch"])
    }

    /// A cycle through a wrapper is the resolution's cycle, with its path: the wrapper cannot
    /// throw, so the probe stops with the message.
    @Test func aCycleThroughAWrapperStopsWithTheResolutionsPath() throws {
        let output = try BinaryRunner.run("ContextProbe", ["wrapper-cycle"])
        #expect(output.status != 0)
        #expect(output.stderr.contains("Wiring: cannot inject Journal: circular dependency: Invoice ("), "\(output.stderr)")
        #expect(output.stderr.contains(") → PaperJournal (") && output.stderr.contains(") → Invoice ("))
    }
}
