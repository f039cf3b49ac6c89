/// Resolving through a child's lineage: its slots, its targets, its replacements.
extension Container {
    /// The slot this container keeps the instance of a kept registration in: the one the
    /// registration holds for the container built from the manifest, the slot at `place` of
    /// its own table for a child. One test of a stored reference on the resolve path.
    /// The child's lookup is out of line, so that a root container's kept resolve, which
    /// inlines this, stays as short as it was before children.
    @inline(__always)
    func keptSlot(_ slot: InstanceSlot, at place: Int) -> InstanceSlot {
        guard let slots = layer?.slots else { return slot }
        return Self.childSlot(slots, at: place)
    }

    /// The instance `slot` (at `place`) keeps in this container, if any: ``keptSlot(_:at:)``'s
    /// read, without copying the slot on the root's path: a copy would count a reference to
    /// its table on every kept resolve. A child reads its own table in place for the same
    /// reason (``ChildSlots/current(at:now:)``).
    @inline(__always)
    func current(in slot: InstanceSlot, at place: Int, now: @autoclosure () -> Duration?) -> Any? {
        guard let slots = layer?.slots else { return slot.current(now: now()) }
        return Self.childCurrent(slots, at: place, now: now())
    }

    @inline(never)
    private static func childCurrent(_ slots: ChildSlots, at place: Int, now: Duration?) -> Any? {
        slots.current(at: place, now: now)
    }

    @inline(never)
    private static func childSlot(_ slots: ChildSlots, at place: Int) -> InstanceSlot {
        slots.slot(at: place)
    }

    /// The target of a service key or `implements` type, as this container resolves it.
    @inline(__always)
    func target(key: String) -> ResolutionTarget? {
        guard let layer else { return targets[key] }
        return layer.target(key, in: targets)
    }

    /// The registration this container resolves for `registration`, one of its root's.
    @inline(__always)
    func substituted(_ registration: Unmanaged<Registration>) -> Unmanaged<Registration> {
        guard let layer else { return registration }
        return layer.substitute(registration)
    }

    /// For a child, its lineage; `nil` for a container built from a manifest.
    var lineage: Lineage? { layer?.lineage }

    /// Every registration this container resolves, in manifest order, then those code added.
    var resolvableRegistrations: [Registration] {
        lineage?.registrations(over: registrations) ?? registrations
    }
}
