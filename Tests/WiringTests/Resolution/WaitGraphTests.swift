import Testing
@testable import Wiring

/// The check that turns a wait across threads into a cycle error: it follows every builder a
/// wait leads to, however many paths lead there, and never gives up with "no cycle".
@Suite("Wait graph")
struct WaitGraphTests {
    /// A resolution building `slot`.
    struct Builder {
        let state = ResolutionState(frozenFrom: nil, adding: nil, scope: nil)
        let slot = InstanceSlot()
        init() { _ = slot.lookup(token: state.token, now: nil) }
    }

    @Test func aCycleBesideExponentiallyManyPathsIsFound() {
        // `top` is about to wait for `fork`'s slot. `fork` waits for a diamond of sixteen layers
        // of two builders, each waiting for both of the next layer's slots (2^16 paths, none
        // back to `top`), and for `closer`, which waits for `top`: a cycle, found only after
        // the diamond is walked.
        let top = Builder(), fork = Builder(), closer = Builder()
        let layers = (0..<16).map { _ in [Builder(), Builder()] }
        var recorded: [(ResolutionState, Int)] = []
        #expect(WaitGraph.beginWaiting(closer.state, for: top.slot))
        recorded.append((closer.state, 1))
        for (depth, layer) in layers.enumerated() where depth + 1 < layers.count {
            for builder in layer {
                for slot in layers[depth + 1].map(\.slot) { #expect(WaitGraph.beginWaiting(builder.state, for: slot)) }
                recorded.append((builder.state, 2))
            }
        }
        #expect(WaitGraph.beginWaiting(fork.state, for: closer.slot))
        #expect(WaitGraph.beginWaiting(fork.state, for: layers[0][0].slot))
        recorded.append((fork.state, 2))

        #expect(WaitGraph.beginWaiting(top.state, for: fork.slot) == false)
        for (state, waits) in recorded {
            for _ in 0..<waits { WaitGraph.endWaiting(state) }
        }
    }
}
