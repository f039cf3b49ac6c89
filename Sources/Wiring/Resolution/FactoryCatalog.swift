#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// The factory keys an app registers, as JSON, so `wiring validate --catalog` can check a
/// manifest's factory keys without the app's code.
///
/// An app writes it with its embedded `catalog` command (or ``FactoryCatalog/init(registry:)``
/// and ``jsonData()``); CI checks manifests against it:
///
/// ```sh
/// myapp catalog > factories.json
/// wiring validate config/services.yaml --catalog factories.json
/// ```
///
/// The format: `{"wiring-catalog": 1, "factories": ["console-logger", "file-note-store"]}`.
public struct FactoryCatalog: Sendable, Codable, Equatable {
    /// The format version; 1 is the only one.
    public var version: Int
    /// The registered factory keys, sorted.
    public var factories: [String]

    private enum CodingKeys: String, CodingKey {
        case version = "wiring-catalog"
        case factories
    }

    /// A catalog of the keys `registry` holds.
    public init(registry: FactoryRegistry) {
        self.init(factories: registry.keys)
    }

    /// A catalog of the given keys.
    public init(factories: [String]) {
        version = 1
        self.factories = factories.sorted()
    }

    /// The largest catalog file read, in bytes.
    static let maxFileSize = 32 << 20

    /// Reads a catalog file.
    /// - Throws: ``ManifestError`` with one clear line when the file is missing or is not a catalog.
    public init(contentsOf path: String) throws(ManifestError) {
        let data: Data
        do {
            data = Data(try SourceFiles.read(path, limit: Self.maxFileSize))
        } catch {
            throw ManifestError("cannot read catalog '\(path)': \(error.reason(limit: Self.maxFileSize))", at: nil)
        }
        do {
            self = try JSONDecoder().decode(FactoryCatalog.self, from: data)
        } catch {
            throw ManifestError("'\(path)' is not a factory catalog (expected {\"wiring-catalog\": 1, \"factories\": [...]})", at: nil)
        }
        guard version == 1 else {
            throw ManifestError("catalog '\(path)' has format version \(version); this version of Wiring reads 1", at: nil)
        }
    }

    /// The catalog as pretty-printed JSON.
    public func jsonData() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return (try? encoder.encode(self)) ?? Data()
    }
}
