import Foundation
import Testing
import Wiring
@testable import WiringCommands

/// A weight read from manifests by its own code (``ManifestDecodable``): a catalog records it
/// as a value of its type, which `wiring` does not look into.
struct CatalogWeight: Decodable, ManifestDecodable {
    var grams: Int
    static var manifestTypeDescription: String { "a weight" }
    init(manifestValue value: ManifestValue) throws(ManifestError) { grams = try value.decode(Int.self) }
    init(from decoder: any Decoder) throws { grams = try decoder.singleValueContainer().decode(Int.self) }
}

/// A type whose own decoding refuses the placeholder a probe gives it: its schema is unknown.
struct CatalogOpaque: Decodable {
    struct Refused: Error {}
    init(from decoder: any Decoder) throws {
        guard try decoder.singleValueContainer().decode(String.self).hasPrefix("op:") else { throw Refused() }
    }
}

/// Every kind of schema a catalog holds, nested where a manifest nests them.
struct EveryKindArgs: Decodable, Sendable {
    struct Endpoint: Decodable, Sendable {
        var host: URL
        var weight: Double
    }
    enum Mode: String, Decodable, CaseIterable, Sendable { case fast, safe }
    var name: String
    var port: UInt16
    var verbose: Bool?
    var timeout: Duration
    var mode: Mode
    var endpoints: [Endpoint]
    var limits: [String: Int]
    @Reference var ticket: IssuedTicket
    var weight: CatalogWeight
    var opaque: CatalogOpaque?
}

/// The catalog's schemas as the app writes them and `wiring` reads them: every kind survives
/// the file, and checks the manifest at its lines.
@Suite("Factory catalogs: every kind of argument schema")
struct CatalogSchemaTests {
    func registry() -> FactoryRegistry {
        let registry = FactoryRegistry()
        registry.factory("every", args: EveryKindArgs.self) { _, args in args.name }
        registry.factory("ticket") { _ in IssuedTicket() }
        return registry
    }

    @Test func everyKindIsReadBackAsWritten() throws {
        let catalog = FactoryCatalog(registry: registry())
        let fields = try #require(catalog.arguments["every"]?.fields)
        // Each kind is there to be written, so the round trip below covers them all.
        #expect(fields.map(\.schema) == [
            .string, .integer(type: "UInt16", minimum: 0, maximum: 65_535), .boolean, .duration,
            .enumeration(type: "Mode", cases: ["fast", "safe"]),
            .list(.object(type: "Endpoint", fields: [
                ArgumentField(name: "host", schema: .url, isRequired: true),
                ArgumentField(name: "weight", schema: .number, isRequired: true),
            ])),
            .dictionary(.integer(type: "Int", minimum: .min, maximum: .max)),
            .reference(type: "IssuedTicket"), .value(type: "CatalogWeight"),
            .unknown(type: "CatalogOpaque", reason: fields[9].schema.unknownReason ?? "?"),
        ])
        #expect(fields.map(\.isRequired) == [true, true, false, true, true, true, true, true, true, false])
        let file = try TestSupport.temporaryFile("", name: "factories.json")
        try catalog.jsonData().write(to: URL(fileURLWithPath: file))
        #expect(try FactoryCatalog(contentsOf: file) == catalog)
    }

    @Test func aCatalogOfEveryKindChecksTheManifestAtItsLines() throws {
        let file = try TestSupport.temporaryFile("", name: "factories.json")
        try FactoryCatalog(registry: registry()).jsonData().write(to: URL(fileURLWithPath: file))
        let manifest = try TestSupport.temporaryFile("""
            wiring: 1
            services:
              IssuedTicket: { factory: ticket }
              Every:
                factory: every
                args:
                  name: every
                  port: 70000
                  timeout: 5s
                  mode: fsat
                  endpoints: [{ host: "http://a", weight: 1.5 }, { host: "http://b", weight: heavy }]
                  limits: { low: 1, high: lots }
                  ticket: plain
                  weight: anything
                  opaque: [not, checked]

            """)
        let output = try BinaryRunner.run("wiring", ["validate", manifest, "--catalog", file])
        #expect(output.status == 1)
        #expect(output.stdout.split(separator: "\n").filter { $0.contains(": error: ") } == [
            "\(manifest):8:13: error: service Every: argument 'port': 70000 is out of range for UInt16 (0...65535)",
            "\(manifest):10:13: error: service Every: argument 'mode': 'fsat' is not a case of Mode (fast, safe); did you mean 'fast'?",
            "\(manifest):11:82: error: service Every: argument 'endpoints[1].weight': expected a number, found a string 'heavy'",
            "\(manifest):12:31: error: service Every: argument 'limits.high': expected an integer, found a string 'lots'",
            "\(manifest):13:15: error: service Every: argument 'ticket': expected a service reference (!service or !tagged) for IssuedTicket, found a string 'plain'",
        ])
    }

    /// A catalog written by a newer Wiring, with a kind this one does not know: read as
    /// unknown (its values unchecked), never refused.
    @Test func aKindThisVersionDoesNotKnowIsReadAsUnknown() throws {
        let file = try TestSupport.temporaryFile("""
            {"wiring-catalog": 2, "factories": ["every"], "arguments": {"every": {"type": "object", "swiftType": "EveryArgs",
              "fields": [{"name": "span", "required": true, "schema": {"type": "interval", "swiftType": "Span"}}]}}}
            """, name: "factories.json")
        let catalog = try FactoryCatalog(contentsOf: file)
        #expect(catalog.arguments["every"]?.fields?.first?.schema
                == .unknown(type: "Span", reason: "kind 'interval' is not known to this version of Wiring"))
        let manifest = try TestSupport.temporaryFile("wiring: 1\nservices:\n  Every: { factory: every, args: { span: [1, 2] } }\n")
        let output = try BinaryRunner.run("wiring", ["validate", manifest, "--catalog", file])
        #expect(output.status == 0, "\(output.stdout)")
    }
}

extension ArgumentSchema {
    /// Why the schema is unknown, when it is.
    fileprivate var unknownReason: String? {
        if case .unknown(_, let reason) = self { return reason }
        return nil
    }
}
