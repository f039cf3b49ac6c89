import Foundation
import Testing
@testable import Wiring

/// Many threads, every scope, resets racing resolves, containers built and dropped at once.
/// Meant to run under ThreadSanitizer (`.ci/run` does) as well as plainly.
@Suite("Concurrency stress")
struct StressTests {
    @Test func everyScopeUnderRacingResolvesAndResets() throws {
        let counter = BuildCounter()
        let clock = ManualClock()
        let container = try Fixture.container(counter: counter, clock: clock)
        let failures = FailureCount()
        DispatchQueue.concurrentPerform(iterations: 16) { worker in
            for round in 0..<200 {
                do {
                    switch (worker + round) % 9 {
                    case 0: _ = try container.resolve(Logger.self)
                    case 1: _ = try container.resolve(Clock.self)
                    case 2: _ = try container.resolve(Handler.self)
                    case 3: _ = try container.resolve(Token.self)
                    case 4: _ = try container.resolve(Session.self)
                    case 5: _ = try container.resolve(Connection.self)
                    case 6: _ = try container.resolve(UserStore.self, name: round.isMultiple(of: 2) ? "replica" : "archive")
                    case 7: _ = try container.resolve((any UserReading).self)
                    default:
                        switch round % 4 {
                        case 0: container.reset()
                        case 1: container.reset(scope: .cached)
                        case 2: container.reset(service: "Logger")
                        default: clock.advance(by: .seconds(31))
                        }
                    }
                } catch {
                    failures.add()
                }
            }
        }
        #expect(failures.count == 0)
        // After the storm, the rules still hold.
        #expect(try container.resolve(Logger.self) === container.resolve(Logger.self))
        #expect(try container.resolve(Clock.self) !== container.resolve(Clock.self))
    }

    @Test func containersBuiltAndDroppedConcurrently() throws {
        let manifest = try ManifestLoader(environment: [:]).load(TestSupport.fixture("container/app.yaml"))
        let failures = FailureCount()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<25 {
                do {
                    let container = try Container(manifest: manifest, registry: Fixture.registry(), contexts: .none,
                                                  options: .init(environment: [:]))
                    _ = try container.resolve(UserStore.self).describe()
                    _ = try container.resolve(Handler.self)
                    Container.using(container) { _ = Injected<Logger>().wrappedValue }
                } catch {
                    failures.add()
                }
            }
        }
        #expect(failures.count == 0)
    }

    @Test func typesFirstLookedUpByManyThreadsWhileTheTableGrows() throws {
        // 200 distinct types ([Int], [[Int]], …), none declared, looked up for the first time by
        // 8 threads in different orders, between resolves of declared ones: the lock-free type
        // table grows several times while others read it.
        func nested(_ type: Any.Type, depth: Int) -> Any.Type {
            func wrap<T>(_: T.Type) -> Any.Type { [T].self }
            var current = type
            for _ in 0..<depth { current = _openExistential(current, do: wrap) }
            return current
        }
        let types = (1...200).map { nested(Int.self, depth: $0) }
        let container = try Fixture.container()
        let wrong = FailureCount()
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for step in 0..<types.count {
                let type = types[(step * (thread + 1) * 7 + thread) % types.count]
                if container.isDeclared(type) { wrong.add() }
                if !container.isDeclared(Clock.self) || (try? container.resolve(Clock.self)) == nil { wrong.add() }
            }
        }
        #expect(wrong.count == 0)
        #expect(types.allSatisfy { !container.isDeclared($0) })
    }

    @Test func aSingletonFirstAskedForByManyThreadsAfterResetsIsBuiltOncePerReset() throws {
        let counter = BuildCounter()
        let container = try Fixture.container(counter: counter)
        for generation in 1...5 {
            DispatchQueue.concurrentPerform(iterations: 16) { _ in _ = try? container.resolve(SlowSingleton.self) }
            #expect(counter["slow"] == generation)
            container.reset(service: "SlowSingleton")
        }
    }
}

/// Failures counted across threads.
final class FailureCount: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func add() { lock.withLock { value += 1 } }
    var count: Int { lock.withLock { value } }
}
