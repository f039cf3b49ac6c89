/// Checks and decodes typed factories' arguments with the values a container (or `validate`)
/// reads: `${VAR}` from its environment, `$(param)` from the manifest's parameters.
///
/// A service's arguments are read once into built values, their references filled in, which
/// both the check and the decoding then read: a stored value decodes its scalar (and parses its
/// template) each time its kind is read. A value that reads an environment variable that is
/// not set and has no default cannot be checked: it is passed over (building a container
/// reports the variable; `validate` warns of it).
final class ArgumentFill {
    private var values: ValueResolver
    /// Of the arguments read last: the template each filled-in value was written as, and where,
    /// for messages that name the variables it read. A list, indexed when a message first looks
    /// one up: most arguments have no problem, and an insert into a dictionary cost about 1,200
    /// instructions a template.
    private var templates: [(location: SourceLocation, template: StringTemplate)] = []
    private var templateIndex: [SourceLocation: StringTemplate]?
    /// Of the arguments read last: where a value could not be filled in.
    private(set) var passedOver: Set<SourceLocation> = []

    init(_ values: ValueResolver) {
        self.values = values
    }

    /// `map` read into built values, references filled in (a value that cannot be is `null`,
    /// and listed in ``passedOver``).
    func read(_ map: ManifestMap) -> ManifestMap {
        templates = []
        templateIndex = nil
        passedOver = []
        return readEntries(map)
    }

    private func readEntries(_ map: ManifestMap) -> ManifestMap {
        ManifestMap(map.entries.map { ManifestMap.Entry(key: $0.key, keyLocation: $0.keyLocation, value: read($0.value)) },
                    at: map.location)
    }

    private func read(_ value: ManifestValue) -> ManifestValue {
        let content = value.content
        switch content {
        case .template(let template):
            for case .environment(let name, let fallback) in template.parts where !values.canFill(name, fallback: fallback) {
                passedOver.insert(value.location)
                return ManifestValue(.null, at: value.location)
            }
            templates.append((value.location, template))
            return values.resolve(value, content: content).built
        case .value(.list(let elements)):
            return ManifestValue(.list(elements.map(read)), at: value.location, isSecret: value.isSecret, isInterpolated: false)
        case .value(.map(let map)):
            return ManifestValue(.map(readEntries(map)), at: value.location, isSecret: value.isSecret, isInterpolated: false)
        case .value(let kind):
            return ManifestValue(kind, at: value.location, isSecret: value.isSecret, isInterpolated: false)
        }
    }

    /// The environment variables (or configuration keys) the value at `location` read, directly or through the
    /// parameters it reads (`$(logLevel)` with `logLevel: ${LOG_LEVEL:-info}`), in order, each once.
    private func environmentVariables(at location: SourceLocation) -> [String] {
        let index = templateIndex ?? Dictionary(templates.map { ($0.location, $0.template) }) { first, _ in first }
        templateIndex = index
        return values.manifest.externalNames(readBy: index[location].map { [$0] } ?? [])
    }

    /// What a message names instead of the value at `location`: "configuration key 'http.port'";
    /// `nil` when it read nothing from outside the manifest.
    func source(at location: SourceLocation) -> String? {
        values.external.describe(environmentVariables(at: location))
    }

    /// Every problem of `args` (of the service shown as `owner`, declared at `location`)
    /// against the schema of its factory's arguments.
    func check(_ args: ManifestMap?, of owner: String, at location: SourceLocation, factoryKey: String,
               against schema: ArgumentSchema) -> [Diagnostic] {
        check(read: args.map(read), of: owner, at: location, factoryKey: factoryKey, against: schema)
    }

    /// ``check(_:of:at:factoryKey:against:)`` of arguments already read (`keysOnly`: only
    /// that every key is one a field reads).
    private func check(read args: ManifestMap?, of owner: String, at location: SourceLocation, factoryKey: String,
                       against schema: ArgumentSchema, keysOnly: Bool = false) -> [Diagnostic] {
        var checker = ArgumentChecker(values: self, keysOnly: keysOnly)
        checker.check(args, of: owner, at: location, factory: factoryKey, against: schema)
        return checker.diagnostics
    }

    /// The problems of a named variant's arguments (of the service shown as `owner`), less those
    /// its service, shown as `serviceOwner`, reported already: a value the variant inherits is
    /// reported once, for the service. Two problems are the same when they are at the same
    /// place and say the same past the owner each names.
    static func excludingInherited(_ problems: [Diagnostic], of owner: String, reported: [Diagnostic],
                                   by serviceOwner: String) -> [Diagnostic] {
        guard !reported.isEmpty else { return problems }
        func problem(_ diagnostic: Diagnostic, of owner: String) -> String {
            let prefix = "service \(owner): "
            let message = diagnostic.message.hasPrefix(prefix) ? String(diagnostic.message.dropFirst(prefix.count)) : diagnostic.message
            return "\(diagnostic.location.map(String.init(describing:)) ?? "")|\(message)"
        }
        let seen = Set(reported.map { problem($0, of: serviceOwner) })
        return problems.filter { !seen.contains(problem($0, of: owner)) }
    }

    /// `args` decoded (with a placeholder in each `@Reference` field, see ``ReferenceSlot``) and
    /// checked against `typed`'s schema: what a container hands the factory at each build, or
    /// every problem. `reported`: what the service of a named variant (shown as `reportedBy`)
    /// reported, not reported again.
    ///
    /// Arguments that decode are only checked for keys no field reads (decoding checked the
    /// rest): the full check runs when decoding fails, to report every problem, not the first.
    func decode(_ args: ManifestMap?, of owner: String, at location: SourceLocation, factoryKey: String,
                as typed: TypedArguments, reported: [Diagnostic] = [], reportedBy serviceOwner: String = "") -> (DecodedArguments?, [Diagnostic]) {
        let read = args.map(read)
        let map = read ?? ManifestMap([], at: location)
        let decodable = passedOver.isEmpty
        let holdsReference = args?.holdsServiceReference ?? false
        let decode = { holdsReference ? try typed.plan(map) : try typed.decode(map, references: nil) }
        // A failure to decode is not lost: the full check below reports every problem it has.
        if decodable, let decoded = try? decode() {
            let unknown = check(read: read, of: owner, at: location, factoryKey: factoryKey, against: typed.schema, keysOnly: true)
            return unknown.isEmpty ? (decoded, []) : (nil, Self.excludingInherited(unknown, of: owner, reported: reported, by: serviceOwner))
        }
        let all = check(read: read, of: owner, at: location, factoryKey: factoryKey, against: typed.schema)
        let problems = Self.excludingInherited(all, of: owner, reported: reported, by: serviceOwner)
        guard all.isEmpty, decodable else { return (nil, problems) }
        do {
            return (try decode(), [])
        } catch let failure as ArgumentFailure {
            return (nil, [ArgumentChecker.diagnostic(owner: owner, factory: factoryKey, path: failure.path, failure.message, at: failure.location)])
        } catch {
            // An error of the type's own, not a `DecodingError`: its text may quote a value, not
            // shown when the arguments hold a secret (the snapshot shows this message too).
            let message = map.holdsSecret ? "\(String(describing: type(of: error))) (its text is not shown: the arguments hold a secret)" : "\(error)"
            return (nil, [ArgumentChecker.diagnostic(owner: owner, factory: factoryKey, path: "", message, at: map.location)])
        }
    }
}

extension ManifestMap {
    /// Whether a value in it, at any depth, is secret (`!secret`, the environment, a
    /// configuration source).
    var holdsSecret: Bool {
        func secret(_ value: ManifestValue) -> Bool {
            if value.isSecret { return true }
            switch value.kind {
            case .map(let map): return map.holdsSecret
            case .list(let values): return values.contains(where: secret)
            default: return false
            }
        }
        return entries.contains { secret($0.value) }
    }

    /// Whether a value under the mapping is a `!service` or `!tagged` reference.
    var holdsServiceReference: Bool {
        guard mayHoldServiceReferences else { return false }
        var found = false
        forEachServiceReference { _, _ in found = true }
        return found
    }
}
