import Foundation
import Testing
import Wiring
import WiringCommands

/// What typed arguments and catalogs used to pass over without a word: each now reported.
@Suite("Typed arguments: nothing dropped")
struct ArgumentEdgeTests {
    struct Gain: Decodable, Sendable {
        var level: Float
    }

    struct Sized: Decodable, Sendable {
        var size: Int
    }

    @Test func aFloatPastItsRangeIsAnErrorNotInfinity() throws {
        let registry = FactoryRegistry()
        registry.factory("gain", args: Gain.self) { _, args in args.level }
        let error = #expect(throws: ManifestError.self) {
            try TypedFactoryFormsTests.container("services:\n  Gain: { factory: gain, args: { level: 1.0e40 } }\n", registry)
        }
        #expect(error?.errors.map(\.message) == ["service Gain: argument 'level': 1e+40 is out of range for Float (±3.4028235e+38)"])
        let fits = try TypedFactoryFormsTests.container("services:\n  Gain: { factory: gain, args: { level: 0.5 } }\n", registry)
        #expect(try fits.resolve(key: "Gain") as? Float == 0.5)
    }

    /// A variant inherits its service's wrong value: reported once, for the service, whatever
    /// the variant's name holds (a colon in it made the two messages look different).
    @Test func anInheritedProblemIsReportedOnceWhateverTheVariantIsCalled() throws {
        let registry = FactoryRegistry()
        registry.factory("sized", args: Sized.self) { _, args in args.size }
        let error = #expect(throws: ManifestError.self) {
            try TypedFactoryFormsTests.container("""
                services:
                  Sized:
                    factory: sized
                    args: { size: many }
                    names: { "eu:west": {}, plain: {} }
                """, registry)
        }
        #expect(error?.errors.map(\.message) == ["service Sized: argument 'size': expected an integer, found a string 'many'"])
    }

    /// A catalog field without `required` is not a catalog: it is not read as optional.
    @Test func aCatalogFieldWithoutRequiredIsRefused() throws {
        let registry = FactoryRegistry()
        registry.factory("sized", args: Sized.self) { _, args in args.size }
        let written = String(decoding: try FactoryCatalog(registry: registry).jsonData(), as: UTF8.self)
        #expect(written.contains("\"required\" : true,"))
        #expect(try FactoryCatalog(contentsOf: try TestSupport.temporaryFile(written, name: "factories.json")).factories == ["sized"])
        let withoutRequired = written.replacingOccurrences(of: "\"required\" : true,", with: "")
        #expect(throws: ManifestError.self) { try FactoryCatalog(contentsOf: try TestSupport.temporaryFile(withoutRequired, name: "factories.json")) }
    }
}
