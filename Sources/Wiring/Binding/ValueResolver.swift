/// Fills in `${NAME}` from the environment (or the container's configuration source) and
/// `$(name)` from the manifest's parameters, collecting a positioned error for every variable
/// or key that is unset with no default.
///
/// Used when a container is built, and by `wiring explain` to show effective values.
package struct ValueResolver: Sendable {
    let manifest: Manifest
    /// Where `${name}` reads.
    let external: ExternalValues
    package private(set) var diagnostics: [Diagnostic] = []
    /// Every parameter's value with its references filled in, once they are computed (see
    /// ``resolveParameters()``).
    private var parameterValues: [String: ManifestValue]?
    /// Whether a parameter is a list or a mapping, and the most bytes one fills in to, once
    /// the parameters are resolved.
    private var parameterSummary: (hasComposite: Bool, longest: Int)?

    package init(manifest: Manifest, environment: [String: String]) {
        self.init(manifest: manifest, values: ExternalValues(environment: environment))
    }

    package init(manifest: Manifest, values: ExternalValues) {
        self.manifest = manifest
        self.external = values
    }

    /// The value of `name` (an empty string is unset when the reference has a default).
    package func lookup(_ name: String, hasDefault: Bool) -> ExternalValues.Lookup {
        let found = external.lookup(name)
        if hasDefault, case .set(.string(let text)) = found, text.isEmpty { return .unset }
        return found
    }

    /// Whether a reference to `name` with `fallback` can be filled in.
    func canFill(_ name: String, fallback: String?) -> Bool {
        if fallback != nil { return true }
        if case .set = lookup(name, hasDefault: false) { return true }
        return false
    }

    /// The problems recorded so far, which the resolver then forgets: a copy that goes on
    /// checking records only its own.
    mutating func removeDiagnostics() -> [Diagnostic] {
        defer { diagnostics = [] }
        return diagnostics
    }

    /// Resolves every parameter once, so that their problems are reported even when unused.
    ///
    /// Parameters are filled in dependencies first (``ParameterGraph``), each from values
    /// already filled in: a chain of thousands of parameters costs no recursion, and the work
    /// is the size of the values made. A parameter on a cycle (an error validation reports)
    /// reads the others of its cycle as absent.
    package mutating func resolveParameters() {
        guard parameterValues == nil else { return }
        parameterValues = [:]
        let parameters = manifest.parameters
        var filled = 0, overBudget = false
        for component in ParameterGraph(manifest).components {
            for position in component {
                var value = resolve(parameters[position].value)
                if case .string(let text) = value.kind, value.isInterpolated {
                    filled += text.utf8.count
                    if !overBudget && filled > Self.maxExpandedBytes {
                        overBudget = true
                        diagnostics.append(.error(Self.pastTextLimitMessage, at: parameters[position].location))
                    }
                    // Past the budget, parameters read as absent: nothing more is made.
                    if overBudget { value = ManifestValue(.null, at: value.location) }
                }
                parameterValues![parameters[position].name] = value
            }
        }
    }

    package mutating func resolve(_ map: ManifestMap?, at location: SourceLocation) -> ManifestMap {
        guard let map else { return ManifestMap([], at: location) }
        guard map.mayHoldReferences else { return map }
        return ManifestMap(map.entries.map {
            ManifestMap.Entry(key: $0.key, keyLocation: $0.keyLocation, value: resolve($0.value))
        }, at: map.location)
    }

    /// Reports what filling in the references of `map` would report (unset environment
    /// variables, lists and mappings inside strings, a value past ``maxExpandedBytes``) without
    /// building the filled-in values.
    package mutating func check(_ map: ManifestMap?) {
        guard let map, map.mayHoldReferences else { return }
        // A value reading parameters alone has nothing to report unless one of them is a list
        // or a mapping, or it may fill in past the limit (see `check(_:)`).
        let longest = parameterReadsMayFail ? Self.maxExpandedBytes : longestParameter
        map.forEachValue(mayPass: Self.maxExpandedBytes, longestParameter: longest, withEnvironment: true) { check($0) }
    }

    private mutating func check(_ value: ManifestValue) {
        guard value.mayHoldReferences else { return }
        // Parameters were checked when they were resolved: a value reading only parameters has
        // something to report only if one is a list or a mapping, or if it may fill in past
        // the limit, which its written length tells without parsing it.
        if !value.mayHold(environmentOnly: true), !parameterReadsMayFail,
           value.staysWithin(Self.maxExpandedBytes, longestParameter: longestParameter) { return }
        let content = value.content
        switch content {
        case .template(let template):
            // A whole `$(name)` takes its parameter's value with its kind, a list or mapping too.
            if template.parts.count == 1, case .parameter = template.parts[0] { return }
            // A whole `${name}` may be a list from a configuration source: checked as it is read.
            if external.configuration != nil, template.parts.count == 1, case .environment = template.parts[0] {
                _ = resolve(value, content: content)
                return
            }
            _ = fill(template, of: value, building: false)
        case .value(.list(let values)): values.forEach { check($0) }
        case .value(.map(let map)): check(map)
        case .value: break
        }
    }

    /// Whether a parameter's value is a list or a mapping, which cannot be part of a string.
    private var parameterReadsMayFail: Bool {
        mutating get {
            if parameterSummary == nil { summarizeParameters() }
            return parameterSummary!.hasComposite
        }
    }

    /// The most bytes one parameter fills in to.
    private var longestParameter: Int {
        mutating get {
            if parameterSummary == nil { summarizeParameters() }
            return parameterSummary!.longest
        }
    }

    private mutating func summarizeParameters() {
        var summary = (hasComposite: false, longest: 0)
        for parameter in manifest.parameters {
            switch parameterValue(parameter.name)?.kind {
            case .list, .map: summary.hasComposite = true
            case .string(let text): summary.longest = max(summary.longest, text.utf8.count)
            case let other?: summary.longest = max(summary.longest, ManifestValue(other, at: parameter.location).description.utf8.count)
            case nil: break
            }
        }
        parameterSummary = summary
    }

    /// A value with its templates filled in from the environment and the parameters.
    package mutating func resolve(_ value: ManifestValue) -> ManifestValue {
        guard value.mayHoldReferences else { return value }
        return resolve(value, content: value.content)
    }

    /// `value`, whose content is `content` (read once by the caller), with its templates filled in.
    package mutating func resolve(_ value: ManifestValue, content: ManifestValue.Content) -> ManifestValue {
        switch content {
        case .template(let template):
            if template.parts.count == 1, case .parameter(let name) = template.parts[0] {
                guard let parameter = parameterValue(name) else { return ManifestValue(.null, at: value.location) }
                return ManifestValue(content: parameter.content, at: value.location, isSecret: parameter.isSecret || value.isSecret,
                                     isInterpolated: parameter.isInterpolated)
            }
            // A whole `${name}` keeps the type its source gives it (the environment gives text).
            if template.parts.count == 1, case .environment(let name, let fallback) = template.parts[0],
               case .set(let found) = lookup(name, hasDefault: fallback != nil), found.text == nil || external.configuration != nil {
                return found.manifestValue(at: value.location)
            }
            let (text, secret) = fill(template, of: value, building: true)
            return ManifestValue(.string(text), at: value.location, isSecret: secret, isInterpolated: true)
        case .value(.list(let values)):
            return ManifestValue(.list(values.map { resolve($0) }), at: value.location, isSecret: value.isSecret)
        case .value(.map(let map)):
            return ManifestValue(.map(resolve(map, at: value.location)), at: value.location, isSecret: value.isSecret)
        case .value:
            return value
        }
    }

    /// The longest text a template fills in, and the most text all parameters fill in
    /// together: a parameter read many times over, by parameters that are read many times
    /// over, grows exponentially with the manifest (a "parameter bomb").
    static let maxExpandedBytes = 32 << 20

    /// What is reported when the parameters fill in more than ``maxExpandedBytes`` together.
    static let pastTextLimitMessage =
        "parameters fill in to more than \(maxExpandedBytes >> 20) MiB of text together; is a parameter read many times over?"

    /// What is reported when one value fills in more than ``maxExpandedBytes``.
    static let valuePastTextLimitMessage =
        "this value fills in to more than \(maxExpandedBytes >> 20) MiB of text; is a parameter read many times over?"

    /// The text of `template`, the template of `value`, and whether it holds a secret; when
    /// not `building`, only what filling it in would report is reported, and no text is made.
    /// Its size is counted either way, so that a value past ``maxExpandedBytes`` is an error
    /// when the container is built, before the text is made on first use (where nothing could
    /// report it).
    private mutating func fill(_ template: StringTemplate, of value: ManifestValue, building: Bool) -> (text: String, secret: Bool) {
        var text = ""
        var size = 0
        var secret = value.isSecret
        func append(_ part: String) {
            size += part.utf8.count
            if building { text += part }
        }
        for part in template.parts {
            switch part {
            case .literal(let literal):
                append(literal)
            case .environment(let name, let fallback):
                switch lookup(name, hasDefault: fallback != nil) {
                case .set(let found):
                    if let written = found.text {
                        append(written)
                    } else {
                        diagnostics.append(.error("\(external.describe(name)) is a list and cannot be part of a string", at: value.location))
                    }
                    secret = true
                case let unfilled:
                    if let fallback {
                        append(fallback)
                    } else if let problem = external.problem(reading: name, found: unfilled) {
                        diagnostics.append(.error(problem, at: value.location))
                    }
                }
            case .parameter(let name):
                guard let parameter = parameterValue(name) else { continue }
                secret = secret || parameter.isSecret
                switch parameter.kind {
                case .string(let string): append(string)
                case .list, .map:
                    diagnostics.append(.error("parameter '\(name)' is \(parameter.kindDescription) and cannot be part of a string", at: value.location))
                default: append(parameter.description)
                }
            }
            if size > Self.maxExpandedBytes {
                diagnostics.append(.error(Self.valuePastTextLimitMessage, at: value.location))
                return ("", secret)
            }
        }
        return (text, secret)
    }

    /// A parameter's value with its own templates filled in; `nil` for one not defined.
    mutating func parameterValue(_ name: String) -> ManifestValue? {
        if parameterValues == nil { resolveParameters() }
        return parameterValues![name]
    }
}
