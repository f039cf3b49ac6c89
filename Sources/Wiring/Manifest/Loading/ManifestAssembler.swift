/// Merges the files of a manifest into one model, reporting what is declared twice.
package struct ManifestAssembler {
    package private(set) var diagnostics: [Diagnostic] = []

    package init() {}

    package mutating func assemble(
        _ files: consuming [ManifestFile], overlays: [ContextDefinition] = [], overlayFiles: [String] = []
    ) -> Manifest {
        var files = consume files
        var parameters: [Parameter] = []
        var parameterAt: [String: SourceLocation] = [:]
        let (services, serviceIndex) = mergeServices(of: &files)
        var contexts: [(name: String, location: SourceLocation, services: [ServiceOverride], parameters: [Parameter], added: [ServiceDefinition])] = []
        var contextIndex: [String: Int] = [:]
        var defaultScope: Located<Scope>?
        var customScopes: [CustomScope] = []
        var scopeAt: [String: SourceLocation] = [:]

        for file in files {
            for parameter in file.parameters {
                if claim(parameter.name, at: parameter.location, in: &parameterAt, what: "parameter") {
                    parameters.append(parameter)
                }
            }
            if let scope = file.defaultScope {
                if let first = defaultScope {
                    duplicate("the default scope", at: scope.location, first: first.location)
                } else {
                    defaultScope = scope
                }
            }
            for scope in file.customScopes {
                if claim(scope.name, at: scope.location, in: &scopeAt, what: "custom scope") {
                    customScopes.append(scope)
                }
            }
            for context in file.contexts {
                if let index = contextIndex[context.name] {
                    contexts[index].services += context.services
                    contexts[index].parameters += context.parameters
                    contexts[index].added += context.added
                } else {
                    contextIndex[context.name] = contexts.count
                    contexts.append((context.name, context.location, context.services, context.parameters, context.added))
                }
            }
        }
        let mergedContexts = contexts.map { context in
            var overrideAt: [String: SourceLocation] = [:]
            var parameterAt: [String: SourceLocation] = [:]
            let services = context.services.filter {
                claim($0.key, at: $0.location, in: &overrideAt, what: "override of service", inContext: context.name)
            }
            let parameters = context.parameters.filter {
                claim($0.name, at: $0.location, in: &parameterAt, what: "override of parameter", inContext: context.name)
            }
            var addedAt: [String: SourceLocation] = [:]
            let added = context.added.filter {
                claim($0.key, at: $0.location, in: &addedAt, what: "added service", inContext: context.name)
            }
            // An overlay file applies after the blocks, so its overrides may repeat theirs.
            let overlay = overlays.first { $0.name == context.name }
            return ContextDefinition(
                name: context.name, location: context.location,
                services: services + (overlay?.services ?? []), parameters: parameters + (overlay?.parameters ?? []),
                added: added + (overlay?.added ?? []))
        } + overlays.filter { contextIndex[$0.name] == nil }
        return Manifest(
            version: files.first?.version?.value ?? ManifestSchema.supportedVersions[0],
            files: files.map(\.path) + overlayFiles,
            parameters: parameters,
            services: services,
            contexts: mergedContexts,
            defaultScope: defaultScope,
            customScopes: customScopes,
            parameterReferences: files.reduce(into: ParameterReferences()) { $0.append(contentsOf: $1.parameterReferences) },
            diagnostics: [],
            serviceIndex: serviceIndex)
    }

    /// The services of every file, in order, each key once (a repeated key is reported), and
    /// each one's position by key; the files are left without services.
    ///
    /// The keys are read from each file's ``ManifestFile/serviceKeys``, a plain array beside
    /// the services, rather than from each service's storage.
    private mutating func mergeServices(
        of files: inout [ManifestFile]
    ) -> ([ServiceDefinition], [NameKey: Int]) {
        let count = files.reduce(0) { $0 + $1.serviceKeys.count }
        var serviceIndex = [NameKey: Int](minimumCapacity: count)
        var unique = true
        scan: for file in files {
            for key in file.serviceKeys where serviceIndex.updateValue(serviceIndex.count, forKey: key) != nil {
                unique = false
                break scan
            }
        }
        if unique {
            // The first file's services are taken over as they are, without copying each.
            var services: [ServiceDefinition] = []
            for index in files.indices {
                let taken = files[index].takeServices()
                if services.isEmpty { services = taken } else { services += taken }
            }
            return (services, serviceIndex)
        }
        // A repeated key: one lookup for the usual case, a key not seen yet; a repeated key gets
        // its first place back.
        serviceIndex.removeAll(keepingCapacity: true)
        var services: [ServiceDefinition] = []
        services.reserveCapacity(count)
        for index in files.indices {
            for service in files[index].takeServices() {
                if let first = serviceIndex.updateValue(services.count, forKey: service.key) {
                    serviceIndex[service.key] = first
                    duplicate("service '\(service.key)'", at: service.location, first: services[first].location)
                } else {
                    services.append(service)
                }
            }
        }
        return (services, serviceIndex)
    }

    /// Records `name` as declared at `location`; reports and refuses a second declaration.
    private mutating func claim(
        _ name: String, at location: SourceLocation, in seen: inout [String: SourceLocation],
        what: String, inContext context: String? = nil
    ) -> Bool {
        if let first = seen[name] {
            let place = context.map { " in context '\($0)'" } ?? ""
            duplicate("\(what) '\(name)'\(place)", at: location, first: first)
            return false
        }
        seen[name] = location
        return true
    }

    private mutating func duplicate(_ what: String, at location: SourceLocation, first: SourceLocation) {
        diagnostics.append(.error(
            "\(what) is declared twice", at: location,
            notes: [Diagnostic.Note("first declared here", at: first)]))
    }
}

extension Manifest {
    /// A copy with `diagnostics` as its warnings.
    package func with(diagnostics: [Diagnostic]) -> Manifest {
        var copy = self
        copy.diagnostics = diagnostics
        return copy
    }
}
