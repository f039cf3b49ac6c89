/// The checks that span a whole manifest: scopes, implements and names, decorators, contexts
/// and parameters. Each problem is reported once, at its source.
package struct ManifestValidator {
    package let manifest: Manifest
    package private(set) var diagnostics: [Diagnostic] = []
    private let scopeNames: [String]
    private let customScopeNames: Set<String>

    private let checksContexts: Bool

    /// - Parameter checksContexts: `false` for a manifest with contexts already applied, whose
    ///   context blocks were checked against the manifest as loaded.
    package init(manifest: Manifest, checksContexts: Bool = true) {
        self.manifest = manifest
        self.checksContexts = checksContexts
        scopeNames = Scope.builtIn.map(\.name) + manifest.customScopes.map(\.name)
        customScopeNames = Set(manifest.customScopes.map(\.name))
    }

    package mutating func run() {
        if let scope = manifest.defaultScope { checkScope(scope) }
        // One pass over the services, read in place (a copy would retain each one's storage):
        // each pass reads every service's storage from memory again. Decorators, which few
        // services are, are found from the census.
        var claims = Claims(sizedFor: manifest.census)
        let parameters = ParameterGraph(manifest)
        let lengths = parameters.textLengths(ValueResolver.maxExpandedBytes, in: manifest)
        // Within the limit together, parameters may still pass it read many times by one value.
        let longest = lengths.firstPastLimit == nil && !manifest.parameters.isEmpty ? lengths.lengths.max() ?? 0 : nil
        manifest.services.withUnsafeBufferPointer { services in
            for index in services.indices {
                checkScopes(of: services[index])
                checkImplementsAndNames(of: services[index], in: &claims)
                if let longest { checkLengths(of: services[index], lengths: lengths.lengths, longest: longest) }
            }
        }
        checkDecorators()
        if checksContexts { checkContexts() }
        checkParameters(parameters, firstPastLimit: lengths.firstPastLimit)
        diagnostics += ReferenceChecks(manifest: manifest).diagnostics()
    }

    private mutating func error(_ message: String, at location: SourceLocation?, notes: [Diagnostic.Note] = []) {
        diagnostics.append(.error(message, at: location, notes: notes))
    }

    // MARK: - Scopes and time-to-live

    private mutating func checkScopes(of service: ServiceDefinition) {
        let scope = manifest.effectiveScope(of: service)
        if let written = service.scope { checkScope(written) }
        checkTimeToLive(service.timeToLive, scope: scope, of: "service '\(service.key)'")
        checkLifecycle(service.lifecycle, scope: scope, of: "service '\(service.key)'")
        if !scope.rebuildsOnConfigurationChange { checkConfigurationReads(of: service) }
        // The variants' fields are read in place: copying a variant would retain what it holds.
        let variants = service.names
        for position in variants.indices {
            let written = variants[position].scope
            if let written { checkScope(written) }
            checkTimeToLive(variants[position].timeToLive ?? (written == nil ? nil : service.timeToLive),
                            scope: written?.value ?? scope,
                            of: "named variant '\(variants[position].name)' of service '\(service.key)'")
            checkLifecycle(variants[position].lifecycle, scope: written?.value ?? scope,
                           of: "named variant '\(variants[position].name)' of service '\(service.key)'")
            // A seeded service's variant without a factory of its own is seeded too.
            if !service.hasFactory, variants[position].factory == nil, let written, !written.value.canBeSeeded {
                error("named variant '\(variants[position].name)' of seeded service '\(service.key)' has no factory, so it is seeded too, "
                      + "and needs scope scoped, not '\(written.value.name)'", at: written.location)
            }
        }
    }

    /// A singleton whose arguments read configuration keys (dotted `${key}`s) keeps the values
    /// it was built with: said, so that a user who expects a live change knows what to scope.
    private mutating func checkConfigurationReads(of service: ServiceDefinition) {
        guard let args = service.args, args.mayHoldReferences else { return }
        let keys = manifest.externalNames(readBy: args).filter(ExternalValues.isConfigurationKey)
        guard !keys.isEmpty else { return }
        let listed = keys.map { "'\($0)'" }.joined(separator: ", ")
        diagnostics.append(Diagnostic(
            .info, "singleton service '\(service.key)' reads configuration key\(keys.count == 1 ? "" : "s") \(listed): it is built once, "
                + "so a change after start does not reach it; scope it cached (or a custom scope) to rebuild it when the value changes",
            at: service.scope?.location ?? service.location))
    }

    /// Whether `scope` is declared; reports it with a did-you-mean when not.
    @discardableResult
    private mutating func checkScope(_ scope: Located<Scope>) -> Bool {
        guard !scope.value.isBuiltIn, !customScopeNames.contains(scope.value.name) else { return true }
        let hint = Suggestion.hint(for: scope.value.name, in: scopeNames)
        error("unknown scope '\(scope.value.name)'\(hint) (scopes: \(scopeNames.joined(separator: ", ")))", at: scope.location)
        return false
    }

    private mutating func checkTimeToLive(_ ttl: Located<Duration>?, scope: Scope, of what: @autoclosure () -> String) {
        guard let ttl, !scope.takesTimeToLive else { return }
        error("'ttl' of \(what()) needs the cached scope or a custom scope, not '\(scope.name)'", at: ttl.location)
    }

    /// `eager` and `shutdownTimeout` need an instance the container keeps: `start()` builds
    /// it, and `shutdown()` (or the end of its scope) runs its hooks.
    private mutating func checkLifecycle(_ lifecycle: Lifecycle, scope: Scope, of what: @autoclosure () -> String) {
        if let eager = lifecycle.eager, eager.value, !scope.isKeptByContainer {
            let reason = scope.isPerContainerScope ? "a scoped instance is built in its scope, not at start" : "'\(scope.name)' keeps no instance to start"
            error("'eager: true' of \(what()) needs singleton, cached, shared or a custom scope; \(reason)", at: eager.location)
        }
        if let seeded = lifecycle.seeded, seeded.value, !scope.canBeSeeded {
            error("'seeded: true' of \(what()) needs scope scoped: code seeds each scope with its instance, and '\(scope.name)' is not a scope's",
                  at: seeded.location)
        }
        if let timeout = lifecycle.shutdownTimeout {
            if scope.keepsNoInstance {
                error("'shutdownTimeout' of \(what()) needs a scope that keeps its instance, not '\(scope.name)': its instances are never shut down",
                      at: timeout.location)
            } else if timeout.value <= .zero {
                error("'shutdownTimeout' of \(what()) must be longer than zero", at: timeout.location)
            }
        }
    }

    // MARK: - implements and names

    /// What a `resolve(Type, name:)` reaches: each (type, name) pair must lead to one service.
    private struct ResolutionKey: Hashable {
        let type: String
        let name: String

        func hash(into hasher: inout Hasher) {
            hasher.combine(NameKey.hash(type, seed: NameKey.hash(name, seed: 0)))
        }

        /// Hashed as names are (``NameKey``): the name's hash seeds the type's.
        func _rawHashValue(seed: Int) -> Int {
            Int(truncatingIfNeeded: NameKey.hash(type, seed: NameKey.hash(name, seed: UInt64(truncatingIfNeeded: seed))))
        }
    }

    /// The (type, name) pairs claimed so far. Service keys and their variants cannot collide
    /// with each other (keys and names are unique by construction); only `implements` entries
    /// can claim a pair twice.
    private struct Claims {
        /// Most entries are unnamed: keyed by the type alone, they hash one string, not two.
        var unnamed: [NameKey: Claim]
        var named: [ResolutionKey: Claim]

        /// Tables sized once, from the census: growing one rehashes every key so far.
        init(sizedFor census: ServiceCensus) {
            unnamed = [NameKey: Claim](minimumCapacity: census.implementsEntries)
            named = [ResolutionKey: Claim](minimumCapacity: census.namedClaims)
        }
    }

    /// Up to this many `implements` entries, a service's are compared in turn; past it, indexed.
    private static let entriesSearchedInTurn = 8

    private mutating func checkImplementsAndNames(of service: ServiceDefinition, in claims: inout Claims) {
        // The variants' fields are read in place, not copied (see `checkScopes(of:)`).
        let variants = service.names
        for position in variants.indices {
            let name = variants[position].name
            if let other = manifest.service(name) {
                error("named variant '\(name)' of service '\(service.key)' has the name of a service",
                      at: variants[position].location, notes: [Diagnostic.Note("service '\(name)' is declared here", at: other.location)])
            }
        }
        let entries = service.implements
        // A short list (most list one or two types) is searched in turn; a long one is indexed
        // by type and name (an unnamed entry's name is empty), so that finding an entry listed
        // twice stays one lookup however many the service lists.
        let indexed = entries.count > Self.entriesSearchedInTurn
        var listed: [ResolutionKey: SourceLocation] = indexed ? .init(minimumCapacity: entries.count) : [:]
        for (index, entry) in entries.enumerated() {
            let first: SourceLocation?
            if indexed {
                let key = ResolutionKey(type: entry.type, name: entry.name ?? "")
                first = listed.updateValue(entry.location, forKey: key)
                if let first { listed[key] = first }
            } else {
                first = entries[..<index].first { $0.type == entry.type && $0.name == entry.name }?.location
            }
            if let first {
                let shown = entry.name.map { "'\(entry.type)' named '\($0)'" } ?? "'\(entry.type)'"
                error("\(shown) is listed twice in 'implements' of service '\(service.key)'", at: entry.location,
                      notes: [Diagnostic.Note("first listed here", at: first)])
                continue
            }
            if let other = manifest.service(entry.type) {
                error("'implements' of service '\(service.key)' lists '\(entry.type)', which is a service key",
                      at: entry.location, notes: [Diagnostic.Note("service '\(entry.type)' is declared here", at: other.location)])
                continue
            }
            let claim = Claim(service: service.key, location: entry.location)
            if let name = entry.name {
                record(claim, on: entry.type, named: name, in: &claims.named)
                continue
            }
            // An unnamed entry lets the type resolve the service and each of its variants.
            if let first = claims.unnamed.updateValue(claim, forKey: entry.type), first.service != service.key {
                claims.unnamed[entry.type] = first
                reportCollision(entry.type, name: nil, between: first, and: claim)
                continue
            }
            let throughVariants = Claim(service: service.key, location: entry.location, throughVariant: true)
            for position in variants.indices {
                if !record(throughVariants, on: entry.type, named: variants[position].name, in: &claims.named) { break }
            }
        }
    }

    /// Records `claim` on `type` named `name`, or reports the other service that claimed it
    /// first; whether the claim holds.
    @discardableResult
    private mutating func record(
        _ claim: Claim, on type: String, named name: String, in claims: inout [ResolutionKey: Claim]
    ) -> Bool {
        let key = ResolutionKey(type: type, name: name)
        guard let first = claims.updateValue(claim, forKey: key), first.service != claim.service else { return true }
        claims[key] = first
        reportCollision(type, name: name, between: first, and: claim)
        return false
    }

    /// One service's claim on a (type, name) pair, and where it was made: a named entry, or an
    /// unnamed one, which claims the type under each of the service's variant names too.
    private struct Claim {
        let service: String
        let location: SourceLocation
        var throughVariant = false
    }

    /// Two services claim `type` (under `name`): the second, `claim`, is reported where it was
    /// made. Two unnamed claims are told apart with a name; two named ones, by renaming one.
    private mutating func reportCollision(_ type: String, name: String?, between first: Claim, and claim: Claim) {
        guard let name else {
            error("'\(type)' is implemented by both '\(first.service)' and '\(claim.service)'; tell them apart with a name: { type: \(type), name: … }",
                  at: claim.location, notes: [Diagnostic.Note("'\(first.service)' claims it here", at: first.location)])
            return
        }
        let through = "through its variant '\(name)'"
        error("'\(type)' named '\(name)' is implemented by both '\(first.service)' and '\(claim.service)'"
                + (claim.throughVariant ? " (\(through))" : "") + "; give one of them another name",
              at: claim.location,
              notes: [Diagnostic.Note("'\(first.service)' claims it here" + (first.throughVariant ? ", \(through)" : ""), at: first.location)])
    }

    // MARK: - Decorators

    private mutating func checkDecorators() {
        let keys = manifest.services.lazy.map(\.key)
        let services = manifest.services
        let decorators = manifest.census.decorators.map { services[$0] }
        for service in decorators {
            guard let target = service.decorates else { continue }
            if target.value == service.key {
                error("service '\(service.key)' decorates itself", at: target.location)
            } else if let off = manifest.switchedOff[target.value] {
                error("service '\(service.key)' decorates '\(target.value)', which context '\(off.value)' switches off (\(off.location))",
                      at: target.location)
            } else if manifest.service(target.value) == nil {
                error("service '\(service.key)' decorates unknown service '\(target.value)'\(Suggestion.hint(for: target.value, in: keys))",
                      at: target.location)
            }
        }
        // A cycle of decorators (A decorates B decorates A) can never be built. Each service
        // decorates at most one other, so each walk follows one line; a service is walked once,
        // and a walk stops at a service an earlier walk passed: linear in the services.
        var walked: Set<String> = []
        for service in decorators where !walked.contains(service.key) {
            var path = [service.key]
            var onPath = [service.key: 0]
            walked.insert(service.key)
            var current = service
            while let next = current.decorates?.value, next != current.key, let target = manifest.service(next) {
                if let start = onPath[next] {
                    let cycle = Array(path[start...])
                    error("decorator cycle: " + (cycle + [next]).joined(separator: " → "),
                          at: manifest.service(cycle[0])?.decorates?.location)
                    break
                }
                guard walked.insert(next).inserted else { break }
                onPath[next] = path.count
                path.append(next)
                current = target
            }
        }
    }

    // MARK: - Contexts

    private mutating func checkContexts() {
        let keys = manifest.services.lazy.map(\.key)
        let parameterNames = manifest.parameters.map(\.name)
        for context in manifest.contexts {
            for override in context.services {
                guard let service = manifest.service(override.key) else {
                    error("context '\(context.name)' overrides unknown service '\(override.key)'\(Suggestion.hint(for: override.key, in: keys))",
                          at: override.location)
                    continue
                }
                if let scope = override.scope { checkScope(scope) }
                let scope = override.scope?.value ?? manifest.effectiveScope(of: service)
                checkTimeToLive(override.timeToLive, scope: scope,
                                of: "the override of '\(override.key)' in context '\(context.name)'")
                checkLifecycle(override.lifecycle.over(service.lifecycle), scope: scope,
                               of: "the override of '\(override.key)' in context '\(context.name)'")
                if let target = override.decorates, manifest.service(target.value) == nil {
                    error("the override of '\(override.key)' in context '\(context.name)' decorates unknown service '\(target.value)'\(Suggestion.hint(for: target.value, in: keys))",
                          at: target.location)
                }
                for variant in override.names ?? [] {
                    if let scope = variant.scope { checkScope(scope) }
                }
            }
            for service in context.added {
                if let existing = manifest.service(service.key) {
                    error("context '\(context.name)' adds service '\(service.key)', which is already declared; override it under 'services' instead",
                          at: service.location, notes: [Diagnostic.Note("service '\(service.key)' is declared here", at: existing.location)])
                }
                if let scope = service.scope { checkScope(scope) }
                checkLifecycle(service.lifecycle, scope: manifest.effectiveScope(of: service),
                               of: "service '\(service.key)' added by context '\(context.name)'")
            }
            for parameter in context.parameters where manifest.parameter(parameter.name) == nil {
                error("context '\(context.name)' overrides unknown parameter '\(parameter.name)'\(Suggestion.hint(for: parameter.name, in: parameterNames))",
                      at: parameter.location)
            }
        }
    }

    // MARK: - Parameters and the environment

    private mutating func checkParameters(_ graph: ParameterGraph, firstPastLimit: Int?) {
        let names = manifest.parameters.map(\.name)
        // Each name read is looked up once, however many references read it.
        let undefined = manifest.parameterReferences.names.map { manifest.parameter($0) == nil }
        if undefined.contains(true) {
            manifest.parameterReferences.forEach { name, number, location in
                if undefined[number] {
                    error("undefined parameter '\(name)'\(Suggestion.hint(for: name, in: names))", at: location)
                }
            }
        }
        for cycle in graph.cycles(in: manifest) {
            error("parameter cycle: " + cycle.path.joined(separator: " → "), at: cycle.location)
        }
        if let firstPastLimit {
            error(ValueResolver.pastTextLimitMessage, at: manifest.parameters[firstPastLimit].location)
        }
    }

    /// Reports each value of `service`'s arguments and its variants' that fills in to more than
    /// the limit, given each parameter's length and the longest.
    private mutating func checkLengths(of service: ServiceDefinition, lengths: [Int], longest: Int) {
        checkLengths(of: service.args, lengths: lengths, longest: longest)
        let variants = service.names
        for position in variants.indices { checkLengths(of: variants[position].args, lengths: lengths, longest: longest) }
    }

    /// Reports each value of `args` that fills in to more than the limit; a value whose written
    /// length shows it cannot (most) is not parsed.
    private mutating func checkLengths(of args: ManifestMap?, lengths: [Int], longest: Int) {
        let limit = ValueResolver.maxExpandedBytes
        guard let args, args.mayHoldReferences else { return }
        args.forEachValue(mayPass: limit, longestParameter: longest, withEnvironment: false) { value in
            value.forEachTemplate { template, location in
                guard template.parts.contains(where: { if case .parameter = $0 { true } else { false } }),
                      ParameterGraph.length(of: template, lengths: lengths, in: manifest, limit: limit) > limit else { return }
                error(ValueResolver.valuePastTextLimitMessage, at: location)
            }
        }
    }
}
