extension Manifest {
    /// Every problem of the arguments of the services that name a factory in `schemas`
    /// (services, their named variants with their arguments laid over the service's, and
    /// decorators), each at its position; `${VAR}` read from `environment`, where set.
    ///
    /// What ``Container``'s build reports for typed factories, without a registry: `validate`
    /// runs it with the schemas of an app's registry or of a ``FactoryCatalog``.
    package func argumentDiagnostics(schemas: [String: ArgumentSchema], environment: [String: String]) -> [Diagnostic] {
        guard !schemas.isEmpty else { return [] }
        var values = ValueResolver(manifest: self, environment: environment)
        values.resolveParameters()
        let fill = ArgumentFill(values)
        var diagnostics: [Diagnostic] = []
        for service in services where service.hasFactory {
            var reported: [Diagnostic] = []
            if let schema = schemas[service.factoryKey] {
                reported = fill.check(service.args, of: service.key, at: service.location, factoryKey: service.factoryKey, against: schema)
                diagnostics += reported
            }
            for variant in service.names {
                let factoryKey = variant.factory?.value ?? service.factoryKey
                guard let schema = schemas[factoryKey], service.decorates == nil else { continue }
                let args = variant.args.map { (service.args ?? ManifestMap([], at: variant.location)).overlaid(by: $0) } ?? service.args
                diagnostics += ArgumentFill.excludingInherited(
                    fill.check(args, of: "\(service.key)[\(variant.name)]", at: variant.location, factoryKey: factoryKey, against: schema),
                    reported: reported)
            }
        }
        return diagnostics
    }
}
