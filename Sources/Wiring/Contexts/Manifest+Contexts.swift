extension Manifest {
    /// The manifest with `contexts` applied in order, the later winning, checked again as a whole.
    ///
    /// What a context changes, field by field:
    ///
    /// | field | rule |
    /// | --- | --- |
    /// | `factory`, `scope`, `ttl`, `decorates` | replaced |
    /// | `args` | merged key by key (the context's values win); `args: !replace { … }` replaces the mapping |
    /// | `implements` | replaced |
    /// | `names` | merged by name (a variant of the same name is replaced); `names: !replace { … }` replaces all |
    /// | `enabled: false` | switches the service off: it and its `implements` types no longer resolve |
    /// | `add:` | adds services that exist only while the context is active |
    /// | `parameters` | replace the values of declared parameters |
    ///
    /// ```swift
    /// let staging = try manifest.applying(contexts: ["staging", "mock-api"])
    /// ```
    ///
    /// - Throws: ``ManifestError`` for an unknown context name (with a did-you-mean), or for a
    ///   problem that only appears with these contexts applied (an `implements` collision, a
    ///   decorator of a service switched off), with the contexts named.
    public func applying(contexts names: [String]) throws(ManifestError) -> Manifest {
        let applied = try merging(contexts: names)
        if let problems = applied.errors(withContexts: names) { throw problems }
        return applied
    }

    /// The manifest with `contexts` applied in order, not checked again: what
    /// ``applying(contexts:)`` checks.
    ///
    /// - Throws: ``ManifestError`` for an unknown context name, with a did-you-mean.
    private func merging(contexts names: [String]) throws(ManifestError) -> Manifest {
        guard !names.isEmpty else { return self }
        let unknown = names.filter { context($0) == nil }
        if !unknown.isEmpty {
            let defined = contexts.map(\.name)
            throw ManifestError(unknown.map { name in
                .error("unknown context '\(name)'\(Suggestion.hint(for: name, in: defined)) (contexts: \(defined.isEmpty ? "none are defined" : defined.sorted().joined(separator: ", ")))", at: nil)
            })
        }
        // Services by key into a list, so that each override is found in constant time:
        // applying a context costs the same per service at 100,000 services as at 100. The list
        // and the index start as the manifest's own, shared until written; a service replaced
        // or switched off leaves a hole, noted aside, since most contexts make none.
        var slots = services
        var holes = Set<Int>()
        var index = servicePositions
        var keysChanged = false
        func append(_ service: ServiceDefinition) {
            index[service.key] = slots.count
            slots.append(service)
            keysChanged = true
        }
        var parameters = self.parameters
        var switchedOff = self.switchedOff
        var switchedOffDefinitions: [String: ServiceDefinition] = [:]
        for name in names {
            let context = context(name)!
            for override in context.parameters {
                if let at = parameterPosition(override.name) {
                    parameters[at] = Parameter(name: override.name, location: override.location, value: override.value)
                }
            }
            for added in context.added {
                if let replaced = index[added.key] { holes.insert(replaced) }
                append(added)
            }
            for override in context.services {
                if override.enabled?.value == true, let restored = switchedOffDefinitions.removeValue(forKey: override.key) {
                    append(restored)
                    switchedOff[override.key] = nil
                }
                guard let position = index[override.key], !holes.contains(position) else { continue }
                if let enabled = override.enabled, !enabled.value {
                    switchedOffDefinitions[override.key] = slots[position]
                    holes.insert(position)
                    index[override.key] = nil
                    switchedOff[override.key] = Located(name, at: enabled.location)
                    keysChanged = true
                    continue
                }
                slots[position] = slots[position].overridden(by: override)
            }
        }
        let services = holes.isEmpty ? slots : slots.indices.filter { !holes.contains($0) }.map { slots[$0] }
        var applied = Manifest(
            version: version, files: files, parameters: parameters, services: services,
            contexts: contexts, defaultScope: defaultScope, customScopes: customScopes,
            parameterReferences: parameterReferences, diagnostics: diagnostics,
            // Every service kept its place: the index still holds. Parameters are replaced in
            // place and contexts are the same: their indexes hold too, so that checking each of
            // many contexts alone does not index every context again for each.
            serviceIndex: keysChanged ? nil : servicePositions,
            parameterIndex: parameterIndex, contextIndex: contextIndex)
        applied.appliedContexts = appliedContexts + names
        applied.switchedOff = switchedOff
        applied.autowired = autowired
        return applied
    }

    /// The errors of this manifest, which has contexts `names` applied (by
    /// ``merging(contexts:)``), each with a note naming them; `nil` when there are none.
    /// The manifest as loaded was checked when it was loaded, so with no contexts there are none.
    private func errors(withContexts names: [String]) -> ManifestError? {
        guard !names.isEmpty else { return nil }
        var validator = ManifestValidator(manifest: self, checksContexts: false)
        validator.run()
        let problems = validator.diagnostics.filter { $0.severity == .error }
        guard !problems.isEmpty else { return nil }
        let note = Diagnostic.Note("with context\(names.count == 1 ? "" : "s") \(names.joined(separator: ", ")) applied")
        return ManifestError(problems.map { diagnostic in
            var diagnostic = diagnostic
            diagnostic.notes.append(note)
            diagnostic.context = names.joined(separator: ",")
            return diagnostic
        })
    }
}

extension ServiceDefinition {
    /// This definition with a context's override applied (see ``Manifest/applying(contexts:)``).
    func overridden(by override: ServiceOverride) -> ServiceDefinition {
        var names = self.names
        if let variants = override.names {
            if override.replacesNames {
                names = variants
            } else {
                for variant in variants {
                    if let index = names.firstIndex(where: { $0.name == variant.name }) {
                        names[index] = variant
                    } else {
                        names.append(variant)
                    }
                }
            }
        }
        var args = self.args
        if let overriding = override.args {
            if override.replacesArgs || args == nil {
                args = overriding
            } else if let base = args {
                let kept = base.entries.filter { overriding[$0.key] == nil }
                args = ManifestMap(kept + overriding.entries, at: overriding.location)
            }
        }
        return ServiceDefinition(
            key: key, location: location,
            factory: override.factory ?? factory,
            scope: override.scope ?? scope,
            timeToLive: override.timeToLive ?? timeToLive,
            implements: override.implements ?? implements,
            names: names,
            args: args,
            decorates: override.decorates ?? decorates,
            lifecycle: override.lifecycle.over(lifecycle),
            tags: override.tags ?? tags)
    }
}
