import Foundation
import Testing
@testable import Wiring

/// A parent and its child, each pointing at the other: the child takes its parent in its
/// initializer, the parent gets its child through a property hook.
class CycleParent: @unchecked Sendable {
    var child: CycleChild?
}
final class CycleChild: @unchecked Sendable {
    let parent: CycleParent
    var sibling: CycleSibling?
    init(parent: CycleParent) { self.parent = parent }
}
final class CycleSibling: @unchecked Sendable {
    var child: CycleChild?
}
final class LoggedParent: CycleParent, @unchecked Sendable {
    let inner: CycleParent
    init(inner: CycleParent) { self.inner = inner }
}

/// Property injection closes cycles, as Swinject's `initCompleted` does: a `resolvingProperties`
/// hook that resolves back to the service being built gets the instance being built.
@Suite("Property injection closes cycles")
struct PropertyCycleTests {
    /// Counts of factory runs, by key (behind `Locked`: ThreadSanitizer, which CI runs these
    /// under, reports false races inside `Mutex` on Linux).
    final class Built: Sendable {
        let counts = Locked<[String: Int]>([:])
        func tick(_ key: String) { counts.withLock { $0[key, default: 0] += 1 } }
        subscript(key: String) -> Int { counts.withLock { $0[key] ?? 0 } }
    }

    func container(parent: String, child: String, built: Built = Built(), decorated: Bool = false) throws -> Container {
        let registry = FactoryRegistry()
        registry.factory("parent") { _ in
            built.tick("parent")
            return CycleParent()
        }.resolvingProperties { (r, parent: CycleParent) in parent.child = try r.resolve(CycleChild.self) }
        registry.factory("child") { r in
            built.tick("child")
            return CycleChild(parent: try r.resolve(CycleParent.self))
        }.resolvingProperties { (r, child: CycleChild) in child.sibling = try r.resolve(CycleSibling.self) }
        registry.factory("sibling") { _ in CycleSibling() }
            .resolvingProperties { r, sibling in sibling.child = try r.resolve(CycleChild.self) }
        registry.factory("logged") { r in LoggedParent(inner: try r.decorated(CycleParent.self)) }
        return try TypedFactoryFormsTests.container("""
            services:
              CycleParent: { factory: parent, scope: \(parent) }
              CycleChild: { factory: child, scope: \(child) }
              CycleSibling: { factory: sibling, scope: graph }
            \(decorated ? "  LoggedParent: { factory: logged, decorates: CycleParent }" : "")
            """, registry)
    }

    @Test(arguments: [("graph", "graph"), ("singleton", "graph"), ("graph", "cached"), ("singleton", "singleton")])
    func aHookResolvingBackGetsTheInstanceBeingBuilt(scopes: (String, String)) throws {
        let built = Built()
        let container = try container(parent: scopes.0, child: scopes.1, built: built)
        let resolve: (Container) throws -> CycleParent = { try $0.resolve(CycleParent.self) }
        let parent = try resolve(container)
        let child = try #require(parent.child)
        #expect(child.parent === parent)
        // Through another service's hook: the sibling's child is the child being built.
        #expect(child.sibling?.child === child)
        #expect(built["parent"] == 1 && built["child"] == 1)
        if scopes.0 == "singleton" {
            #expect(try resolve(container) === parent)
            #expect(built["parent"] == 1)
        }
    }

    @Test func anAwaitedResolveClosesTheCycleToo() async throws {
        let container = try container(parent: "singleton", child: "graph")
        let parent = try await container.resolve(CycleParent.self)
        #expect(parent.child?.parent === parent)
        #expect(try await container.resolve(CycleParent.self) === parent)
    }

    /// Many threads resolving the service whose hook closes the cycle: each kept instance is
    /// built once, and every thread gets the same.
    @Test func aKeptServiceResolvedFromManyThreadsAtOnceIsBuiltOnce() async throws {
        for _ in 0..<100 {
            let built = Built()
            let container = try container(parent: "singleton", child: "singleton", built: built)
            let parents = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
                for _ in 0..<8 {
                    group.addTask { ObjectIdentifier(try container.resolve(CycleParent.self)) }
                }
                return try await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
            }
            #expect(parents.count == 1)
            #expect(built["parent"] == 1 && built["child"] == 1)
            let parent = try await container.resolve(CycleParent.self)
            #expect(parent.child?.parent === parent)
        }
    }

    /// Threads entering the cycle from both ends at once. One that builds the child first, before
    /// anyone built the parent, meets a true cycle (the parent's hook comes back to a child whose
    /// factory has not returned), as it would alone; one that waits for a parent whose hook waits
    /// for the child it builds is handed that parent, instead of the two failing. No thread
    /// waits forever, and every one that succeeds gets the one parent.
    @Test func threadsEnteringFromBothEndsFinish() async throws {
        for _ in 0..<100 {
            let container = try container(parent: "singleton", child: "singleton")
            let outcomes = await withTaskGroup(of: ObjectIdentifier?.self) { group in
                for index in 0..<8 {
                    group.addTask {
                        do {
                            let parent = index.isMultiple(of: 2) ? try container.resolve(CycleParent.self) : try container.resolve(CycleChild.self).parent
                            return ObjectIdentifier(parent)
                        } catch let error as ResolutionError {
                            if case .circularDependency = error.kind { return nil }
                            Issue.record(error)
                            return nil
                        } catch {
                            Issue.record(error)
                            return nil
                        }
                    }
                }
                return await group.reduce(into: [ObjectIdentifier?]()) { $0.append($1) }
            }
            let parent = try await container.resolve(CycleParent.self)
            #expect(Set(outcomes.compactMap { $0 }).isSubset(of: [ObjectIdentifier(parent)]))
            #expect(parent.child?.parent === parent)
        }
    }

    /// With decorators, a hook's resolve back gets the factory's instance, before any decorator:
    /// the decorators run after the hooks.
    @Test func aDecoratedServiceHandsBackTheUndecoratedInstance() throws {
        let container = try container(parent: "singleton", child: "graph", decorated: true)
        let resolve: (Container) throws -> CycleParent = { try $0.resolve(CycleParent.self) }
        let parent = try #require(try resolve(container) as? LoggedParent)
        #expect(parent.child == nil)
        #expect(parent.inner.child?.parent === parent.inner)
    }

    /// Without a hook on the way, a cycle through factories stays an error with its path, and
    /// a `unique` service has no one instance to hand back.
    @Test func aCycleThroughFactoriesAloneIsAnError() throws {
        let registry = FactoryRegistry()
        registry.factory("parent") { r in
            let parent = CycleParent()
            parent.child = try r.resolve(CycleChild.self)
            return parent
        }
        registry.factory("child") { r in CycleChild(parent: try r.resolve(CycleParent.self)) }
        let container = try TypedFactoryFormsTests.container("""
            services:
              CycleParent: { factory: parent, scope: singleton }
              CycleChild: { factory: child, scope: graph }
            """, registry)
        let error = #expect(throws: ResolutionError.self) { try container.resolve(key: "CycleParent") }
        #expect(error?.path.map(\.service) == ["CycleParent", "CycleChild", "CycleParent"])
        #expect(error?.message.hasPrefix("circular dependency: CycleParent (") == true)

        let unique = try self.container(parent: "unique", child: "graph")
        let uniqueError = #expect(throws: ResolutionError.self) { try unique.resolve(key: "CycleParent") }
        #expect(uniqueError.map { if case .circularDependency = $0.kind { true } else { false } } == true)
    }
}

/// Swinject's documented circular dependency, through four services: each takes the next in its
/// initializer (`A(b)`, `B(c)`, `C(d)`), `C`'s property hook resolves `A`, and `D`'s resolves
/// `B` and `C`. The hooks of instances built below a factory still running wait for the
/// outermost one to return, as Swinject's `initCompleted` does.
@Suite("Swinject's circular dependency")
struct InitializerCycleTests {
    final class A: @unchecked Sendable {
        let b: B
        init(b: B) { self.b = b }
    }
    final class B: @unchecked Sendable {
        let c: C
        init(c: C) { self.c = c }
    }
    final class C: @unchecked Sendable {
        let d: D
        var a: A?
        init(d: D) { self.d = d }
    }
    final class D: @unchecked Sendable {
        var b: B?
        var c: C?
    }

    func container(root: String, others: String, built: PropertyCycleTests.Built = .init()) throws -> Container {
        let registry = FactoryRegistry()
        registry.factory("a") { r in
            built.tick("a")
            return A(b: try r.resolve())
        }
        registry.factory("b") { r in
            built.tick("b")
            return B(c: try r.resolve())
        }
        registry.factory("c") { r in
            built.tick("c")
            return C(d: try r.resolve())
        }.resolvingProperties { (r, c: C) in c.a = try r.resolve(A.self) }
        registry.factory("d") { _ in
            built.tick("d")
            return D()
        }.resolvingProperties { (r, d: D) in
            d.b = try r.resolve(B.self)
            d.c = try r.resolve(C.self)
        }
        return try TypedFactoryFormsTests.container("""
            services:
              A: { factory: a, scope: \(root) }
              B: { factory: b, scope: \(others) }
              C: { factory: c, scope: \(others) }
              D: { factory: d, scope: \(others) }
            """, registry)
    }

    /// Every hook sees the instances of one graph, whichever scope keeps them.
    func expectOneGraph(_ a: A) {
        #expect(a.b.c.a === a)
        #expect(a.b.c.d.b === a.b)
        #expect(a.b.c.d.c === a.b.c)
    }

    @Test(arguments: [("graph", "graph"), ("singleton", "singleton"), ("cached", "graph"), ("shared", "graph"),
                      ("shared", "singleton"), ("singleton", "graph")])
    func theCycleCloses(scopes: (String, String)) throws {
        let built = PropertyCycleTests.Built()
        let container = try container(root: scopes.0, others: scopes.1, built: built)
        let a = try container.resolve(A.self)
        expectOneGraph(a)
        #expect(["a", "b", "c", "d"].allSatisfy { built[$0] == 1 })
        if scopes.0 != "graph" { #expect(try container.resolve(A.self) === a) }
    }

    /// Resolved first from the inside: `C`'s hook waits for `C`'s factory... which is the
    /// outermost, so it runs when `C` returns, and `A` is built then, once.
    @Test func resolvingFromTheMiddleClosesTheCycleToo() throws {
        let container = try container(root: "singleton", others: "singleton")
        let c = try container.resolve(C.self)
        let a = try #require(c.a)
        #expect(a.b.c === c)
        expectOneGraph(a)
    }

    /// Many threads at once, on fresh containers: each kept instance is built once, and no
    /// thread sees one before its hooks ran.
    @Test func manyThreadsGetOneGraph() async throws {
        for _ in 0..<50 {
            let built = PropertyCycleTests.Built()
            let container = try container(root: "shared", others: "singleton", built: built)
            let roots = try await withThrowingTaskGroup(of: A.self) { group in
                for _ in 0..<8 {
                    group.addTask { try await TestSupport.onThreadOfItsOwn { try container.resolveSynchronously(A.self) } }
                }
                return try await group.reduce(into: [A]()) { $0.append($1) }
            }
            for a in roots { expectOneGraph(a) }
            #expect(["b", "c", "d"].allSatisfy { built[$0] == 1 })
        }
    }

    /// A hook that fails gives up the kept instances still waiting: nothing half-made is kept,
    /// and the next resolve builds again.
    @Test func aFailingHookKeepsNothingHalfMade() throws {
        let registry = FactoryRegistry()
        let fail = Locked(true)
        registry.factory("a") { r in A(b: try r.resolve()) }
        registry.factory("b") { r in B(c: try r.resolve()) }
        registry.factory("c") { r in C(d: try r.resolve()) }
            .resolvingProperties { (r, c: C) in
                if fail.withLock({ $0 }) { throw ResolutionError(.unknownService("X"), message: "hook failed", path: []) }
                c.a = try r.resolve(A.self)
            }
        registry.factory("d") { _ in D() }
        let container = try TypedFactoryFormsTests.container("""
            services:
              A: { factory: a, scope: singleton }
              B: { factory: b, scope: singleton }
              C: { factory: c, scope: singleton }
              D: { factory: d, scope: singleton }
            """, registry)
        #expect(throws: ResolutionError.self) { try container.resolve(A.self) }
        fail.withLock { $0 = false }
        let a = try container.resolve(A.self)
        #expect(a.b.c.a === a)
    }
}
