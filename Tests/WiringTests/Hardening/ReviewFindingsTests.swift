import Foundation
import Logging
import Synchronization
import Testing
@testable import Wiring

/// Defects a review of the resolve, lifecycle and reload paths found, each kept as the
/// behaviour a user relies on.
@Suite("Review findings")
struct ReviewFindingsTests {
    final class Tracked: Sendable {}

    /// Built by a `graph` factory: one per resolution.
    final class PerGraph: Sendable {}

    /// A plain `unique` service whose wrapper joins the resolution building it.
    final class Helper: @unchecked Sendable {
        let builtWith: Container?
        @Injected var perGraph: PerGraph
        init(builtWith: Container?) { self.builtWith = builtWith }
    }

    final class Owner: @unchecked Sendable {
        var helper: Helper?
        var perGraph: PerGraph?
    }

    // MARK: - Property hooks build in their resolution

    /// A hook that resolves a plain `unique` service the container has resolved before (so that
    /// the one-step lane takes it) runs that factory with the container building and in the
    /// hook's resolution: its wrappers resolve from that container and share its `graph`.
    @Test func aPropertyHookBuildsItsDependencyWithItsContainerAndInItsResolution() throws {
        let registry = FactoryRegistry()
        registry.factory("owner") { _ in Owner() }
            .resolvingProperties { r, owner in
                owner.helper = try r.resolve(Helper.self)
                owner.perGraph = try r.resolve(PerGraph.self)
            }
        registry.factory("helper") { _ in Helper(builtWith: Container.current) }
        registry.factory("per-graph") { _ in PerGraph() }
        let container = try AsyncFixture.container("""
            services:
              Owner: { factory: owner, scope: singleton }
              Helper: { factory: helper, scope: unique }
              PerGraph: { factory: per-graph, scope: graph }
            """, registry: registry)
        _ = try Container.using(container) { try container.resolve(Helper.self) }
        let owner = try container.resolve(Owner.self)
        let helper = try #require(owner.helper)
        #expect(helper.builtWith === container)
        #expect(helper.perGraph === owner.perGraph)
    }

    // MARK: - Lazy wrappers keep no container alive

    final class LazyHolder: @unchecked Sendable {
        @LazyInjected var tracked: Tracked
        @WeakLazyInjected var weakTracked: Tracked?
    }

    /// A kept instance with lazy wrappers does not keep the container that keeps it: a child
    /// dropped without a shutdown is freed, and leaves its parent's list of children.
    @Test func aChildKeepingAnInstanceWithLazyWrappersIsFreedWhenDropped() throws {
        let registry = FactoryRegistry()
        registry.factory("holder") { _ in LazyHolder() }
        registry.factory("tracked") { _ in Tracked() }
        let container = try AsyncFixture.container("""
            services:
              LazyHolder: { factory: holder, scope: singleton }
              Tracked: { factory: tracked, scope: singleton }
            """, registry: registry)
        weak var child: Container?
        weak var holder: LazyHolder?
        do {
            let made = try container.child()
            let built = try made.resolve(LazyHolder.self)
            #expect(built.tracked === (try made.resolve(Tracked.self)))
            child = made
            holder = built
        }
        #expect(child == nil)
        #expect(holder == nil)
        #expect(container.life.children.withLock { $0.alive.isEmpty })
    }

    // MARK: - A kept context from any thread

    final class Provider: @unchecked Sendable {
        let context: FactoryContext
        init(context: FactoryContext) { self.context = context }
    }

    /// A factory that keeps its context (a provider, a factory of factories) can resolve through
    /// it from many threads at once once its resolution is over, continuing that resolution
    /// (its `graph` instances): never a false cycle or a crash.
    @Test func aKeptContextResolvesFromManyThreadsAtOnce() async throws {
        let registry = FactoryRegistry()
        registry.factory("provider") { r in Provider(context: r) }
        registry.factory("tracked") { _ in Tracked() }
        registry.factory("per-graph") { r in
            _ = try r.resolve(Tracked.self)
            return PerGraph()
        }
        let container = try AsyncFixture.container("""
            services:
              Provider: { factory: provider, scope: singleton }
              Tracked: { factory: tracked, scope: unique }
              PerGraph: { factory: per-graph, scope: graph }
            """, registry: registry)
        let provider = try container.resolveSynchronously(Provider.self)
        let failures = Locked<[String]>([])
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    await TestSupport.onThreadOfItsOwn { () -> Void in
                        for round in 0..<2_000 {
                            do {
                                if round % 2 == 0 {
                                    _ = try resolveSynchronously(PerGraph.self, from: provider.context)
                                } else {
                                    _ = try provider.context.resolve(key: "Tracked")
                                }
                            } catch {
                                failures.withLock { $0.append("\(error)") }
                            }
                        }
                    }
                }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty)
        // The kept resolution's own `graph` instance, whichever thread asks, and not another
        // resolution's.
        let kept = try resolveSynchronously(PerGraph.self, from: provider.context)
        #expect(try resolveSynchronously(PerGraph.self, from: provider.context) === kept)
        #expect(try container.resolveSynchronously(PerGraph.self) !== kept)
    }

    /// A context kept past its resolution enters the container again when it resolves, as a
    /// top-level resolve does: once the container is shut down, it throws (whatever it asks
    /// for, awaited or not), instead of building a singleton again whose shutdown hook never runs.
    @Test func aKeptContextCannotResolveOnceItsContainerIsShutDown() async throws {
        let registry = FactoryRegistry()
        let builds = Locked(0)
        registry.factory("provider") { r in Provider(context: r) }
        registry.factory("awaiting-provider") { r in
            await Task.yield()
            return Provider(context: r)
        }
        registry.factory("tracked") { _ in
            builds.withLock { $0 += 1 }
            return Tracked()
        }.onShutdown { _ in }
        let container = try AsyncFixture.container("""
            services:
              Provider: { factory: provider, scope: unique }
              AwaitingProvider: { factory: awaiting-provider, scope: unique, args: { tracked: !service Tracked } }
              Tracked: { factory: tracked, scope: singleton }
            """, registry: registry)
        let provider = try container.resolveSynchronously(Provider.self)
        // The same type from an async factory, resolved by its key.
        let awaiting = try #require(try await container.resolve(key: "AwaitingProvider") as? Provider)
        let tracked = try resolveSynchronously(Tracked.self, from: provider.context)
        #expect(try await awaiting.context.resolve(Tracked.self) === tracked)
        #expect(try await awaiting.context.resolve(arg: "tracked", as: Tracked.self) === tracked)
        try await container.shutdown()
        let errors = [
            #expect(throws: ResolutionError.self) { try resolveSynchronously(Tracked.self, from: provider.context) },
            await #expect(throws: ResolutionError.self) { try await provider.context.resolve(Tracked.self) },
            await #expect(throws: ResolutionError.self) { try await awaiting.context.resolve(Tracked.self) },
            await #expect(throws: ResolutionError.self) { try await awaiting.context.resolve(arg: "tracked", as: Tracked.self) },
            // Before looking anything up, as a scope of a container shut down does.
            #expect(throws: ResolutionError.self) { try provider.context.resolve(key: "Missing") },
            await #expect(throws: ResolutionError.self) { try await awaiting.context.resolve(key: "Missing") },
        ]
        for error in errors { #expect(error?.message.contains("the container is shut down") == true, "\(String(describing: error))") }
        #expect(builds.withLock { $0 } == 1)
    }

    final class FannedOut: Sendable {
        let graphs: [ObjectIdentifier]
        let own: ObjectIdentifier
        init(graphs: [ObjectIdentifier], own: ObjectIdentifier) {
            self.graphs = graphs
            self.own = own
        }
    }

    /// A factory that hands its context to threads of its own while it runs (a fan-out): each
    /// of their resolves is a resolution of its own, since the factory's resolution is under
    /// way on its own thread.
    @Test func aContextUsedFromOtherThreadsWhileItsFactoryRunsResolvesOnItsOwn() async throws {
        let registry = FactoryRegistry()
        registry.factory("fan-out") { r in
            let own = try r.resolve(PerGraph.self)
            let seen = Locked<[ObjectIdentifier]>([])
            let done = DispatchGroup()
            for _ in 0..<4 {
                done.enter()
                Thread.detachNewThread {
                    for _ in 0..<500 {
                        if let built = try? r.resolve(PerGraph.self) { seen.withLock { $0.append(ObjectIdentifier(built)) } }
                    }
                    done.leave()
                }
            }
            done.wait()
            return FannedOut(graphs: seen.withLock { $0 }, own: ObjectIdentifier(own))
        }
        registry.factory("tracked") { _ in Tracked() }
        registry.factory("per-graph") { r in
            _ = try r.resolve(Tracked.self)
            return PerGraph()
        }
        let container = try AsyncFixture.container("""
            services:
              FannedOut: { factory: fan-out, scope: unique }
              Tracked: { factory: tracked, scope: unique }
              PerGraph: { factory: per-graph, scope: graph }
            """, registry: registry)
        // On a thread of its own: the factory waits for its threads.
        let fannedOut = try await TestSupport.onThreadOfItsOwn { try container.resolveSynchronously(FannedOut.self) }
        #expect(fannedOut.graphs.count == 2_000)
        #expect(!fannedOut.graphs.contains(fannedOut.own))
    }

    /// An async factory whose task keeps resolving through its context while the instance's
    /// property hooks run and its build is reported: the hooks and the report change nothing
    /// that task reads (ThreadSanitizer checks this run in CI).
    @Test func anAsyncFactoryTaskResolvesThroughItsContextWhileItsHooksRun() async throws {
        let registry = FactoryRegistry()
        let background = Locked<Task<Int, Never>?>(nil)
        registry.factory("owner") { (r: FactoryContext) async throws -> Owner in
            let task = Task {
                var resolved = 0
                for _ in 0..<500 where (try? r.resolve(Tracked.self)) != nil { resolved += 1 }
                return resolved
            }
            background.withLock { $0 = task }
            return Owner()
        }.resolvingProperties { r, owner in
            for _ in 0..<200 { owner.perGraph = try r.resolve(PerGraph.self) }
        }
        registry.factory("tracked") { _ in Tracked() }
        registry.factory("per-graph") { _ in PerGraph() }
        let container = try AsyncFixture.container("""
            services:
              Owner: { factory: owner, scope: singleton, eager: true }
              Tracked: { factory: tracked, scope: unique }
              PerGraph: { factory: per-graph, scope: graph }
            """, registry: registry)
        try await container.start()
        let resolved = await background.withLock({ $0 })?.value
        #expect(resolved == 500)
        #expect(try await container.resolve(Owner.self).perGraph != nil)
        try await container.shutdown()
    }

    // MARK: - A reload and a shutdown at once

    final class ReloadWatcher: ContainerObserver {
        let retiringWhenTold = Locked<[Int]>([])
        let wiring = Locked<ReloadingContainer?>(nil)
        func containerReloaded(_ reload: ReloadEvent) {
            guard reload.applied, let wiring = wiring.withLock({ $0 }) else { return }
            retiringWhenTold.withLock { $0.append(wiring.retiringCount) }
        }
    }

    /// By the time anything hears of a reload, the container it retired is one `shutdown()`
    /// waits for: a shutdown at that moment returns only once the retired container's last
    /// scope ended and its hooks ran.
    @Test func aShutdownDuringAReloadWaitsForTheContainerTheReloadRetired() async throws {
        let closed = Locked<[String]>([])
        let registry = FactoryRegistry()
        registry.factory("greeter") { r in try r.arg("text") as String }
            .onShutdown { (text: String) in closed.withLock { $0.append(text) } }
        let folder = try TestSupport.temporaryFolder()
        let manifest = folder.appendingPathComponent("services.yaml")
        try Data("wiring: 1\nservices:\n  Greeting: { factory: greeter, scope: singleton, eager: true, args: { text: first } }\n".utf8)
            .write(to: manifest)
        let watcher = ReloadWatcher()
        let wiring = try ReloadingContainer(manifest: manifest.path, registry: registry, contexts: .none,
                                            options: .init(environment: [:], observers: [watcher]))
        watcher.wiring.withLock { $0 = wiring }
        try await wiring.start()
        let inFlight = wiring.makeScope()
        try Data("wiring: 1\nservices:\n  Greeting: { factory: greeter, scope: singleton, eager: true, args: { text: second } }\n".utf8)
            .write(to: manifest)
        #expect(await wiring.reload())
        #expect(watcher.retiringWhenTold.withLock { $0 } == [1])
        let shutdown = Task { try await wiring.shutdown() }
        // The container in force shuts down; the retired one waits for its scope, however long.
        let deadline = ContinuousClock.now + .seconds(60)
        while closed.withLock({ $0.isEmpty }), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(closed.withLock { $0 } == ["second"])
        try await inFlight.end()
        try await shutdown.value
        #expect(closed.withLock { $0 }.sorted() == ["first", "second"])
    }

    // MARK: - One snapshot of the arguments per build

    final class Pair: Sendable {
        let first: Int
        let second: Int
        init(first: Int, second: Int) {
            self.first = first
            self.second = second
        }
    }

    /// A singleton whose build spans a refresh reads every argument from before it: never one
    /// value from before and one from after, which it would keep for its life.
    @Test func aBuildSpanningARefreshReadsAllItsArgumentsFromOneSnapshot() async throws {
        let source = RefreshTests.MutableSource(["size": .int(1)])
        let firstRead = DispatchSemaphore(value: 0)
        let refreshed = DispatchSemaphore(value: 0)
        let registry = FactoryRegistry()
        registry.factory("pair") { r in
            let first: Int = try r.arg("first")
            firstRead.signal()
            refreshed.wait()
            return Pair(first: first, second: try r.arg("second"))
        }
        let container = try Container(
            manifest: try TestSupport.temporaryFile("""
                wiring: 1
                services:
                  Pair: { factory: pair, scope: singleton, args: { first: "${size}", second: "${size}" } }
                """, name: "services.yaml"),
            registry: registry, contexts: .none, options: .init(environment: [:], configuration: source))
        try await container.start()
        async let built = TestSupport.onThreadOfItsOwn { try container.resolveSynchronously(Pair.self) }
        await TestSupport.onThreadOfItsOwn { firstRead.wait() }
        source.set("size", .int(2))
        try await source.settle()
        refreshed.signal()
        let pair = try await built
        #expect(pair.first == pair.second)
        try await container.shutdown()
    }
}

/// What the reference model found once it generated property hooks and grandchildren.
@Suite("Model findings")
struct ModelFindingsTests {
    final class Decorated: @unchecked Sendable {
        let inner: Decorated?
        var itself: Decorated?
        init(inner: Decorated?) { self.inner = inner }
    }

    /// An async `graph` service with a decorator, whose hook resolves the service itself: the
    /// hook gets the factory's instance, and the awaited resolve the decorated one (the hook's
    /// hand-back was kept as the resolution's instance, and returned).
    @Test func anAwaitedDecoratedGraphServiceWhoseHookComesBackIsDecorated() async throws {
        let registry = FactoryRegistry()
        registry.factory("node") { (_: FactoryContext) async throws -> Decorated in Decorated(inner: nil) }
            .resolvingProperties { (r, node: Decorated) in node.itself = try r.resolve(Decorated.self) }
        registry.factory("decorator") { r in Decorated(inner: try r.decorated(Decorated.self)) }
        let container = try AsyncFixture.container("""
            services:
              Decorated: { factory: node, scope: graph }
              Wrapper: { factory: decorator, decorates: Decorated }
            """, registry: registry)
        let resolved = try await container.resolve(Decorated.self)
        let inner = try #require(resolved.inner)
        #expect(inner.itself === inner)
    }

    /// A grandchild that shares a service whose dependency its parent shares from the root,
    /// and overrides what that dependency depends on, is refused: the shared instance holds the
    /// root's, not the grandchild's (the check stopped at the parent's share).
    @Test func aGrandchildCannotShareWhatDependsThroughAShareOnWhatItOverrides() throws {
        let registry = FactoryRegistry()
        registry.factory("node") { _ in Decorated(inner: nil) }
        let container = try AsyncFixture.container("""
            services:
              Top: { factory: node, scope: unique, args: { next: !service Middle } }
              Middle: { factory: node, scope: unique, args: { next: !service Bottom } }
              Bottom: { factory: node, scope: unique }
            """, registry: registry)
        let child = try container.child { $0.share(key: "Middle") }
        #expect(throws: ManifestError.self) {
            try child.child { grandchild in
                grandchild.override(key: "Bottom") { _ in Decorated(inner: nil) }
                grandchild.share(key: "Top")
            }
        }
    }

    struct HookFailed: Error {}

    /// A child shut down on its own, then its parent: the parent's shutdown reports its own
    /// hooks only (it reported the child's failing hook, and listed the child's hooks, again).
    @Test func aParentDoesNotReportAgainTheHooksOfAChildShutDownBefore() async throws {
        let registry = FactoryRegistry()
        registry.factory("node") { _ in Decorated(inner: nil) }.onShutdown { (_: Decorated) in throw HookFailed() }
        let container = try AsyncFixture.container("""
            services:
              Pool: { factory: node, scope: singleton }
            """, registry: registry)
        let child = try container.child { _ in }
        _ = try await child.resolve(key: "Pool")
        await #expect(throws: ShutdownError.self) { try await child.shutdown() }
        try await container.shutdown()
        #expect(container.shutdownReport?.hooks.isEmpty == true)
        _ = child.isShutDown
    }

    /// A scope of a container shut down says so, awaited or not, whatever it is asked for (an
    /// awaited resolve of an undeclared service said "unknown service" instead).
    @Test func aScopeOfAShutDownContainerSaysSoWhenAwaitedToo() async throws {
        let registry = FactoryRegistry()
        registry.factory("node") { _ in Decorated(inner: nil) }
        let container = try AsyncFixture.container("""
            services:
              Pool: { factory: node, scope: singleton }
            """, registry: registry)
        let scope = container.makeScope()
        try await container.shutdown()
        for resolve in [{ try await scope.resolve(key: "Missing") }, { try await scope.resolve(Decorated.self) as Any }] {
            do {
                _ = try await resolve()
                Issue.record("resolved from a scope of a container shut down")
            } catch let error as ResolutionError {
                guard case .shutDown = error.kind else { Issue.record("\(error.kind)"); continue }
            }
        }
        #expect(throws: ResolutionError.self) { try scope.resolve(key: "Missing") }
    }
}

