import Foundation
import Testing
@testable import Wiring

/// Services of the lazy-wrapper tests: each build is counted.
final class Report: @unchecked Sendable {}
final class Ledgerbook: @unchecked Sendable {}

/// Holders whose lazy properties many threads read for the first time at once.
final class ReportScreen: @unchecked Sendable {
    @LazyInjected var report: Report
    @WeakLazyInjected var weakReport: Report?
    init() {}
}

/// A lazy wrapper's first read resolves exactly once, however many threads read it at that
/// moment; the others wait for its value or take its error; a cycle through lazy reads is an
/// error, on one thread or across threads, never a deadlock.
@Suite("Lazy wrappers resolve once")
struct LazyWrapperTests {
    /// Runs `body(i)` on `count` threads released at the same moment; false when they did not
    /// all finish within `timeout` (a deadlock). Waits on a thread of its own, not one of the
    /// cooperative pool's.
    func onThreads(_ count: Int, timeout: DispatchTime = .now() + 20, _ body: @escaping @Sendable (Int) -> Void) async -> Bool {
        let arrived = Locked(0)
        let done = DispatchGroup()
        for index in 0..<count {
            done.enter()
            Thread.detachNewThread {
                arrived.withLock { $0 += 1 }
                while arrived.withLock({ $0 }) < count {}
                body(index)
                done.leave()
            }
        }
        return await TestSupport.onThreadOfItsOwn { done.wait(timeout: timeout) == .success }
    }

    func container(_ counter: BuildCounter, yaml: String? = nil, registry: FactoryRegistry = FactoryRegistry()) throws -> Container {
        registry.factory("report") { _ in
            counter.tick("report")
            Thread.sleep(forTimeInterval: 0.000_5)   // a window for the other readers
            return Report()
        }
        return try Container(manifest: try TestSupport.temporaryFile(yaml ?? """
            wiring: 1
            services:
              Report: { factory: report }
            """), registry: registry, contexts: .none)
    }

    /// 8 threads read a fresh holder's lazy properties at once, 50 times: the unique service's
    /// factory runs once per property and round, and every reader gets the same instance.
    @Test func manyThreadsFirstReadingALazyPropertyResolveItOnce() async throws {
        let counter = BuildCounter()
        let container = try container(counter)
        let rounds = 50, threads = 8
        for round in 1...rounds {
            let screen = Container.using(container) { ReportScreen() }
            let seen = Locked<Set<ObjectIdentifier>>([])
            #expect(await onThreads(threads) { _ in
                let report = screen.report
                seen.withLock { _ = $0.insert(ObjectIdentifier(report)) }
                _ = screen.weakReport
            })
            #expect(seen.withLock { $0.count } == 1)
            #expect(counter["report"] == 2 * round, "round \(round)")
        }
    }

    /// A lazy injection whose resolve `make` is the test's: its readers' results are seen.
    func injection(from container: Container, _ make: @escaping @Sendable () throws(ResolutionError) -> Report) -> LazyInjection<Report> {
        LazyInjection(name: nil, container: container) { _, _, _ throws(ResolutionError) in try make() }
    }

    @Test func readersAtTheSameMomentTakeTheFirstReadsErrorAndALaterReadTriesAgain() async throws {
        let container = try container(BuildCounter())
        let calls = Locked(0), entered = Locked(0)
        let threads = 8
        let lazy = injection(from: container) { () throws(ResolutionError) -> Report in
            let call = calls.withLock { $0 += 1; return $0 }
            guard call == 1 else { return Report() }
            // Fails once every reader has asked and had time to wait.
            while entered.withLock({ $0 }) < threads {}
            Thread.sleep(forTimeInterval: 0.1)
            throw ResolutionError(.circularDependency, message: "the first read failed", path: [])
        }
        let results = Locked<[Result<Report, ResolutionError>]>([])
        #expect(await onThreads(threads) { _ in
            entered.withLock { $0 += 1 }
            let result = lazy.read(from: container, name: nil)
            results.withLock { $0.append(result) }
        })
        let messages = results.withLock { $0 }.map { result -> String in
            if case .failure(let error) = result { return error.message }
            return "resolved"
        }
        #expect(messages == Array(repeating: "the first read failed", count: threads))
        #expect(calls.withLock { $0 } == 1)
        // The next read resolves anew.
        guard case .success = lazy.read(from: container, name: nil) else { Issue.record("a later read did not resolve"); return }
        #expect(calls.withLock { $0 } == 2)
    }

    @Test func aLazyPropertyReadAgainWhileItsFirstReadResolvesIsACycle() throws {
        let registry = FactoryRegistry()
        let inner = Locked<Result<Report, ResolutionError>?>(nil)
        let lazy = Locked<LazyInjection<Report>?>(nil)
        registry.factory("ledgerbook") { r in
            let container = r.container
            inner.withLock { $0 = lazy.withLock { $0 }?.read(from: container, name: nil) }
            return Ledgerbook()
        }
        let container = try container(BuildCounter(), yaml: """
            wiring: 1
            services:
              Report: { factory: report }
              Ledgerbook: { factory: ledgerbook }
            """, registry: registry)
        let reading = LazyInjection<Report>(name: nil, container: container) { container, name, state throws(ResolutionError) in
            _ = try container.resolve(Ledgerbook.self, name: name, in: state)
            return Report()
        }
        lazy.withLock { $0 = reading }
        guard case .success = reading.read(from: container, name: nil) else { Issue.record("the outer read failed"); return }
        guard case .failure(let error) = inner.withLock({ $0 }) else { Issue.record("the read again was not refused"); return }
        #expect(Self.isCircular(error))
        #expect(error.message.hasPrefix("circular dependency through a lazily injected Report: Ledgerbook ("), "\(error.message)")
    }

    /// Two threads each first-read one lazy property whose resolve reads the other's: one of
    /// them meets a cycle error, and both finish.
    @Test func aCycleThroughLazyReadsOnTwoThreadsIsAnErrorNotADeadlock() async throws {
        let registry = FactoryRegistry()
        let lazies = Locked<[LazyInjection<Report>]>([])
        let inFactory = Locked(0)
        let inner = Locked<[Result<Report, ResolutionError>]>([])
        registry.factory("ledgerbook") { r in
            let index = try r.arg("other", as: Int.self)
            inFactory.withLock { $0 += 1 }
            while inFactory.withLock({ $0 }) < 2 {}
            return try Self.build(reading: lazies.withLock { $0[index] }, from: r.container, into: inner)
        }
        let container = try container(BuildCounter(), yaml: """
            wiring: 1
            services:
              Report: { factory: report }
              Ledgerbook: { factory: ledgerbook, args: { other: 1 }, names: { second: { args: { other: 0 } } } }
            """, registry: registry)
        for variant in [nil, "second"] as [String?] {
            lazies.withLock {
                $0.append(LazyInjection(name: nil, container: container) { container, _, state throws(ResolutionError) in
                    _ = try container.resolve(Ledgerbook.self, name: variant, in: state)
                    return Report()
                })
            }
        }
        let outer = Locked<[Result<Report, ResolutionError>]>([])
        #expect(await onThreads(2) { index in
            let lazy = lazies.withLock { $0[index] }
            let result = lazy.read(from: container, name: nil)
            outer.withLock { $0.append(result) }
        })
        let errors = (inner.withLock { $0 } + outer.withLock { $0 }).compactMap { result -> ResolutionError? in
            if case .failure(let error) = result { return error }
            return nil
        }
        #expect(errors.contains { Self.isCircular($0) })
    }

    /// A lazy read whose resolve waits for a singleton that another thread builds, which reads
    /// that lazy property: a cycle across the wrapper and the kept service, refused, not hung.
    @Test func aCycleThroughALazyReadAndASingletonOnTwoThreadsIsAnErrorNotADeadlock() async throws {
        let registry = FactoryRegistry()
        let lazy = Locked<LazyInjection<Report>?>(nil)
        let archiveStarted = Locked(false), lazyStarted = Locked(false)
        let inner = Locked<[Result<Report, ResolutionError>]>([])
        registry.factory("ledgerbook") { r in
            archiveStarted.withLock { $0 = true }
            while !lazyStarted.withLock({ $0 }) {}
            Thread.sleep(forTimeInterval: 0.01)
            return try Self.build(reading: lazy.withLock { $0 }!, from: r.container, into: inner)
        }
        let container = try container(BuildCounter(), yaml: """
            wiring: 1
            services:
              Report: { factory: report }
              Ledgerbook: { factory: ledgerbook, scope: singleton }
            """, registry: registry)
        let reading = LazyInjection<Report>(name: nil, container: container) { container, name, state throws(ResolutionError) in
            lazyStarted.withLock { $0 = true }
            _ = try container.resolve(Ledgerbook.self, name: name, in: state)
            return Report()
        }
        lazy.withLock { $0 = reading }
        let results = Locked<[String]>([])
        #expect(await onThreads(2) { index in
            if index == 0 {
                let built = Result { () throws(ResolutionError) in try container.resolve(Ledgerbook.self) }
                results.withLock { $0.append(Self.outcome("ledgerbook", built)) }
            } else {
                while !archiveStarted.withLock({ $0 }) {}
                results.withLock { $0.append(Self.outcome("lazy", reading.read(from: container, name: nil))) }
            }
        })
        #expect(results.withLock { $0.count } == 2)
        #expect(results.withLock { $0 }.contains { $0.hasSuffix("failed") })
        // The singleton's factory read the lazy property: the cycle, or the lazy read's error
        // that the cycle caused, is what it got.
        #expect(inner.withLock { $0 }.contains { result in
            if case .failure(let error) = result { return Self.isCircular(error) }
            return false
        })
    }

    /// What a factory that reads `lazy` builds: it records what the read gave, and fails with
    /// its error.
    static func build(reading lazy: LazyInjection<Report>, from container: Container,
                      into results: Locked<[Result<Report, ResolutionError>]>) throws -> Ledgerbook {
        let result = lazy.read(from: container, name: nil)
        results.withLock { $0.append(result) }
        if case .failure(let error) = result { throw error }
        return Ledgerbook()
    }

    static func isCircular(_ error: ResolutionError) -> Bool {
        if case .circularDependency = error.kind { return true }
        return false
    }

    static func outcome<T>(_ what: String, _ result: Result<T, ResolutionError>) -> String {
        switch result {
        case .success: "\(what): resolved"
        case .failure: "\(what): failed"
        }
    }
}
