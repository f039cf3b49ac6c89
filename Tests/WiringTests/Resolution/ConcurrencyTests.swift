import Foundation
import Testing
@testable import Wiring

@Suite("Concurrency")
struct ConcurrencyTests {
    @Test func aSlowSingletonFirstResolvedByManyThreadsIsBuiltOnce() throws {
        let counter = BuildCounter()
        let container = try Fixture.container(counter: counter)
        let results = ResultsBox()
        DispatchQueue.concurrentPerform(iterations: 32) { _ in
            results.add(try? container.resolve(SlowSingleton.self))
        }
        #expect(counter["slow"] == 1)
        #expect(results.identities.count == 1)
        #expect(results.count == 32)
    }

    @Test func factoriesResolvingDependenciesFromManyThreadsDoNotDeadlock() throws {
        let container = try Fixture.container()
        DispatchQueue.concurrentPerform(iterations: 64) { index in
            _ = try? container.resolve(Handler.self)
            _ = try? container.resolve(UserStore.self, name: index.isMultiple(of: 2) ? "replica" : "archive")
            _ = try? container.resolve(Logger.self)
        }
        #expect(try container.resolve(UserStore.self).describe() == "cache:log:postgres://primary")
    }

    @Test func aSlowFactoryDoesNotBlockUnrelatedResolutions() throws {
        // The slow factory holds until the test opens the gate, which it does only after
        // resolving other services: if those waited for the slow one, the gate would time out.
        let entered = DispatchSemaphore(value: 0)
        let gate = DispatchSemaphore(value: 0)
        let timedOut = BuildCounter()
        let registry = Fixture.registry()
        registry.factory("slow", overriding: true) { _ in
            entered.signal()
            if gate.wait(timeout: .now() + 10) == .timedOut { timedOut.tick("gate") }
            return SlowSingleton()
        }
        let container = try Container(manifest: TestSupport.fixture("container/app.yaml"), registry: registry, contexts: .none)
        let finished = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            _ = try? container.resolve(SlowSingleton.self)
            finished.signal()
        }
        entered.wait()
        _ = try container.resolve(Logger.self)
        _ = try container.resolve(UserStore.self)
        _ = try container.resolve(Handler.self)
        gate.signal()
        finished.wait()
        #expect(timedOut["gate"] == 0)
    }
}

/// Collects results from many threads.
private final class ResultsBox: @unchecked Sendable {
    private let lock = NSLock()
    private var objects: [ObjectIdentifier] = []
    func add(_ object: AnyObject?) {
        lock.lock()
        defer { lock.unlock() }
        if let object { objects.append(ObjectIdentifier(object)) }
    }
    var identities: Set<ObjectIdentifier> { lock.lock(); defer { lock.unlock() }; return Set(objects) }
    var count: Int { lock.lock(); defer { lock.unlock() }; return objects.count }
}
