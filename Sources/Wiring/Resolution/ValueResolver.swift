/// Fills in `${NAME}` from the environment and `$(name)` from the manifest's parameters,
/// collecting a positioned error for every environment variable that is unset with no default.
///
/// Used when a container is built, and by `wiring explain` to show effective values.
package struct ValueResolver: Sendable {
    let manifest: Manifest
    let environment: [String: String]
    package private(set) var diagnostics: [Diagnostic] = []
    private var parameterValues: [String: ManifestValue] = [:]
    private var resolvingParameters: Set<String> = []
    private var compositeParameters: Bool?

    package init(manifest: Manifest, environment: [String: String]) {
        self.manifest = manifest
        self.environment = environment
    }

    /// The problems recorded so far, which the resolver then forgets: a copy that goes on
    /// checking records only its own.
    package mutating func removeDiagnostics() -> [Diagnostic] {
        defer { diagnostics = [] }
        return diagnostics
    }

    /// Resolves every parameter once, so that their problems are reported even when unused.
    package mutating func resolveParameters() {
        for parameter in manifest.parameters { _ = parameterValue(parameter.name) }
    }

    package mutating func resolve(_ map: ManifestMap?, at location: SourceLocation) -> ManifestMap {
        guard let map else { return ManifestMap([], at: location) }
        guard map.mayHoldReferences else { return map }
        return ManifestMap(map.entries.map {
            ManifestMap.Entry(key: $0.key, keyLocation: $0.keyLocation, value: resolve($0.value))
        }, at: map.location)
    }

    /// Reports what filling in the references of `map` would report (unset environment
    /// variables, lists and mappings inside strings) without building the filled-in values.
    package mutating func check(_ map: ManifestMap?) {
        // Parameters were checked when they were resolved; what is left to report is an unset
        // environment variable, or a list or mapping parameter inside a string.
        guard let map, map.mayHold(environmentOnly: !hasCompositeParameters) else { return }
        for entry in map.entries { check(entry.value) }
    }

    private mutating func check(_ value: ManifestValue) {
        guard value.mayHold(environmentOnly: !hasCompositeParameters) else { return }
        switch value.kind {
        case .template: _ = resolve(value)
        case .list(let values): values.forEach { check($0) }
        case .map(let map): check(map)
        default: break
        }
    }

    /// Whether a parameter's value is a list or a mapping, which cannot be part of a string.
    private var hasCompositeParameters: Bool {
        mutating get {
            if let known = compositeParameters { return known }
            let found = manifest.parameters.contains { parameter in
                switch parameterValue(parameter.name)?.kind {
                case .list, .map: true
                default: false
                }
            }
            compositeParameters = found
            return found
        }
    }

    /// A value with its templates filled in from the environment and the parameters.
    package mutating func resolve(_ value: ManifestValue) -> ManifestValue {
        guard value.mayHoldReferences else { return value }
        switch value.kind {
        case .template(let template):
            if template.parts.count == 1, case .parameter(let name) = template.parts[0] {
                guard let parameter = parameterValue(name) else { return ManifestValue(.null, at: value.location) }
                return ManifestValue(parameter.kind, at: value.location, isSecret: parameter.isSecret || value.isSecret,
                                     isInterpolated: parameter.isInterpolated)
            }
            var text = ""
            var secret = value.isSecret
            for part in template.parts {
                switch part {
                case .literal(let literal):
                    text += literal
                case .environment(let name, let fallback):
                    if let set = environment[name], !(set.isEmpty && fallback != nil) {
                        text += set
                        secret = true
                    } else if let fallback {
                        text += fallback
                    } else {
                        diagnostics.append(.error("environment variable '\(name)' is not set and has no default", at: value.location))
                    }
                case .parameter(let name):
                    guard let parameter = parameterValue(name) else { continue }
                    secret = secret || parameter.isSecret
                    switch parameter.kind {
                    case .string(let string): text += string
                    case .list, .map:
                        diagnostics.append(.error("parameter '\(name)' is \(parameter.kindDescription) and cannot be part of a string", at: value.location))
                    default: text += parameter.description
                    }
                }
            }
            return ManifestValue(.string(text), at: value.location, isSecret: secret, isInterpolated: true)
        case .list(let values):
            return ManifestValue(.list(values.map { resolve($0) }), at: value.location, isSecret: value.isSecret)
        case .map(let map):
            return ManifestValue(.map(resolve(map, at: value.location)), at: value.location, isSecret: value.isSecret)
        default:
            return value
        }
    }

    /// A parameter's value with its own templates filled in, computed once.
    package mutating func parameterValue(_ name: String) -> ManifestValue? {
        if let value = parameterValues[name] { return value }
        guard let parameter = manifest.parameter(name), !resolvingParameters.contains(name) else { return nil }
        resolvingParameters.insert(name)
        let value = resolve(parameter.value)
        resolvingParameters.remove(name)
        parameterValues[name] = value
        return value
    }
}
