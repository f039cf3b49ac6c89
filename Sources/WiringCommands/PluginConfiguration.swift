import Foundation
import Wiring

/// `wiring-plugin.json` in a target that applies the `WiringValidate` build plugin: more
/// manifests than the ones it finds, contexts to check together, and how strict to be.
///
/// ```json
/// {
///   "manifests": ["../../config/services.yaml"],
///   "contexts": ["production"],
///   "strict": false,
///   "registrations": "warning",
///   "catalog": "factories.json"
/// }
/// ```
///
/// `catalog` names the file the app's `catalog` command writes (`myapp catalog > factories.json`):
/// the build then checks every service's `args` against what its typed factory reads.
struct PluginConfiguration: Decodable, Equatable {
    /// More root manifests, relative to the file.
    var manifests: [String] = []
    /// Contexts to check applied together, in order (each context is always checked alone too).
    var contexts: [String] = []
    /// Whether warnings fail the build.
    var strict = false
    /// What a factory key no Swift source of the target names is: a warning, an error, or nothing.
    var registrations: RegistrationCheck = .warning
    /// A factory catalog, relative to the file, to check typed factories' arguments against.
    var catalog: String?

    enum RegistrationCheck: String, Decodable {
        case warning, error, off
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case manifests, contexts, strict, registrations, catalog
    }

    init() {}

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: JSONKey.self)
        for key in container.allKeys where CodingKeys(rawValue: key.stringValue) == nil {
            let known = CodingKeys.allCases.map(\.rawValue)
            throw ConfigurationError(
                "unknown key '\(key.stringValue)'\(Suggestion.hint(for: key.stringValue, in: known)) (keys: \(known.joined(separator: ", ")))")
        }
        let keyed = try decoder.container(keyedBy: CodingKeys.self)
        manifests = try keyed.decodeIfPresent([String].self, forKey: .manifests) ?? []
        contexts = try keyed.decodeIfPresent([String].self, forKey: .contexts) ?? []
        strict = try keyed.decodeIfPresent(Bool.self, forKey: .strict) ?? false
        registrations = try keyed.decodeIfPresent(RegistrationCheck.self, forKey: .registrations) ?? .warning
        catalog = try keyed.decodeIfPresent(String.self, forKey: .catalog)
    }

    /// The largest configuration file read, in bytes.
    static let maxFileSize = 1 << 20

    /// Reads the file at `path`.
    /// - Throws: a ``ManifestError``, with one clear line.
    init(contentsOf path: String) throws(ManifestError) {
        let data: Data
        do {
            data = Data(try SourceFiles.read(path, limit: Self.maxFileSize))
        } catch {
            throw ManifestError("cannot read plugin configuration '\(path)': \(error.reason(limit: Self.maxFileSize))", at: nil)
        }
        do {
            self = try JSONDecoder().decode(PluginConfiguration.self, from: data)
        } catch let error as ConfigurationError {
            throw ManifestError("\(path): \(error.message)", at: nil)
        } catch DecodingError.dataCorrupted(let context) where context.codingPath.last?.stringValue == CodingKeys.registrations.rawValue {
            throw ManifestError("\(path): 'registrations': expected \"warning\", \"error\" or \"off\"", at: nil)
        } catch {
            throw ManifestError("\(path): not a Wiring plugin configuration: \(JSONProblem.describe(error, whole: "the configuration"))", at: nil)
        }
    }

    private struct ConfigurationError: Error {
        let message: String
        init(_ message: String) { self.message = message }
    }
}
