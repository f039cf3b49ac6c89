import Foundation
import Wiring

// Factories that resolve through the container they were registered for, not through their
// context: each such resolve starts a resolution of its own, whose path cannot show a cycle
// with the one below it on the thread. A wait for a build of that one must still be an error,
// not a deadlock; run in a process of its own so that a deadlock cannot keep a test process
// from ending.

/// A service whose factory resolves itself through the container.
final class ProbeSelf: Sendable {
    init(again: ProbeSelf?) {}
}

/// A singleton whose factory resolves, through the container, a plain `unique` service
/// (resolved in one step) whose factory resolves the singleton through its context.
final class ProbeHub: Sendable {
    init(spoke: ProbeSpoke) {}
}
final class ProbeSpoke: Sendable {
    init(hub: ProbeHub) {}
}

/// The container, set once built, for the factories that capture it.
final class ContainerHolder: @unchecked Sendable {
    var container: Container?
}

/// Prints each case's outcome: one thread resolving a service whose factory resolves it again
/// through the container; the same through a plain `unique` service; one thread where the parent's factory resolves the child through the
/// container and the child's factory resolves the parent through its context; and two threads
/// entering that pair from both ends.
func runCyclesThroughTheContainer() {
    let holder = ContainerHolder()
    let meeting = Meeting()
    let meets = Locked(false)
    let registry = FactoryRegistry()
    registry.factory("self") { _ in ProbeSelf(again: try holder.container!.resolve(ProbeSelf.self)) }
    registry.factory("hub") { _ in ProbeHub(spoke: try holder.container!.resolve(ProbeSpoke.self)) }
    registry.factory("spoke") { r in ProbeSpoke(hub: try r.resolve(ProbeHub.self)) }
    registry.factory("parent") { _ in
        if meets.withLock({ $0 }) { meeting.meet() }
        let parent = ProbeParent()
        parent.child = try holder.container!.resolve(ProbeChild.self)
        return parent
    }
    registry.factory("child") { r in
        if meets.withLock({ $0 }) { meeting.meet() }
        return ProbeChild(parent: try r.resolve(ProbeParent.self))
    }
    let services = "services:\n  ProbeSelf: { factory: self, scope: singleton }\n"
        + "  ProbeHub: { factory: hub, scope: singleton }\n  ProbeSpoke: { factory: spoke, scope: unique }\n"
        + "  ProbeParent: { factory: parent, scope: singleton }\n  ProbeChild: { factory: child, scope: singleton }\n"
    let container = try! Container(manifest: temporaryManifest(services), registry: registry, contexts: .none)
    holder.container = container

    print("self: \(outcome { try container.resolve(ProbeSelf.self) })")
    print("unique: \(outcome { try container.resolve(ProbeHub.self) })")
    print("pair: \(outcome { try container.resolve(ProbeParent.self) })")

    meets.withLock { $0 = true }
    let outcomes = Locked<[String: String]>([:])
    let done = DispatchGroup()
    for side in ["parent", "child"] {
        done.enter()
        Thread.detachNewThread {
            let result = outcome { side == "parent" ? try container.resolve(ProbeParent.self) as Any : try container.resolve(ProbeChild.self) }
            outcomes.withLock { $0[side] = result }
            done.leave()
        }
    }
    done.wait()
    for (side, result) in outcomes.withLock({ $0 }).sorted(by: { $0.key > $1.key }) { print("\(side) thread: \(result)") }
}

/// What `body` returned ("ok") or threw.
private func outcome(_ body: () throws -> Any) -> String {
    do { _ = try body(); return "ok" } catch { return "\(error)" }
}

/// A value behind a lock, for the probe's threads.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<R>(_ body: (inout Value) -> R) -> R { lock.withLock { body(&value) } }
}
