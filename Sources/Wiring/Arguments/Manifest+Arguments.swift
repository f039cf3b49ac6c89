extension Manifest {
    /// Every problem of the arguments of the services that name a factory in `schemas`
    /// (services, their named variants with their arguments laid over the service's, and
    /// decorators), each at its position; `${VAR}` read from `external`, where set.
    ///
    /// What ``Container``'s build reports for typed factories, without their code: `validate`
    /// runs it with the schemas of a `FactoryCatalog` (in `WiringCommands`).
    package func argumentDiagnostics(schemas: [String: ArgumentSchema], values external: ExternalValues) -> [Diagnostic] {
        guard !schemas.isEmpty else { return [] }
        return argumentDiagnostics(values: external) { fill, args, owner, location, factoryKey, _ in
            schemas[factoryKey].map { fill.check(args, of: owner, at: location, factoryKey: factoryKey, against: $0) }
        }
    }

    /// Every problem of the arguments of the services whose factory `registry` registers with
    /// `args:`, as building a ``Container`` reports them: checked and decoded (a type's own
    /// errors too), without running a factory. What an app's `validate` runs.
    package func argumentDiagnostics(registry: FactoryRegistry, values external: ExternalValues) -> [Diagnostic] {
        let entries = registry.snapshot.entries
        guard entries.values.contains(where: { $0.arguments != nil }) else { return [] }
        return argumentDiagnostics(values: external) { fill, args, owner, location, factoryKey, reported in
            entries[factoryKey]?.arguments.map {
                fill.decode(args, of: owner, at: location, factoryKey: factoryKey, as: $0, reported: reported.diagnostics,
                            reportedBy: reported.owner).1
            }
        }
    }

    /// The problems `check` finds in each service's and named variant's arguments (`nil`: its
    /// factory is not typed), a variant's less what its service reported.
    private func argumentDiagnostics(
        values external: ExternalValues,
        check: (ArgumentFill, ManifestMap?, String, SourceLocation, String, (owner: String, diagnostics: [Diagnostic])) -> [Diagnostic]?
    ) -> [Diagnostic] {
        var values = ValueResolver(manifest: self, values: external)
        values.resolveParameters()
        let fill = ArgumentFill(values)
        var diagnostics: [Diagnostic] = []
        for service in services where service.hasFactory {
            let reported = check(fill, service.args, service.key, service.location, service.factoryKey, (service.key, [])) ?? []
            diagnostics += reported
            guard service.decorates == nil else { continue }
            for variant in service.names {
                let factoryKey = variant.factory?.value ?? service.factoryKey
                let args = service.arguments(of: variant)
                let owner = "\(service.key)[\(variant.name)]"
                let found = check(fill, args, owner, variant.location, factoryKey, (service.key, reported)) ?? []
                diagnostics += ArgumentFill.excludingInherited(found, of: owner, reported: reported, by: service.key)
            }
        }
        return diagnostics
    }
}
