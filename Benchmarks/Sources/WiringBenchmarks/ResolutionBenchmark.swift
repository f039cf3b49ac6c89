import Dispatch
import Foundation
import Swinject
import Synchronization
import Wiring

// The graph both containers resolve.
protocol Reading: AnyObject, Sendable {}
final class Shared: Reading {}
final class Leaf1: Sendable {}
final class Leaf2: Sendable {}
final class Leaf3: Sendable {}
final class Composite: Sendable {
    let a: Leaf1, b: Leaf2, c: Leaf3
    init(a: Leaf1, b: Leaf2, c: Leaf3) { (self.a, self.b, self.c) = (a, b, c) }
}
/// `Composite` again, its dependencies declared in the manifest (`!service`) instead of
/// resolved in code.
final class DeclaredComposite: Sendable {
    let a: Leaf1, b: Leaf2, c: Leaf3
    init(a: Leaf1, b: Leaf2, c: Leaf3) { (self.a, self.b, self.c) = (a, b, c) }
}
/// `Composite` again, built by its initializer, autowired (`registry.autowire`).
final class AutowiredComposite: Sendable {
    let a: Leaf1, b: Leaf2, c: Leaf3
    init(a: Leaf1, b: Leaf2, c: Leaf3) { (self.a, self.b, self.c) = (a, b, c) }
}
/// `Composite` again, autowired through the parameter pack's form of `registry.autowire`,
/// which an app reaches with seven parameters or more (three take a form of fixed arity).
final class PackedComposite: Sendable {
    let a: Leaf1, b: Leaf2, c: Leaf3
    init(a: Leaf1, b: Leaf2, c: Leaf3) { (self.a, self.b, self.c) = (a, b, c) }
}
/// A diamond: `Top` needs `Left` and `Right`, which both need the one `Bottom` of the resolution.
final class Bottom: Sendable {}
final class Left: Sendable {
    let bottom: Bottom
    init(bottom: Bottom) { self.bottom = bottom }
}
final class Right: Sendable {
    let bottom: Bottom
    init(bottom: Bottom) { self.bottom = bottom }
}
final class Top: Sendable {
    let left: Left, right: Right
    init(left: Left, right: Right) { (self.left, self.right) = (left, right) }
}
/// Singletons each thread resolves on its own, in the multi-threaded runs; big enough that two
/// of them never share a cache line (their reference counts would, and the line bounce).
final class PerThread0: Sendable { let padding = (0, 0, 0, 0, 0, 0, 0, 0) }
final class PerThread1: Sendable { let padding = (0, 0, 0, 0, 0, 0, 0, 0) }

/// Built by each container's own injection style: Wiring's property wrapper, Swinject's resolver.
final class WrappedClient {
    @Injected var shared: Shared
    init() {}
}
final class SwinjectClient {
    let shared: Shared
    init(resolver: any Swinject.Resolver) { shared = resolver.resolve(Shared.self)! }
}
final class LazyClient: @unchecked Sendable {
    @LazyInjected var shared: Shared
    init() {}
}

/// Swinject's synchronized resolver, which Swinject documents as safe to share between threads.
struct Synchronized: @unchecked Sendable {
    let resolver: any Swinject.Resolver
}

/// Resolution: Wiring against Swinject and the floors, per operation, interleaved by round.
enum ResolutionBenchmark {
    static let manifest = """
        wiring: 1
        services:
          Shared:
            factory: shared
            scope: singleton
            implements: [Reading]
            names:
              replica: { factory: shared }
          Leaf1: { factory: leaf1, scope: unique }
          Leaf2: { factory: leaf2, scope: unique }
          Leaf3: { factory: leaf3, scope: unique }
          Composite: { factory: composite, scope: unique }
          DeclaredComposite:
            factory: declared-composite
            scope: unique
            args: { a: !service Leaf1, b: !service Leaf2, c: !service Leaf3 }
          AutowiredComposite: { factory: autowired-composite, scope: unique }
          PackedComposite: { factory: packed-composite, scope: unique }
          Bottom: { factory: bottom, scope: graph }
          Left: { factory: left, scope: unique }
          Right: { factory: right, scope: unique }
          Top: { factory: top, scope: unique }
          PerThread0: { factory: per-thread-0, scope: singleton }
          PerThread1: { factory: per-thread-1, scope: singleton }
        """

    /// Resolves the "unique, 3 dependencies" row's service `count` times and nothing else, so
    /// that a profiler sees Wiring's path alone; `autowired`: the autowired row's service;
    /// `packed`: the one autowired through the parameter pack.
    static func profileUnique(_ count: Int, autowired: Bool = false, packed: Bool = false) throws {
        let wiring = try wiringContainer()
        var last: AnyObject?
        if packed {
            for _ in 0..<count { last = try wiring.resolve(PackedComposite.self) }
        } else if autowired {
            for _ in 0..<count { last = try wiring.resolve(AutowiredComposite.self) }
        } else {
            for _ in 0..<count { last = try wiring.resolve(Composite.self) }
        }
        withExtendedLifetime(last) {}
    }

    static func wiringContainer(options: Wiring.Container.Options = .init()) throws -> Wiring.Container {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("wiring-bench-resolve-\(UUID().uuidString).yaml").path
        try manifest.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let registry = FactoryRegistry()
        registry.factory("shared") { _ in Shared() }
        registry.factory("leaf1") { _ in Leaf1() }
        registry.factory("leaf2") { _ in Leaf2() }
        registry.factory("leaf3") { _ in Leaf3() }
        registry.factory("composite") { r in
            Composite(a: try r.resolve(Leaf1.self), b: try r.resolve(Leaf2.self), c: try r.resolve(Leaf3.self))
        }
        registry.factory("declared-composite") { r in
            DeclaredComposite(a: try r.arg("a"), b: try r.arg("b"), c: try r.arg("c"))
        }
        registry.autowire("autowired-composite", AutowiredComposite.init)
        autowireThroughThePack(registry, "packed-composite", PackedComposite.init)
        registry.factory("bottom") { _ in Bottom() }
        registry.factory("left") { r in Left(bottom: try r.resolve()) }
        registry.factory("right") { r in Right(bottom: try r.resolve()) }
        registry.factory("top") { r in Top(left: try r.resolve(), right: try r.resolve()) }
        registry.factory("per-thread-0") { _ in PerThread0() }
        registry.factory("per-thread-1") { _ in PerThread1() }
        return try Wiring.Container(manifest: path, registry: registry, contexts: .none, options: options)
    }

    /// `registry.autowire(key, make)` through the parameter pack's form: `D` is a pack here,
    /// which no form of fixed arity takes.
    static func autowireThroughThePack<T, each D>(
        _ registry: FactoryRegistry, _ key: String, _ make: @escaping @Sendable (repeat each D) throws -> T
    ) {
        registry.autowire(key, make)
    }

    /// The same for an async function.
    static func autowireThroughThePack<T, each D>(
        _ registry: FactoryRegistry, _ key: String, _ make: @escaping @concurrent @Sendable (repeat each D) async throws -> T
    ) {
        registry.autowire(key, make)
    }

    static func swinjectContainer() -> Swinject.Container {
        let container = Swinject.Container()
        container.register(Shared.self) { _ in Shared() }.inObjectScope(.container).implements(Reading.self)
        container.register(Shared.self, name: "replica") { _ in Shared() }.inObjectScope(.container)
        container.register(Leaf1.self) { _ in Leaf1() }.inObjectScope(.transient)
        container.register(Leaf2.self) { _ in Leaf2() }.inObjectScope(.transient)
        container.register(Leaf3.self) { _ in Leaf3() }.inObjectScope(.transient)
        container.register(Composite.self) { r in
            Composite(a: r.resolve(Leaf1.self)!, b: r.resolve(Leaf2.self)!, c: r.resolve(Leaf3.self)!)
        }.inObjectScope(.transient)
        container.register(Bottom.self) { _ in Bottom() }.inObjectScope(.graph)
        container.register(Left.self) { r in Left(bottom: r.resolve(Bottom.self)!) }.inObjectScope(.graph)
        container.register(Right.self) { r in Right(bottom: r.resolve(Bottom.self)!) }.inObjectScope(.graph)
        container.register(Top.self) { r in Top(left: r.resolve(Left.self)!, right: r.resolve(Right.self)!) }.inObjectScope(.graph)
        container.register(PerThread0.self) { _ in PerThread0() }.inObjectScope(.container)
        container.register(PerThread1.self) { _ in PerThread1() }.inObjectScope(.container)
        return container
    }

    /// Returns one closure that calls `body` `iterations` times, for `interleaved`.
    static func loop(_ iterations: Int, _ body: @escaping () throws -> AnyObject) -> () throws -> Any {
        {
            var last: AnyObject?
            for _ in 0..<iterations { last = try body() }
            return last as Any
        }
    }

    /// The work of the multi-threaded runs, taken by the threads in chunks.
    final class WorkCounter: Sendable {
        let taken = Atomic<Int>(0)
    }

    /// How many calls of `body` a thread takes at a time: few enough that the threads finish
    /// within a chunk of each other, enough that taking one costs nothing measurable.
    static let chunk = 1_000

    /// Returns one closure that calls `body` `threads × iterations` times on `threads` threads
    /// at once, for `interleaved`: its time gives the aggregate throughput.
    ///
    /// The threads take the calls in chunks until none are left, rather than `iterations` each:
    /// a thread on a slower processor then makes fewer, and the time reads what the threads do
    /// together. With an even split, the time was the slowest thread's, and on a machine whose
    /// processors run at different speeds that measured the gap between them, not the container.
    static func parallel(_ threads: Int, _ iterations: Int, _ body: @escaping @Sendable (_ thread: Int) throws -> AnyObject) -> () throws -> Any {
        {
            let total = threads * iterations
            let counter = WorkCounter()
            DispatchQueue.concurrentPerform(iterations: threads) { thread in
                var last: AnyObject?
                while true {
                    let start = counter.taken.add(chunk, ordering: .relaxed).oldValue
                    guard start < total else { break }
                    for _ in start..<min(start + chunk, total) { last = try? body(thread) }
                }
                withExtendedLifetime(last) {}
            }
            return ()
        }
    }

    /// One row of the table: an operation measured for Wiring, Swinject and a floor.
    struct Row {
        let name: String
        let floorName: String
        let wiring: () throws -> Any
        let swinject: () throws -> Any
        let floor: () throws -> Any
    }

    /// Runs the rows whose name starts with `only` (all when `nil`; the thread table when `nil`
    /// or "2 threads"),
    /// so that one operation can be profiled on its own.
    static func run(repetitions: Int, iterations: Int, only: String? = nil) throws {
        let wiring = try wiringContainer()
        Wiring.Container.bootstrap(wiring)
        let swinject = swinjectContainer()
        let synchronized = Synchronized(resolver: swinject.synchronize())
        let shared = Shared()
        let floor = Mutex<[ObjectIdentifier: Any]>([ObjectIdentifier(Shared.self): shared])
        let namedFloor = Mutex<[String: Any]>(["replica": shared])
        let lazyClient = LazyClient()
        _ = lazyClient.shared
        let mutexLookup: @Sendable () -> AnyObject = { floor.withLock { $0[ObjectIdentifier(Shared.self)] } as! Shared }

        let rows = [
            Row(name: "singleton resolve", floorName: "Mutex dictionary",
                wiring: loop(iterations) { try wiring.resolve(Shared.self) },
                swinject: loop(iterations) { swinject.resolve(Shared.self)! },
                floor: loop(iterations, mutexLookup)),
            Row(name: "unique, 3 dependencies", floorName: "direct init",
                wiring: loop(iterations) { try wiring.resolve(Composite.self) },
                swinject: loop(iterations) { swinject.resolve(Composite.self)! },
                floor: loop(iterations) { Composite(a: Leaf1(), b: Leaf2(), c: Leaf3()) }),
            Row(name: "unique, 3 declared dependencies", floorName: "3 resolved in code",
                wiring: loop(iterations) { try wiring.resolve(DeclaredComposite.self) },
                swinject: loop(iterations) { swinject.resolve(Composite.self)! },
                floor: loop(iterations) { try wiring.resolve(Composite.self) }),
            Row(name: "unique, 3 autowired dependencies", floorName: "3 resolved in code",
                wiring: loop(iterations) { try wiring.resolve(AutowiredComposite.self) },
                swinject: loop(iterations) { swinject.resolve(Composite.self)! },
                floor: loop(iterations) { try wiring.resolve(Composite.self) }),
            Row(name: "unique, 3 autowired through the pack", floorName: "3 resolved in code",
                wiring: loop(iterations) { try wiring.resolve(PackedComposite.self) },
                swinject: loop(iterations) { swinject.resolve(Composite.self)! },
                floor: loop(iterations) { try wiring.resolve(Composite.self) }),
            Row(name: "graph diamond (4 services)", floorName: "direct init",
                wiring: loop(iterations) { try wiring.resolve(Top.self) },
                swinject: loop(iterations) { swinject.resolve(Top.self)! },
                floor: loop(iterations) {
                    let bottom = Bottom()
                    return Top(left: Left(bottom: bottom), right: Right(bottom: bottom))
                }),
            Row(name: "named singleton", floorName: "Mutex dictionary",
                wiring: loop(iterations) { try wiring.resolve(Shared.self, name: "replica") },
                swinject: loop(iterations) { swinject.resolve(Shared.self, name: "replica")! },
                floor: loop(iterations) { namedFloor.withLock { $0["replica"] } as! Shared }),
            Row(name: "implements alias", floorName: "Mutex dictionary",
                wiring: loop(iterations) { try wiring.resolve((any Reading).self) },
                swinject: loop(iterations) { swinject.resolve((any Reading).self)! },
                floor: loop(iterations, mutexLookup)),
            Row(name: "@Injected (object init)", floorName: "Mutex dictionary",
                wiring: loop(iterations) { WrappedClient() },
                swinject: loop(iterations) { SwinjectClient(resolver: swinject) },
                floor: loop(iterations, mutexLookup)),
            Row(name: "@LazyInjected read", floorName: "Mutex dictionary",
                wiring: loop(iterations) { lazyClient.shared },
                swinject: loop(iterations) { swinject.resolve(Shared.self)! },
                floor: loop(iterations, mutexLookup)),
        ]

        var table: [[String]] = []
        func perOp(_ m: Measurement, _ count: Int = iterations) -> String {
            formatTime(m.median / Double(count)) + String(format: " ±%.0f%%", m.spread * 50)
        }
        for row in rows where only.map({ row.name.hasPrefix($0) }) ?? true {
            let (measured, ratios) = try interleaved(
                repetitions: repetitions, [("floor", row.floor), ("wiring", row.wiring), ("swinject", row.swinject)])
            table.append([
                row.name, perOp(measured[1]), perOp(measured[2]), formatTime(measured[0].median / Double(iterations)) + " (\(row.floorName))",
                String(format: "%.2f×", ratios[1]), String(format: "%.1f×", ratios[2] / ratios[1]),
            ])
        }
        if !table.isEmpty { printTable(["operation", "wiring", "swinject", "floor", "wiring/floor", "swinject/wiring"], table) }
        guard only == nil || only == "2 threads" else { return }

        // Aggregate throughput of 2 threads against 1, on the same number of calls: a ratio
        // of 2.0 is perfect scaling, 1.0 a lock that lets one thread in at a time. Each thread
        // resolves a singleton of its own; resolving the same one from both is also shown, where
        // the instance's reference count, which every resolve changes, bounces between cores.
        let floors: [ObjectIdentifier: AnyObject] = [ObjectIdentifier(PerThread0.self): PerThread0(), ObjectIdentifier(PerThread1.self): PerThread1()]
        let threadFloor = Mutex(floors)
        let ids = [ObjectIdentifier(PerThread0.self), ObjectIdentifier(PerThread1.self)]
        let own: [(String, @Sendable (Int) throws -> AnyObject)] = [
            ("wiring", { thread in
                thread == 0 ? try wiring.resolve(PerThread0.self) as AnyObject : try wiring.resolve(PerThread1.self) }),
            ("swinject (synchronized)", { thread in
                thread == 0 ? synchronized.resolver.resolve(PerThread0.self)! as AnyObject : synchronized.resolver.resolve(PerThread1.self)! }),
            ("floor: Mutex dictionary", { thread in threadFloor.withLock { $0[ids[thread]]! } }),
        ]
        let same: [(String, @Sendable (Int) throws -> AnyObject)] = [
            ("wiring, same singleton", { _ in try wiring.resolve(Shared.self) }),
            ("floor, same instance", { _ in mutexLookup() }),
        ]
        var threadRows: [[String]] = []
        for (name, body) in own + same {
            let (threaded, ratios) = try interleaved(repetitions: repetitions, [
                ("1 thread", parallel(1, iterations, body)), ("2 threads", parallel(2, iterations, body)),
            ])
            threadRows.append([name, perOp(threaded[0]), perOp(threaded[1]), String(format: "%.2f×", 2 / ratios[1])])
        }
        print()
        printTable(["2 threads resolving singletons", "1 thread", "2 threads", "throughput 2 / 1"], threadRows)
    }
}
