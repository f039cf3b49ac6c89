/// Top-level resolves of plain `unique` services, built in one step.
extension Container {
    /// Whether a top-level resolve of `registration`, with no runtime arguments, builds it in
    /// one step: a plain `unique` service (no decorators, no property hooks, nothing kept),
    /// in a container that neither traces nor records its resolves.
    @inline(__always)
    func buildsInOneStep(_ registration: Registration) -> Bool {
        usesFastDependencyPath && registration.isPlainUnique
    }

    /// Builds `registration` (see ``buildsInOneStep(_:)``) in a new resolution: what
    /// ``instance(of:arguments:state:)`` does for it, without asking where its instance is
    /// kept, making a list of hooks or running decorators it has not.
    @inline(__always)
    func resolveInOneStep(_ registration: Registration) throws(ResolutionError) -> Any {
        try checkOpen(registration)
        return try ResolutionState.withTopLevel(of: self) { state throws(ResolutionError) in
            // Started by a factory through the container: see ``checkEnclosed(_:state:)``.
            if _slowPath(state.enclosing != nil) { try checkEnclosed(registration, state: state) }
            return try produceNested(registration, state: state)
        }
    }
}
