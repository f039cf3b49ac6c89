/// Which resolution waits for which slot, to turn a cycle across threads and tasks into an
/// error. A wait is recorded under the waiting state and each state it descends from (an async
/// factory's dependencies resolve in states of their own), so that "the build this state runs
/// waits for that slot" can be followed from any builder.
enum WaitGraph {
    /// For each state, the slots it or a state descending from it waits for, with the waiter.
    private static let waiting = Locked<[ObjectIdentifier: [(waiter: ObjectIdentifier, slot: InstanceSlot)]]>([:])

    /// Records that `waiter` waits for `slot`, unless following the builders from `slot` leads
    /// back to `waiter` or a state it descends from (a cycle): then nothing is recorded and
    /// `false` is returned. Each builder's waits are followed once, so the walk is bounded by
    /// the waits recorded, however many paths lead to one builder, and always gives an answer.
    static func beginWaiting(_ waiter: ResolutionState, for slot: InstanceSlot) -> Bool {
        let chain = waiter.lineage
        return waiting.withLock { waiting in
            var pending = [slot]
            var followed = Set<ObjectIdentifier>()
            while let next = pending.popLast() {
                guard let builder = next.builder else { continue }
                if chain.contains(builder) { return false }
                guard followed.insert(builder).inserted else { continue }
                pending += (waiting[builder] ?? []).map(\.slot)
            }
            for token in chain { waiting[token, default: []].append((waiter.token, slot)) }
            return true
        }
    }

    /// After ``beginWaiting(_:for:)`` found a cycle: hands over the instances offered by the
    /// builds the walk from `slot` meets (their property hooks are running, see
    /// ``InstanceSlot/offer(_:by:)``), which then no longer block; whether it handed any, and
    /// a new wait may pass.
    static func handOverOffers(from slot: InstanceSlot) -> Bool {
        waiting.withLock { waiting in
            var pending = [slot]
            var followed = Set<ObjectIdentifier>()
            var handed = false
            while let next = pending.popLast() {
                guard let builder = next.builder else { continue }
                if next.handOverOffer() { handed = true }
                guard followed.insert(builder).inserted else { continue }
                pending += (waiting[builder] ?? []).map(\.slot)
            }
            return handed
        }
    }

    static func endWaiting(_ waiter: ResolutionState) {
        let chain = waiter.lineage
        waiting.withLock { waiting in
            for token in chain {
                guard var slots = waiting[token], let index = slots.lastIndex(where: { $0.waiter == waiter.token }) else { continue }
                slots.remove(at: index)
                waiting[token] = slots.isEmpty ? nil : slots
            }
        }
    }
}
