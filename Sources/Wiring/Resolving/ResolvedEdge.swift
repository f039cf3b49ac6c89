/// A dependency a factory resolved in code (`r.resolve(Logger.self)`), as a container records
/// it with `Container.Options.recordsResolvedEdges`: `graph --instantiate` draws it dashed.
package struct ResolvedEdge: Sendable, Hashable {
    /// The service whose factory resolved.
    package let from: String
    /// The service it resolved.
    package let to: String

    /// Creates an edge.
    package init(from: String, to: String) {
        self.from = from
        self.to = to
    }
}

extension Container {
    /// The dependencies factories resolved in code so far, sorted; empty unless
    /// `Options.recordsResolvedEdges` is set. Run `instantiateAll()` first to record them all.
    package var resolvedEdges: [ResolvedEdge] {
        (edgeRecorder?.withLock { $0 } ?? []).sorted { ($0.from, $0.to) < ($1.from, $1.to) }
    }

    /// Records that the factory building on `state`'s path resolved `registration` (a property
    /// wrapper of the instance it builds resolves in its resolution, so counts too).
    func recordEdge(to registration: Registration, state: ResolutionState?) {
        guard let recorder = edgeRecorder, let building = state?.path.last?.registration else { return }
        let edge = ResolvedEdge(from: building.key, to: registration.key)
        recorder.withLock { _ = $0.insert(edge) }
    }
}
