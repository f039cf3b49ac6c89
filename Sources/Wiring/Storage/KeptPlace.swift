/// Where a kept instance goes: its slot, how long it lives, and who runs its hooks.
struct KeptPlace {
    let slot: InstanceSlot
    /// The registration's place among what its container keeps, or its scope's.
    let place: Int
    let timeToLive: Duration?
    let weakly: Bool
    let owner: Owner

    /// Who runs the hooks: the container, or the scope whose table holds the slot (its hooks
    /// are recorded there, with the instance).
    enum Owner {
        case container(KeptInstances)
        case scope
    }

    /// What the slot holds for the resolution `token`, at the current time when the instance
    /// expires (see ``InstanceSlot/lookup(token:now:)``).
    ///
    /// Not inlined, nor is ``keep(_:of:hooks:now:)``: in an async caller, each optional clock
    /// instant (a type whose layout is not fixed at compile time) took a task allocation of
    /// its own.
    @inline(never)
    func lookup(token: ObjectIdentifier, now: () -> ContinuousClock.Instant) -> InstanceSlot.Lookup {
        slot.lookup(token: token, now: Expiry.now(now, expiring: timeToLive))
    }

    /// Stores `instance`, built just now, and records its shutdown hooks; returns it.
    @inline(never)
    func keep(_ instance: Any, of registration: Registration, hooks: [KeptInstances.Hook],
              now: () -> ContinuousClock.Instant) -> Any {
        switch owner {
        case .container(let kept):
            slot.finish(instance, expires: timeToLive.map { Expiry.offset(now() + $0) }, weakly: weakly)
            kept.add(registration, hooks: hooks, weakly: weakly)
            kept.noteBuilt(at: place)
        case .scope:
            // A plain build has the factory's hook alone: the record needs no list of hooks.
            slot.finish(scoped: instance, of: registration, layers: registration.isPlain ? nil : hooks)
        }
        return instance
    }
}

/// Where a registration's instance stands for one resolution: built and kept, to be built in a
/// place that keeps it, or kept nowhere (`graph` and `unique` services).
enum KeptLookup {
    case built(Any)
    case build(KeptPlace)
    case notKept
}

extension Container {
    /// The one lookup of where `registration` keeps its instance for a resolution from `state`,
    /// which both engines start from; each then builds into the place its own way (waiting on
    /// another thread's build, or awaiting it).
    ///
    /// A built instance is read in place, with no ``KeptPlace`` made: a copy of its slot would
    /// count a reference on every kept resolve.
    func keptInstance(of registration: Registration, state: ResolutionState) throws(ResolutionError) -> KeptLookup {
        switch registration.keeping {
        case .kept(let timeToLive, let weakly, let own, let place):
            if let instance = current(in: own, at: place, now: Expiry.now(now, expiring: timeToLive)) { return .built(instance) }
            return .build(KeptPlace(slot: keptSlot(own, at: place), place: place, timeToLive: timeToLive, weakly: weakly,
                                    owner: .container(kept)))
        case .scoped(let place):
            let slot = try scopeSlot(of: registration, at: place, state: state)
            if let instance = slot.current(now: nil) { return .built(instance) }
            return .build(KeptPlace(slot: slot, place: place, timeToLive: nil, weakly: false, owner: .scope))
        case .graph, .unique:
            return .notKept
        }
    }
}
