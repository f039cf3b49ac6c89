extension Container {
    /// Resolves every service and every named variant once, as a dry run, and reports each
    /// failure at the service's position with its resolution path. `scoped` services are
    /// resolved in a scope of the dry run.
    ///
    /// Services whose factories need runtime arguments cannot be built without them; they are
    /// reported as information, not errors. So are async services that are not built yet: the
    /// synchronous dry run cannot await them (the `await` form does).
    ///
    /// The dry run's scope ends before this returns: its shutdown hooks run, and their failures
    /// are reported. When one of them is async, the synchronous dry run cannot await it: none
    /// runs, and that is reported as information (the `await` form runs them).
    ///
    /// - Returns: The diagnostics; empty when everything was built.
    public func instantiateAll() -> [Diagnostic] {
        let scope = makeScope()
        var diagnostics: [Diagnostic] = []
        for (service, name) in everyRegistration {
            do {
                _ = try scope.resolve(key: service.key, name: name)
            } catch {
                diagnostics.append(diagnostic(for: error, of: service, name: name))
            }
        }
        do {
            if let pending = try scope.endWithoutAwaiting() {
                let services = Set(pending.records.map { "\($0.registration.step.service)" }).sorted()
                diagnostics.append(Diagnostic(
                    .info, "the dry run's scope ended without running its shutdown hooks, since some are async "
                        + "(of \(services.joined(separator: ", "))): a synchronous dry run cannot await them", at: nil))
            }
        } catch {
            diagnostics.append(.error("\(error)", at: nil))
        }
        return diagnostics
    }

    /// Resolves every service and every named variant once, awaiting async factories, as a dry
    /// run, and reports each failure at the service's position with its resolution path.
    /// `scoped` services are resolved in a scope of the dry run, which ends before this
    /// returns: its shutdown hooks' failures are reported too. The container's own kept
    /// instances stay; shut it down when the dry run is all it was for.
    ///
    /// - Returns: The diagnostics; empty when everything was built.
    public func instantiateAll() async -> [Diagnostic] {
        let scope = makeScope()
        var diagnostics: [Diagnostic] = []
        for (service, name) in everyRegistration {
            do {
                _ = try await scope.resolve(key: service.key, name: name)
            } catch {
                diagnostics.append(diagnostic(for: error, of: service, name: name))
            }
        }
        do {
            try await scope.end()
        } catch {
            diagnostics.append(.error("\(error)", at: nil))
        }
        return diagnostics
    }

    /// Every service and named variant, as (service, name) pairs, in manifest order.
    private var everyRegistration: [(ServiceDefinition, String?)] {
        manifest.services.flatMap { service in ([nil] + service.names.map(\.name)).map { (service, $0) } }
    }

    /// A dry run's diagnostic for what resolving `service` (`name`) threw.
    private func diagnostic(for error: any Error, of service: ServiceDefinition, name: String?) -> Diagnostic {
        let location = name.flatMap { service.variant(named: $0)?.location } ?? service.location
        let shown = shownService(service.key, name: name)
        var diagnostic: Diagnostic
        switch (error as? ResolutionError)?.kind {
        case .argument?:
            diagnostic = Diagnostic(.info, "\(shown) needs runtime arguments; not instantiated", at: location)
        case .awaitRequired?:
            diagnostic = Diagnostic(.info, "\(shown) is async; a synchronous dry run does not build it", at: location)
        case .notSeeded(let seeded)?:
            let what = seeded == service.key ? "is seeded into each scope by code" : "depends on \(seeded), which is seeded into each scope by code"
            diagnostic = Diagnostic(.info, "\(shown) \(what); a dry run does not build it", at: location)
        default:
            diagnostic = .error("\(error)", at: location)
        }
        if !activeContexts.isEmpty { diagnostic.context = activeContexts.map(\.name).joined(separator: ",") }
        return diagnostic
    }
}
