import Foundation
import Wiring

// Two threads that each build one end of a cycle of singletons and then wait for the other's:
// the wait that closes the cycle must be an error (or, through a property hook, be handed the
// instance being built), never a deadlock. Run in a process of its own: a deadlock blocks two
// threads for good, which would keep a test process from ever ending; here the test stops the
// process after its timeout and reports it.

final class ProbeParent: @unchecked Sendable {
    var child: ProbeChild?
}

final class ProbeChild: Sendable {
    let parent: ProbeParent
    init(parent: ProbeParent) { self.parent = parent }
}

/// Two parties meeting: each `meet()` returns once both arrived (or after 10 seconds, said on
/// stderr), and every later one at once.
final class Meeting: @unchecked Sendable {
    private let condition = NSCondition()
    private var arrived = 0

    func meet() {
        condition.lock()
        defer { condition.unlock() }
        arrived += 1
        condition.broadcast()
        let deadline = Date(timeIntervalSinceNow: 10)
        while arrived < 2 {
            if !condition.wait(until: deadline) {
                FileHandle.standardError.write(Data("the other thread never arrived\n".utf8))
                return
            }
        }
    }
}

/// With `hooks`, the parent gets its child in a property hook; without, in its factory. Each
/// factory (or hook) meets the other thread before resolving the other end, so that both builds
/// are under way when the waits begin. Prints each thread's outcome, then what a resolve
/// afterwards gets.
func runCrossThreadCycle(hooks: Bool) {
    let meeting = Meeting()
    let registry = FactoryRegistry()
    if hooks {
        registry.factory("parent") { _ in ProbeParent() }
            .resolvingProperties { (r, parent: ProbeParent) in
                meeting.meet()
                parent.child = try r.resolve(ProbeChild.self)
            }
    } else {
        registry.factory("parent") { r in
            meeting.meet()
            let parent = ProbeParent()
            parent.child = try r.resolve(ProbeChild.self)
            return parent
        }
    }
    registry.factory("child") { r in
        meeting.meet()
        return ProbeChild(parent: try r.resolve(ProbeParent.self))
    }
    let path = temporaryManifest("services:\n  ProbeParent: { factory: parent, scope: singleton }\n  ProbeChild: { factory: child, scope: singleton }\n")
    let container = try! Container(manifest: path, registry: registry, contexts: .none)

    // Each thread's parent (through the child, for the child's thread) or error, read once both
    // ended: a hook may still be running on one thread when the other's resolve returns.
    let outcomes = Outcomes()
    let done = DispatchGroup()
    for side in ["parent", "child"] {
        done.enter()
        Thread.detachNewThread {
            outcomes.record(side, Result { side == "parent" ? try container.resolve(ProbeParent.self) : try container.resolve(ProbeChild.self).parent })
            done.leave()
        }
    }
    done.wait()
    for (side, outcome) in outcomes.sorted {
        switch outcome {
        case .success(let parent): print("\(side): ok, \(parent.child?.parent === parent ? "linked" : "not linked")")
        case .failure(let error): print("\(side): \(error)")
        }
    }
    let parents = outcomes.sorted.compactMap { try? $0.outcome.get() }   // the failures were printed above
    if parents.count == 2 { print("one parent: \(parents[0] === parents[1])") }
    do {
        let parent = try container.resolve(ProbeParent.self)
        print("afterwards: ok, \(parent.child?.parent === parent ? "linked" : "not linked")")
    } catch {
        print("afterwards: \(error)")
    }
}

/// Each thread's outcome, in a fixed order.
final class Outcomes: @unchecked Sendable {
    private let lock = NSLock()
    private var bySide: [String: Result<ProbeParent, any Error>] = [:]

    func record(_ side: String, _ outcome: Result<ProbeParent, any Error>) {
        lock.withLock { bySide[side] = outcome }
    }

    /// The parent's thread first.
    var sorted: [(side: String, outcome: Result<ProbeParent, any Error>)] {
        lock.withLock { bySide.sorted { $0.key > $1.key }.map { ($0.key, $0.value) } }
    }
}
