/// A dependency a factory resolved in code (`r.resolve(Logger.self)`), as a container records
/// it with ``Container/Options/recordsResolvedEdges``: `graph --instantiate` draws it dashed.
public struct ResolvedEdge: Sendable, Hashable {
    /// The service whose factory resolved.
    public let from: String
    /// The service it resolved.
    public let to: String

    /// Creates an edge.
    public init(from: String, to: String) {
        self.from = from
        self.to = to
    }
}

extension Container {
    /// The dependencies factories resolved in code so far, sorted; empty unless
    /// ``Options/recordsResolvedEdges`` is set. Run ``instantiateAll()-4ukp5`` first to record them all.
    public var resolvedEdges: [ResolvedEdge] {
        (edgeRecorder?.withLock { $0 } ?? []).sorted { ($0.from, $0.to) < ($1.from, $1.to) }
    }

    /// Records that the factory building on `state`'s path resolved `registration`; without a
    /// state (a property wrapper's resolve), that the service building on this thread did.
    func recordEdge(to registration: Registration, state: ResolutionState?) {
        guard let recorder = edgeRecorder else { return }
        let parent: String
        if let state {
            guard let building = state.path.last?.registration else { return }
            parent = building.key
        } else {
            guard BuildingContainer.current === self, let building = BuildingContainer.service else { return }
            parent = building
        }
        let edge = ResolvedEdge(from: parent, to: registration.key)
        recorder.withLock { _ = $0.insert(edge) }
    }
}
