package import Foundation
package import Wiring

/// The factory keys an app registers and what each typed factory reads, as JSON, so that
/// `wiring validate --catalog` can check a manifest's factory keys and arguments without the
/// app's code, and `wiring schema --catalog` can type each service's `args` for editors.
///
/// An app writes it with its embedded `catalog` command (or ``FactoryCatalog/init(registry:)``
/// and ``jsonData()``); CI checks manifests against it:
///
/// ```sh
/// myapp catalog > factories.json
/// wiring validate config/services.yaml --catalog factories.json
/// ```
///
/// The format: `{"wiring-catalog": 2, "factories": ["console-logger", "pool"], "arguments":
/// {"pool": {"type": "object", "swiftType": "PoolArgs", "fields": [...]}}}`, each factory
/// registered with `args:` under `arguments` (see ``ArgumentSchema``), and each autowired
/// factory's dependency types under `autowired` (`{"note-service": ["NoteStore", "Clock?"]}`,
/// `?` for an optional parameter). Version 1 catalogs (keys only) still read.
package struct FactoryCatalog: Sendable, Codable, Equatable {
    /// The format version: 2 is written; 1 and 2 are read.
    package var version: Int
    /// The registered factory keys, sorted.
    package var factories: [String]
    /// What each factory registered with `args:` reads, by key.
    package var arguments: [String: ArgumentSchema]
    /// The dependency types of each autowired factory, by key: `["NoteStore", "Clock?"]`.
    package var autowired: [String: [String]]

    private enum CodingKeys: String, CodingKey {
        case version = "wiring-catalog"
        case factories
        case arguments
        case autowired
    }

    /// The catalog format versions this version of Wiring reads.
    static let readableVersions = 1...2

    /// A catalog of the keys `registry` holds and of its typed factories' arguments, derived
    /// without running any factory.
    package init(registry: FactoryRegistry) {
        self.init(factories: registry.keys, arguments: registry.argumentSchemas,
                  autowired: registry.autowiredDependencies.mapValues { $0.map(\.description) })
    }

    /// A catalog of the given keys, argument schemas and autowired factories' dependencies.
    package init(factories: [String], arguments: [String: ArgumentSchema] = [:], autowired: [String: [String]] = [:]) {
        version = 2
        self.factories = factories.sorted()
        self.arguments = arguments
        self.autowired = autowired
    }

    /// The autowired factories' dependencies, read.
    package var autowiredDependencies: [String: [AutowiredDependency]] {
        autowired.mapValues { $0.map(AutowiredDependency.init(spelled:)) }
    }

    /// Writes the catalog; `autowired` only when some factory is autowired, so that the
    /// catalog of an app without any reads as before.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(version, forKey: .version)
        try container.encode(factories, forKey: .factories)
        try container.encode(arguments, forKey: .arguments)
        if !autowired.isEmpty { try container.encode(autowired, forKey: .autowired) }
    }

    /// Reads a catalog; `arguments` is empty in a version 1 catalog.
    /// - Throws: A decoding error when the JSON is not a catalog.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decode(Int.self, forKey: .version)
        factories = try container.decode([String].self, forKey: .factories)
        arguments = try container.decodeIfPresent([String: ArgumentSchema].self, forKey: .arguments) ?? [:]
        autowired = try container.decodeIfPresent([String: [String]].self, forKey: .autowired) ?? [:]
        try checkListed()
    }

    /// Refuses what an app's `catalog` command never writes: schemas or dependency types of a
    /// factory `factories` does not list (otherwise ignored in silence), and an empty type name
    /// (otherwise read as a service named '').
    private func checkListed() throws {
        let listed = Set(factories)
        func refuse(_ path: [CodingKeys], _ key: String, at index: Int? = nil, _ problem: String) -> DecodingError {
            let keys: [any CodingKey] = path + [JSONKey(key)] + (index.map { [JSONKey(index: $0)] } ?? [])
            return DecodingError.dataCorrupted(DecodingError.Context(codingPath: keys, debugDescription: problem))
        }
        for key in arguments.keys.sorted() where !listed.contains(key) {
            throw refuse([.arguments], key, "a factory the catalog's 'factories' does not list")
        }
        for key in autowired.keys.sorted() {
            guard listed.contains(key) else { throw refuse([.autowired], key, "a factory the catalog's 'factories' does not list") }
            if let index = autowired[key]?.firstIndex(where: { AutowiredDependency(spelled: $0).type.isEmpty }) {
                throw refuse([.autowired], key, at: index, "an empty type name")
            }
        }
    }

    /// The largest catalog file read, in bytes.
    static let maxFileSize = 32 << 20

    /// Reads a catalog file.
    /// - Throws: ``ManifestError`` with one clear line when the file is missing or is not a catalog.
    package init(contentsOf path: String) throws(ManifestError) {
        let data: Data
        do {
            data = Data(try SourceFiles.read(path, limit: Self.maxFileSize))
        } catch {
            throw ManifestError("cannot read catalog '\(path)': \(error.reason(limit: Self.maxFileSize))", at: nil)
        }
        do {
            self = try JSONDecoder().decode(FactoryCatalog.self, from: data)
        } catch {
            throw ManifestError("'\(path)' is not a factory catalog: \(JSONProblem.describe(error, whole: "the catalog")) (a catalog is {\"wiring-catalog\": 2, "
                                + "\"factories\": [...]}, as an app's 'catalog' command writes it)", at: nil)
        }
        guard Self.readableVersions.contains(version) else {
            throw ManifestError("catalog '\(path)' has format version \(version); this version of Wiring reads 1 and 2", at: nil)
        }
    }

    /// The catalog as pretty-printed JSON.
    /// - Throws: What `JSONEncoder` throws. The schemas Wiring derives hold only text, integers
    ///   and flags, which always encode; the error is thrown, not hidden, because a catalog
    ///   written empty would check nothing.
    package func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(self)
    }
}
