import Dispatch
import Foundation
import Swinject
import Synchronization
import Wiring

// The request graph: a unit of work per request, with a connection of the same request and the
// process's pool.
final class RequestPool: Sendable {}
final class RequestConnection: Sendable {}
final class RequestUnit: Sendable {
    let connection: RequestConnection, pool: RequestPool
    init(connection: RequestConnection, pool: RequestPool) { (self.connection, self.pool) = (connection, pool) }
}
/// The same graph resolved as `unique`, for the request row's baseline.
final class UniqueConnection: Sendable {}
final class UniqueUnit: Sendable {
    let connection: UniqueConnection, pool: RequestPool
    init(connection: UniqueConnection, pool: RequestPool) { (self.connection, self.pool) = (connection, pool) }
}
/// A singleton whose factory awaits, for the cold-start row.
final class ColdPool: Sendable {}
/// A request as the notes server example serves one: the request log is seeded into the scope,
/// an async factory reads three `!service` arguments (the pool, and two scoped services), and
/// the unit of work has a shutdown hook.
final class RequestLog: Sendable {}
final class RequestWork: Sendable {
    let log: RequestLog
    init(log: RequestLog) { self.log = log }
    func end() {}
}
final class RequestQueries: Sendable {
    let pool: RequestPool, work: RequestWork, log: RequestLog
    init(pool: RequestPool, work: RequestWork, log: RequestLog) { (self.pool, self.work, self.log) = (pool, work, log) }
}

/// A service with an async initializer and three class dependencies, built by a closure that
/// awaits each, the same autowired (`registry.autowire`, an async form of fixed arity), and the
/// same autowired through the parameter pack's form (which seven parameters or more reach).
final class AwaitedComposite: Sendable {
    let a: Leaf1, b: Leaf2, c: Leaf3
    init(a: Leaf1, b: Leaf2, c: Leaf3) async { (self.a, self.b, self.c) = (a, b, c) }
}
final class AwaitedAutowiredComposite: Sendable {
    let a: Leaf1, b: Leaf2, c: Leaf3
    init(a: Leaf1, b: Leaf2, c: Leaf3) async { (self.a, self.b, self.c) = (a, b, c) }
}
final class AwaitedPackedComposite: Sendable {
    let a: Leaf1, b: Leaf2, c: Leaf3
    init(a: Leaf1, b: Leaf2, c: Leaf3) async { (self.a, self.b, self.c) = (a, b, c) }
}

/// The actor the isolated rows' initializers run on (the main actor's thread is the benchmark's).
@globalActor actor BenchmarkActor {
    static let shared = BenchmarkActor()
}

/// A service whose initializer is isolated to a global actor: built by a closure isolated to it
/// that resolves its three dependencies, and autowired (`registry.autowire(key, isolated:)`,
/// a parameter pack's form).
@BenchmarkActor final class IsolatedComposite: Sendable {
    let a: Leaf1, b: Leaf2, c: Leaf3
    init(a: Leaf1, b: Leaf2, c: Leaf3) { (self.a, self.b, self.c) = (a, b, c) }
}
@BenchmarkActor final class IsolatedAutowiredComposite: Sendable {
    let a: Leaf1, b: Leaf2, c: Leaf3
    init(a: Leaf1, b: Leaf2, c: Leaf3) { (self.a, self.b, self.c) = (a, b, c) }
}

/// `await` resolves, request scopes and an async singleton's first build under contention.
enum AsyncBenchmark {
    static let manifest = """
        wiring: 1
        services:
          Shared: { factory: shared, scope: singleton }
          RequestPool: { factory: pool, scope: singleton }
          RequestConnection: { factory: connection, scope: scoped }
          RequestUnit: { factory: unit, scope: scoped }
          UniqueConnection: { factory: unique-connection, scope: unique }
          UniqueUnit: { factory: unique-unit, scope: unique }
          ColdPool: { factory: cold-pool, scope: singleton }
          Leaf1: { factory: leaf1, scope: unique }
          Leaf2: { factory: leaf2, scope: unique }
          Leaf3: { factory: leaf3, scope: unique }
          AwaitedComposite: { factory: awaited-composite, scope: unique }
          AwaitedAutowiredComposite: { factory: awaited-autowired-composite, scope: unique }
          AwaitedPackedComposite: { factory: awaited-packed-composite, scope: unique }
          IsolatedComposite: { factory: isolated-composite, scope: unique }
          IsolatedAutowiredComposite: { factory: isolated-autowired-composite, scope: unique }
          RequestLog: { factory: request-log, scope: scoped }
          RequestWork: { factory: request-work, scope: scoped, args: { log: !service RequestLog } }
          RequestQueries:
            factory: request-queries
            scope: scoped
            args: { pool: !service RequestPool, work: !service RequestWork, log: !service RequestLog }
        """

    /// Builds of `ColdPool`, counted by its factory.
    static let coldBuilds = Atomic<Int>(0)

    static func wiringContainer(options: Wiring.Container.Options = .init()) throws -> Wiring.Container {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("wiring-bench-async-\(UUID().uuidString).yaml").path
        try manifest.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let registry = FactoryRegistry()
        registry.factory("shared") { _ in Shared() }
        registry.factory("pool") { _ in RequestPool() }
        registry.factory("connection") { _ in RequestConnection() }
        registry.factory("unit") { r in RequestUnit(connection: try r.resolve(), pool: try r.resolve()) }
        registry.factory("unique-connection") { _ in UniqueConnection() }
        registry.factory("unique-unit") { r in UniqueUnit(connection: try r.resolve(), pool: try r.resolve()) }
        registry.factory("request-log") { _ in RequestLog() }
        registry.factory("request-work") { r in RequestWork(log: try r.arg("log")) }.onShutdown { work in work.end() }
        registry.factory("request-queries") { r in
            RequestQueries(pool: try r.arg("pool"), work: try r.arg("work"), log: try r.arg("log"))
        }
        registry.factory("leaf1") { _ in Leaf1() }
        registry.factory("leaf2") { _ in Leaf2() }
        registry.factory("leaf3") { _ in Leaf3() }
        registry.factory("awaited-composite") { r in
            await AwaitedComposite(a: try await r.resolve(), b: try await r.resolve(), c: try await r.resolve())
        }
        registry.autowire("awaited-autowired-composite", AwaitedAutowiredComposite.init)
        ResolutionBenchmark.autowireThroughThePack(registry, "awaited-packed-composite", AwaitedPackedComposite.init)
        registry.factory("isolated-composite") { @BenchmarkActor r in
            IsolatedComposite(a: try r.resolve(), b: try r.resolve(), c: try r.resolve())
        }
        registry.autowire("isolated-autowired-composite", isolated: IsolatedAutowiredComposite.init)
        registry.factory("cold-pool") { _ in
            coldBuilds.add(1, ordering: .relaxed)
            try await Task.sleep(for: .milliseconds(10))
            return ColdPool()
        }
        return try Wiring.Container(manifest: path, registry: registry, contexts: .none, options: options)
    }

    /// A Swinject parent with the pool, and a child container made per request, as Swinject's
    /// documentation scopes objects to a request.
    static func swinjectParent() -> Swinject.Container {
        let parent = Swinject.Container()
        parent.register(RequestPool.self) { _ in RequestPool() }.inObjectScope(.container)
        return parent
    }

    static func swinjectRequest(_ parent: Swinject.Container) -> RequestUnit {
        let child = Swinject.Container(parent: parent)
        child.register(RequestConnection.self) { _ in RequestConnection() }.inObjectScope(.container)
        child.register(RequestUnit.self) { r in
            RequestUnit(connection: r.resolve(RequestConnection.self)!, pool: r.resolve(RequestPool.self)!)
        }.inObjectScope(.container)
        return child.resolve(RequestUnit.self)!
    }

    /// Runs `body` in a task and waits for it: the benchmark's rows are closures of the
    /// synchronous harness, and the wait is one per row run, not one per operation.
    /// `iterations` awaited resolves of `T` from `wiring`, in one task the caller blocks on.
    static func awaitedLoop<T: Sendable>(_ iterations: Int, _ wiring: Wiring.Container, _ type: T.Type) -> () throws -> Any {
        {
            try blocking { () async throws -> T in
                var last: T?
                for _ in 0..<iterations { last = try await wiring.resolve(T.self) }
                return last!
            }
        }
    }

    static func blocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
        let result = Mutex<Result<T, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            let outcome: Result<T, any Error>
            do { outcome = .success(try await body()) } catch { outcome = .failure(error) }
            result.withLock { $0 = outcome }
            done.signal()
        }
        done.wait()
        return try result.withLock { $0! }.get()
    }

    /// `--profile-requests N`: only N requests through a scope (or, `unique`, N resolves of the
    /// same graph as `unique`; `served`, N requests as the notes server example serves them),
    /// for a profiler.
    ///
    /// `cold`: 4 MiB are read before each request, by ``CacheCooler/cool()``, so that a cache
    /// simulator with a last level of 1 MiB (`valgrind --tool=cachegrind --cache-sim=yes
    /// --LL=1048576,16,64`) misses on each line the request touches: its footprint, what a
    /// request pays on a loaded server. `byHand`: the served request's services made by hand.
    /// `observed`: the container has an observer that does nothing.
    static func profileRequests(_ count: Int, unique: Bool, served: Bool = false, cold: Bool = false, byHand: Bool = false,
                                observed: Bool = false) throws {
        let wiring = try wiringContainer(options: observed ? .init(observers: [SilentObserver()]) : .init())
        let cooler = cold ? CacheCooler(bytes: 4 << 20) : nil
        let pool = try wiring.resolve(RequestPool.self)
        _ = try blocking { () async throws -> Int in
            for _ in 0..<count {
                cooler?.cool()
                if byHand {
                    let log = RequestLog()
                    let work = RequestWork(log: log)
                    _ = RequestQueries(pool: pool, work: work, log: log)
                    work.end()
                } else if served {
                    _ = try await wiring.withScope { scope in
                        try scope.seed(RequestLog())
                        return try await scope.resolve(RequestQueries.self)
                    }
                } else if unique {
                    _ = try wiring.resolveSynchronously(UniqueUnit.self)
                } else {
                    _ = try await wiring.withScope { scope in try await scope.resolve(RequestUnit.self) }
                }
            }
            return count
        }
    }

    static func run(repetitions: Int, iterations: Int) throws {
        let wiring = try wiringContainer()
        let parent = swinjectParent()
        _ = try wiring.resolve(Shared.self)
        let requests = max(iterations / 20, 1)

        var table: [[String]] = []
        func perOp(_ m: Measurement, _ count: Int) -> String {
            formatTime(m.median / Double(count)) + String(format: " ±%.0f%%", m.spread * 50)
        }
        let (resolves, resolveRatios) = try interleaved(repetitions: repetitions, [
            ("sync", ResolutionBenchmark.loop(iterations) { try wiring.resolve(Shared.self) }),
            ("await", { () throws -> Any in
                try blocking { () async throws -> Shared in
                    var last: Shared?
                    for _ in 0..<iterations { last = try await wiring.resolve(Shared.self) }
                    return last!
                }
            }),
        ])
        table.append(["await singleton resolve", perOp(resolves[1], iterations), perOp(resolves[0], iterations) + " (sync resolve)",
                      String(format: "%.2f×", resolveRatios[1])])

        let (built, builtRatios) = try interleaved(repetitions: repetitions, [
            ("closure", awaitedLoop(iterations, wiring, AwaitedComposite.self)),
            ("autowired", awaitedLoop(iterations, wiring, AwaitedAutowiredComposite.self)),
            ("packed", awaitedLoop(iterations, wiring, AwaitedPackedComposite.self)),
        ])
        table.append(["await unique, 3 autowired (async init)", perOp(built[1], iterations),
                      perOp(built[0], iterations) + " (3 awaited in code)", String(format: "%.2f×", builtRatios[1])])
        table.append(["  the same through the pack", perOp(built[2], iterations),
                      perOp(built[0], iterations) + " (3 awaited in code)", String(format: "%.2f×", builtRatios[2])])
        let (isolated, isolatedRatios) = try interleaved(repetitions: repetitions, [
            ("closure", awaitedLoop(iterations, wiring, IsolatedComposite.self)),
            ("autowired", awaitedLoop(iterations, wiring, IsolatedAutowiredComposite.self)),
        ])
        table.append(["await unique, 3 autowired (isolated init)", perOp(isolated[1], iterations),
                      perOp(isolated[0], iterations) + " (isolated closure)", String(format: "%.2f×", isolatedRatios[1])])

        let (scoped, scopedRatios) = try interleaved(repetitions: repetitions, [
            ("unique", ResolutionBenchmark.loop(requests) { try wiring.resolve(UniqueUnit.self) }),
            ("scope", { () throws -> Any in
                try blocking { () async throws -> RequestUnit in
                    var last: RequestUnit?
                    for _ in 0..<requests {
                        last = try await wiring.withScope { scope in try await scope.resolve(RequestUnit.self) }
                    }
                    return last!
                }
            }),
            ("swinject", ResolutionBenchmark.loop(requests) { swinjectRequest(parent) }),
        ])
        table.append(["request: scope, scoped + 2 deps, end", perOp(scoped[1], requests), perOp(scoped[0], requests) + " (same graph, unique)",
                      String(format: "%.2f×", scopedRatios[1])])
        table.append(["  Swinject child container, same request", perOp(scoped[2], requests), "",
                      String(format: "%.1f× slower than Wiring", scopedRatios[2] / scopedRatios[1])])
        printTable(["operation", "wiring", "baseline", "wiring/baseline"], table)

        // 1,000 tasks awaiting a cold async singleton at once: one build, and the threads that
        // ran the waiters are the cooperative pool's (one per core).
        let threads = ThreadSet()
        let clock = ContinuousClock(), start = clock.now
        let distinct = try blocking {
            try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
                for _ in 0..<1_000 {
                    group.addTask {
                        let pool = try await wiring.resolve(ColdPool.self)
                        threads.insertCurrent()
                        return ObjectIdentifier(pool)
                    }
                }
                return try await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }.count
            }
        }
        let elapsed = clock.now - start
        print()
        print("1,000 tasks awaiting a cold async singleton (its factory sleeps 10 ms): \(coldBuilds.load(ordering: .relaxed)) build, "
              + "\(distinct) instance, \(threads.count) threads ran the waiters "
              + "(\(ProcessInfo.processInfo.activeProcessorCount) cores), \(elapsed) in all")
    }
}

/// The threads that ran something, by their pthread identity.
final class ThreadSet: Sendable {
    private let threads = Mutex<Set<String>>([])
    func insertCurrent() { threads.withLock { _ = $0.insert("\(pthread_self())") } }
    var count: Int { threads.withLock { $0.count } }
}

extension Wiring.Container {
    /// The synchronous `resolve`, from async code (where Swift picks the async one).
    func resolveSynchronously<T>(_ type: T.Type) throws -> T { try resolve(type) }
}

/// Evicts a cache of up to the buffer's size by reading the buffer a cache line at a time.
final class CacheCooler: @unchecked Sendable {
    private let words: UnsafeMutableBufferPointer<UInt64>
    /// What the reads added up: kept, so that they are not optimized away.
    private(set) var checksum: UInt64 = 0

    init(bytes: Int) {
        words = .allocate(capacity: bytes / 8)
        words.initialize(repeating: 1)
    }

    deinit { words.deallocate() }

    @inline(never)
    func cool() {
        var index = 0
        while index < words.count {
            checksum &+= words[index]
            index += 8
        }
    }
}
