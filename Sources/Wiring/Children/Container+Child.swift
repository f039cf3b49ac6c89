/// Child containers: a container's services with a few replaced, for a test or a preview.
extension Container {
    /// Makes a child of this container: the same services, with the overrides `configure`
    /// writes, and instances of its own.
    ///
    /// ```swift
    /// let child = try container.child { overrides in
    ///     overrides.override(NoteStore.self) { r in InMemoryNoteStore(log: try r.resolve()) }
    ///     overrides.override(Clock.self, with: FixedClock(at: .zero))
    ///     overrides.share(DatabasePool.self)
    /// }
    /// let editor = try child.resolve(NoteEditor.self)   // built with the in-memory store
    /// ```
    ///
    /// Making a child reads no file and binds nothing again: it costs what its overrides cost,
    /// whatever the size of the manifest, so a test can make one of its own. Resolving through a
    /// child costs what resolving through its parent does.
    ///
    /// A child keeps its own instances: its singletons, cached, shared and custom-scope
    /// instances are built in the child, with the child's overrides, and never seen by its
    /// parent or by another child; ``Overrides/share(_:name:fileID:line:)`` hands out the
    /// parent's instance instead. Its scopes (``makeScope()``, ``withScope(_:)``), `start()`,
    /// `reset` and the property wrappers inside ``using(_:operation:)-(_,()->R)`` work as a container's do.
    /// A child of a child overrides what its parent resolves.
    ///
    /// ``shutdown()`` of a child runs the hooks of the child's own instances only. Shutting the
    /// parent down shuts down each child still alive first, the most recent first: resolving
    /// through such a child then throws, as through any container shut down.
    ///
    /// - Parameter configure: Writes the overrides; it runs before this returns.
    /// - Throws: ``ManifestError`` with every mistake of the overrides, each at the line of code
    ///   that made it (see ``Overrides``); ``ResolutionError`` when this container is shut down;
    ///   what `configure` throws.
    public func child(_ configure: (Overrides) throws -> Void = { _ in }) throws -> Container {
        if isShutDown { throw ResolutionError.shutDown("the container is shut down; it cannot make a child") }
        let overrides = Overrides()
        try configure(overrides)
        var plan = ChildPlan(parent: self)
        for change in overrides.changes { plan.apply(change) }
        plan.checkShares()
        if !plan.problems.isEmpty { throw ManifestError(plan.problems) }
        let number = life.children.withLock { $0.number() }
        let slots = ChildSlots(count: plan.keptCount)
        let (added, addedRegistrations) = plan.finish()
        let lineage = Lineage(parent: self, number: number, substitutes: plan.substitutes, sharing: plan.sharing, added: added,
                              addedRegistrations: addedRegistrations)
        let child = Container(childOf: self, layer: ChildLayer(lineage: lineage, slots: slots), keptCount: plan.keptCount,
                              scopedCount: plan.scopedCount)
        // Registered under the lock the parent's shutdown reads its children under, after it
        // closed: a child either is listed before that read (and shut down with the parent)
        // or sees the parent closed here.
        let registered = life.children.withLock { children in
            guard !isShutDown else { return false }
            children.add(child.life, number: number)
            return true
        }
        guard registered else { throw ResolutionError.shutDown("the container is shut down; it cannot make a child") }
        return child
    }
}
