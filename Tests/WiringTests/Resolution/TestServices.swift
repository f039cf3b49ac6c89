import Foundation
@testable import Wiring

// Types the container fixture (Fixtures/container/app.yaml) declares.

protocol LogSink: Sendable { var level: String { get } }
protocol UserReading: Sendable { func describe() -> String }
protocol UserWriting: Sendable {}

final class Logger: LogSink, @unchecked Sendable {
    let level: String
    let port: Int
    let tags: [String]
    init(level: String, port: Int, tags: [String]) { (self.level, self.port, self.tags) = (level, port, tags) }
}

final class Clock: Sendable {}
final class RequestContext: Sendable {}
final class Handler: Sendable {
    let first: RequestContext
    let second: RequestContext
    init(first: RequestContext, second: RequestContext) { (self.first, self.second) = (first, second) }
}
final class Session: Sendable {}
final class Token: Sendable {}
final class Connection: Sendable {}

class UserStore: UserReading, UserWriting, @unchecked Sendable {
    let url: String
    init(url: String) { self.url = url }
    func describe() -> String { url }
}

final class PrefixingStore: UserStore, @unchecked Sendable {
    let inner: UserStore
    let prefix: String
    init(inner: UserStore, prefix: String) {
        (self.inner, self.prefix) = (inner, prefix)
        super.init(url: inner.url)
    }
    override func describe() -> String { prefix + inner.describe() }
}

final class Greeter: Sendable { let greeting: String; init(greeting: String) { self.greeting = greeting } }
final class Editor: Sendable {
    let id: Int
    let editing: Bool
    init(id: Int, editing: Bool) { (self.id, self.editing) = (id, editing) }
}
final class Broken: Sendable {}
final class CycleA: Sendable {}
final class CycleB: Sendable {}
struct Mismatch {}
final class SlowSingleton: Sendable {}
final class QualifiedService: Sendable {}

struct StoreUnavailable: Error, CustomStringConvertible {
    var description: String { "connection refused" }
}

/// A clock tests move by hand. (Test helpers use Wiring's pthread-based `Locked`, which
/// ThreadSanitizer understands, rather than `Synchronization.Mutex`.)
final class ManualClock: Sendable {
    private let instant = Locked(ContinuousClock.now)
    var now: ContinuousClock.Instant { instant.withLock { $0 } }
    func advance(by duration: Duration) { instant.withLock { $0 = $0.advanced(by: duration) } }
}

/// Counts how many times each factory ran.
final class BuildCounter: Sendable {
    private let counts = Locked<[String: Int]>([:])
    func tick(_ key: String) { counts.withLock { $0[key, default: 0] += 1 } }
    subscript(key: String) -> Int { counts.withLock { $0[key, default: 0] } }
}

enum Fixture {
    /// A registry with a factory for every service of the fixture, counting builds.
    static func registry(counter: BuildCounter = BuildCounter()) -> FactoryRegistry {
        let registry = FactoryRegistry()
        registry.factory("logger") { r in
            counter.tick("logger")
            return Logger(level: try r.arg("level"), port: try r.arg("port"), tags: try r.arg("tags"))
        }
        registry.factory("clock") { _ in Clock() }
        registry.factory("request-context") { _ in counter.tick("request-context"); return RequestContext() }
        registry.factory("handler") { r in
            Handler(first: try r.resolve(RequestContext.self), second: try r.resolve(RequestContext.self))
        }
        registry.factory("session") { _ in counter.tick("session"); return Session() }
        registry.factory("token") { _ in counter.tick("token"); return Token() }
        registry.factory("connection") { _ in counter.tick("connection"); return Connection() }
        registry.factory("user-store") { r in UserStore(url: try r.arg("url")) }
        registry.factory("archive-store") { _ in UserStore(url: "archive") }
        registry.factory("prefixing-store") { r in
            PrefixingStore(inner: try r.decorated(UserStore.self), prefix: try r.arg("prefix"))
        }
        registry.factory("greeter") { r in Greeter(greeting: try r.arg("greeting")) }
        registry.factory("editor") { r in Editor(id: try r.argument(0), editing: try r.argument(1)) }
        registry.factory("broken") { _ -> Broken in throw StoreUnavailable() }
        registry.factory("cycle-a") { r in _ = try r.resolve(CycleB.self); return CycleA() }
        registry.factory("cycle-b") { r in _ = try r.resolve(CycleA.self); return CycleB() }
        registry.factory("mismatch") { _ in "not a Mismatch" }
        registry.factory("slow") { _ in
            counter.tick("slow")
            Thread.sleep(forTimeInterval: 0.05)
            return SlowSingleton()
        }
        registry.factory("qualified") { _ in QualifiedService() }
        return registry
    }

    static func container(
        counter: BuildCounter = BuildCounter(), clock: ManualClock = ManualClock(), environment: [String: String] = [:]
    ) throws -> Container {
        try Container(
            manifest: TestSupport.fixture("container/app.yaml"), registry: registry(counter: counter), contexts: .none,
            options: Container.Options(environment: environment, now: { clock.now }))
    }
}
