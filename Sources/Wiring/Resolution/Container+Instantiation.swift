extension Container {
    /// Resolves every service and every named variant once, as a dry run, and reports each
    /// failure at the service's position with its resolution path.
    ///
    /// Services whose factories need runtime arguments cannot be built without them; they are
    /// reported as information, not errors.
    ///
    /// - Returns: The diagnostics; empty when everything was built.
    public func instantiateAll() -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for service in manifest.services {
            let names: [String?] = [nil] + service.names.map(\.name)
            for name in names {
                do {
                    _ = try resolve(key: service.key, name: name)
                } catch {
                    let location = name.flatMap { service.variant(named: $0)?.location } ?? service.location
                    var diagnostic: Diagnostic
                    if case .argument = error.kind {
                        diagnostic = Diagnostic(.info, "\(service.key)\(name.map { "[\($0)]" } ?? "") needs runtime arguments; not instantiated", at: location)
                    } else {
                        diagnostic = .error(error.description, at: location)
                    }
                    if !activeContexts.isEmpty { diagnostic.context = activeContexts.map(\.name).joined(separator: ",") }
                    diagnostics.append(diagnostic)
                }
            }
        }
        return diagnostics
    }
}
