#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Checks a service's `args` against what its factory reads (an ``ArgumentSchema``) and
/// reports every problem at its position: a value of the wrong type, a missing required field,
/// an unknown key (with a did-you-mean), an enum value that is not a case, a number out of the
/// field's range, a plain value where a reference belongs.
///
/// The same check runs when a container is built (schemas from the registry), in an app's
/// `validate`, and in `wiring validate --catalog` (schemas from the catalog file), so all three
/// report the same lines.
struct ArgumentChecker {
    /// What a service's `${…}` and `$(…)` values read.
    let values: ArgumentFill
    /// Whether only keys are checked (no value's type): what is left to check of arguments that
    /// decoded, since decoding ignores a key no field reads.
    let keysOnly: Bool
    private(set) var diagnostics: [Diagnostic] = []

    init(values: ArgumentFill, keysOnly: Bool = false) {
        self.values = values
        self.keysOnly = keysOnly
    }

    /// Checks `args` of the service shown as `owner` (`Pool`, `Pool[replica]`), declared at
    /// `location`, against the schema of `factory`'s arguments.
    mutating func check(_ args: ManifestMap?, of owner: String, at location: SourceLocation,
                        factory: String, against schema: ArgumentSchema) {
        let subject = Subject(owner: owner, factory: factory)
        guard let args else {
            if case .object(_, let fields) = schema {
                for field in fields where field.isRequired {
                    report(subject, "missing argument '\(field.name)' (\(field.schema.summary))", at: location)
                }
            }
            return
        }
        check(ManifestValue(.map(args), at: args.location), path: "", against: schema, subject: subject)
    }

    private struct Subject {
        let owner: String
        let factory: String
    }

    private mutating func report(_ subject: Subject, _ message: String, path: String = "", at location: SourceLocation) {
        diagnostics.append(Self.diagnostic(owner: subject.owner, factory: subject.factory, path: path, message, at: location))
    }

    /// The error for a problem of the argument at `path` (empty: the arguments as a whole) of
    /// the service shown as `owner`.
    static func diagnostic(owner: String, factory: String, path: String, _ message: String, at location: SourceLocation) -> Diagnostic {
        let argument = path.isEmpty ? "" : "argument '\(path)': "
        return .error("service \(owner): \(argument)\(message)", at: location,
                      notes: [Diagnostic.Note("read by factory '\(factory)'")])
    }

    /// - Parameter optional: Whether `null` stands for "not set" (an optional field).
    private mutating func check(_ value: ManifestValue, path: String, against schema: ArgumentSchema, subject: Subject,
                                optional: Bool = false) {
        // The arguments were read into built values (``ArgumentFill/read(_:)``): reading a kind
        // costs a copy.
        let kind = value.kind
        if optional, case .null = kind { return }
        if !values.passedOver.isEmpty, values.passedOver.contains(value.location) { return }
        // Neither a secret nor what the environment holds is shown: the variable is named.
        var source: String? { values.source(at: value.location) }
        func mismatch(_ expected: String) {
            report(subject, "expected \(expected), found \(value.foundDescription(source: source))", path: path, at: value.location)
        }
        // A reference belongs only where the type reads one, and nowhere else.
        switch kind {
        case .service, .tagged:
            guard !keysOnly else { return }
            if case .reference = schema { return }
            if case .unknown = schema { return }
            report(subject, "is a service reference, but factory '\(subject.factory)' reads \(schema.summary) there", path: path, at: value.location)
            return
        default: break
        }
        if keysOnly {
            switch schema {
            case .list, .dictionary, .object: break
            default: return
            }
        }
        switch schema {
        case .string: if (try? Swift.String(manifestValue: value)) == nil { mismatch(schema.summary) }
        case .number: if (try? Double(manifestValue: value)) == nil { mismatch(schema.summary) }
        case .boolean: if (try? Bool(manifestValue: value)) == nil { mismatch(schema.summary) }
        case .url: if (try? URL(manifestValue: value)) == nil { mismatch(schema.summary) }
        case .duration:
            if (try? Duration(manifestValue: value)) == nil { mismatch(Duration.manifestTypeDescription) }
        case .integer(let type, let minimum, let maximum):
            guard let number = try? Int(manifestValue: value) else { return mismatch(schema.summary) }
            if number < minimum || number > maximum {
                report(subject, "\(value.isSecret ? "the value\(source.map { " of \($0)" } ?? "")" : String(number)) is out of range for \(type) (\(minimum)...\(maximum))",
                       path: path, at: value.location)
            }
        case .enumeration(let type, let cases):
            let text: String
            switch kind {
            case .string(let string): text = string
            case .int(let number): text = String(number)
            default: return mismatch(schema.summary)
            }
            guard !cases.contains(text) else { return }
            let shown = value.isSecret ? "the value\(source.map { " of \($0)" } ?? "")" : "'\(text)'"
            report(subject, "\(shown) is not a case of \(type) (\(cases.joined(separator: ", ")))\(value.isSecret ? "" : Suggestion.hint(for: text, in: cases))",
                   path: path, at: value.location)
        case .list(let element):
            guard case .list(let values) = kind else { return mismatch(schema.summary) }
            for (index, item) in values.enumerated() { check(item, path: "\(path)[\(index)]", against: element, subject: subject) }
        case .dictionary(let element):
            guard case .map(let map) = kind else { return mismatch(schema.summary) }
            for entry in map.entries { check(entry.value, path: Self.join(path, entry.key), against: element, subject: subject) }
        case .object(let type, let fields):
            guard case .map(let map) = kind else { return mismatch("a mapping (\(type))") }
            let entries = map.entries
            for entry in entries {
                guard let field = fields.first(where: { $0.name == entry.key }) else {
                    let names = fields.map(\.name)
                    let known = Suggestion.hint(for: entry.key, in: names)
                    let listed = known.isEmpty ? " (\(type) reads \(names.isEmpty ? "none" : names.joined(separator: ", ")))" : known
                    report(subject, "unknown argument '\(Self.join(path, entry.key))'\(listed)", at: entry.keyLocation)
                    continue
                }
                check(entry.value, path: Self.join(path, entry.key), against: field.schema, subject: subject, optional: !field.isRequired)
            }
            for field in fields where field.isRequired && !entries.contains(where: { $0.key == field.name }) {
                report(subject, "missing argument '\(Self.join(path, field.name))' (\(field.schema.summary))", at: map.location)
            }
        case .reference(let type):
            guard case .list(let values) = kind, values.allSatisfy(Self.isServiceReference) else {
                return mismatch("a service reference (!service or !tagged) for \(type)")
            }
        case .value, .unknown:
            break
        }
    }

    private static func isServiceReference(_ value: ManifestValue) -> Bool {
        if case .service = value.kind { return true }
        return false
    }

    private static func join(_ path: String, _ key: String) -> String {
        path.isEmpty ? key : "\(path).\(key)"
    }
}
