/// Checks and decodes typed factories' arguments with the values a container (or `validate`)
/// reads: `${VAR}` from its environment, `$(param)` from the manifest's parameters.
///
/// A value that reads an environment variable that is not set and has no default cannot be
/// checked: it is passed over (building a container reports the variable; `validate` warns).
final class ArgumentFill {
    private var values: ValueResolver
    /// Whether the last check passed over a value it could not fill in.
    private var passedOver = false

    init(_ values: ValueResolver) {
        self.values = values
    }

    /// `value` with its references filled in; `nil` when an environment variable it reads is
    /// unset with no default.
    func fill(_ value: ManifestValue) -> ManifestValue? {
        if case .template(let template) = value.kind {
            for case .environment(let name, let fallback) in template.parts where values.environment[name] == nil && fallback == nil {
                passedOver = true
                return nil
            }
        }
        return values.resolve(value)
    }

    /// The environment variables a written value reads, directly or through the parameters it
    /// reads (`$(logLevel)` with `logLevel: ${LOG_LEVEL:-info}`), in order, each once.
    func environmentVariables(of value: ManifestValue) -> [String] {
        var found: [String] = []
        var seenParameters: Set<String> = []
        var pending = [value]
        while let next = pending.popLast() {
            guard case .template(let template) = next.kind else { continue }
            for part in template.parts {
                switch part {
                case .environment(let name, _): if !found.contains(name) { found.append(name) }
                case .parameter(let name):
                    guard seenParameters.insert(name).inserted, let parameter = values.manifest.parameter(name) else { continue }
                    pending.append(parameter.value)
                case .literal: break
                }
            }
        }
        return found
    }

    /// Every problem of `args` (of the service shown as `owner`, declared at `location`)
    /// against the schema of its factory's arguments.
    func check(_ args: ManifestMap?, of owner: String, at location: SourceLocation, factoryKey: String,
               against schema: ArgumentSchema) -> [Diagnostic] {
        var checker = ArgumentChecker(values: self)
        checker.check(args, of: owner, at: location, factory: factoryKey, against: schema)
        return checker.diagnostics
    }

    /// The problems of a named variant's arguments, less those its service reported already
    /// (a value the variant inherits is reported once, for the service).
    static func excludingInherited(_ problems: [Diagnostic], reported: [Diagnostic]) -> [Diagnostic] {
        guard !reported.isEmpty else { return problems }
        func problem(_ diagnostic: Diagnostic) -> String {
            "\(diagnostic.location.map(String.init(describing:)) ?? "")\(diagnostic.message.drop { $0 != ":" })"
        }
        let seen = Set(reported.map(problem))
        return problems.filter { !seen.contains(problem($0)) }
    }

    /// `args` checked against `typed`'s schema and, when they pass and hold no reference,
    /// decoded: what a container hands the factory at each build. `reported`: what the service
    /// of a named variant reported, not reported again.
    func decode(_ args: ManifestMap?, of owner: String, at location: SourceLocation, factoryKey: String,
                as typed: TypedArguments, reported: [Diagnostic] = []) -> (DecodedArguments?, [Diagnostic]) {
        passedOver = false
        let all = check(args, of: owner, at: location, factoryKey: factoryKey, against: typed.schema)
        let problems = Self.excludingInherited(all, reported: reported)
        let map = args ?? ManifestMap([], at: location)
        guard all.isEmpty, !passedOver, !map.holdsServiceReference else { return (nil, problems) }
        do {
            return (try typed.decode(values.resolve(map, at: map.location), references: nil), [])
        } catch let failure as ArgumentFailure {
            return (nil, [ArgumentChecker.diagnostic(owner: owner, factory: factoryKey, path: failure.path, failure.message, at: failure.location)])
        } catch {
            return (nil, [ArgumentChecker.diagnostic(owner: owner, factory: factoryKey, path: "", "\(error)", at: map.location)])
        }
    }
}

extension ManifestMap {
    /// Whether a value under the mapping is a `!service` or `!tagged` reference.
    var holdsServiceReference: Bool {
        guard mayHoldServiceReferences else { return false }
        var found = false
        forEachServiceReference { _, _ in found = true }
        return found
    }
}
