import Foundation
import Testing
@testable import Wiring

/// Every scalar as an optional field, and a list whose elements may be `null`.
struct OptionalScalarArgs: Decodable, Sendable, Equatable {
    var name: String?
    var ratio: Double?
    var scale: Float?
    var int: Int?
    var int8: Int8?
    var int16: Int16?
    var int32: Int32?
    var int64: Int64?
    var uint: UInt?
    var uint8: UInt8?
    var uint16: UInt16?
    var uint32: UInt32?
    var uint64: UInt64?
    var flag: Bool?
    var gaps: [Int?]
}

/// Arguments whose own `init(from:)` reads through every kind of container a decoder hands out:
/// a nested mapping, nested lists (with `null`s skipped), a list of mappings, a decoder for one
/// key, and a single value that may be `null`.
struct WindowShapeArgs: Decodable, Sendable {
    var low: Int
    var high: Int
    var tags: [String]
    var listed: Int?
    var pairs: [String: Int]
    var label: String?
    var note: String?

    enum Keys: String, CodingKey { case bounds, tags, pairs, label, note }
    enum BoundKeys: String, CodingKey { case low, high }
    enum PairKeys: String, CodingKey { case key, value }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        let bounds = try container.nestedContainer(keyedBy: BoundKeys.self, forKey: .bounds)
        low = try bounds.decode(Int.self, forKey: .low)
        high = try bounds.decode(Int.self, forKey: .high)
        var tags = try container.nestedUnkeyedContainer(forKey: .tags)
        listed = tags.count
        self.tags = []
        while !tags.isAtEnd {
            if try tags.decodeNil() { continue }
            self.tags.append(try tags.decode(String.self))
        }
        var list = try container.nestedUnkeyedContainer(forKey: .pairs)
        pairs = [:]
        while !list.isAtEnd {
            let pair = try list.nestedContainer(keyedBy: PairKeys.self)
            pairs[try pair.decode(String.self, forKey: .key)] = try pair.decode(Int.self, forKey: .value)
        }
        label = try Self.optionalString(try container.superDecoder(forKey: .label))
        note = container.contains(.note) ? try Self.optionalString(try container.superDecoder(forKey: .note)) : nil
    }

    private static func optionalString(_ decoder: any Decoder) throws -> String? {
        let value = try decoder.singleValueContainer()
        return value.decodeNil() ? nil : try value.decode(String.self)
    }
}

/// Collections whose element the schema is derived from: a set, optional elements, a mapping of
/// optionals.
struct CollectionShapeArgs: Decodable, Sendable {
    var tags: Set<String>
    var gaps: [Int?]
    var limits: [String: Double?]
}

/// Typed arguments of the shapes a hand-written or synthesized `Decodable` reads, each through
/// the same rules and positions as the common ones.
@Suite("Typed arguments: every shape a decoder reads")
struct TypedArgumentShapesTests {
    static func resolve<A: Decodable & Sendable>(_ type: A.Type, args: String) throws -> A {
        let registry = FactoryRegistry()
        registry.factory("args", args: A.self) { _, args in args }
        let path = try TestSupport.temporaryFile("wiring: 1\nservices:\n  Args: { factory: args, args: \(args) }\n", name: "m.yaml")
        let container = try Container(manifest: path, registry: registry, contexts: .none, options: .init(environment: [:]))
        return try #require(try container.resolve(key: "Args") as? A)
    }

    @Test func everyOptionalScalarIsReadWhenSetAndNilWhenNullOrAbsent() throws {
        let set = try Self.resolve(OptionalScalarArgs.self, args: """
            { name: n, ratio: 0.5, scale: 2, int: -1, int8: -8, int16: -16, int32: -32, int64: -64, \
            uint: 1, uint8: 8, uint16: 16, uint32: 32, uint64: 64, flag: true, gaps: [1, null, 3] }
            """)
        #expect(set == OptionalScalarArgs(name: "n", ratio: 0.5, scale: 2, int: -1, int8: -8, int16: -16, int32: -32, int64: -64,
                                          uint: 1, uint8: 8, uint16: 16, uint32: 32, uint64: 64, flag: true, gaps: [1, nil, 3]))
        let null = try Self.resolve(OptionalScalarArgs.self, args: """
            { name: null, ratio: null, scale: ~, int: null, int8: null, int16: null, int32: null, int64: null, \
            uint: null, uint8: null, uint16: null, uint32: null, uint64: null, flag: null, gaps: [] }
            """)
        let absent = try Self.resolve(OptionalScalarArgs.self, args: "{ gaps: [null] }")
        let none = OptionalScalarArgs(name: nil, ratio: nil, scale: nil, int: nil, int8: nil, int16: nil, int32: nil, int64: nil,
                                      uint: nil, uint8: nil, uint16: nil, uint32: nil, uint64: nil, flag: nil, gaps: [])
        #expect(null == none)
        #expect(absent == OptionalScalarArgs(name: nil, ratio: nil, scale: nil, int: nil, int8: nil, int16: nil, int32: nil, int64: nil,
                                             uint: nil, uint8: nil, uint16: nil, uint32: nil, uint64: nil, flag: nil, gaps: [nil]))
    }

    /// An optional field's value that does not fit is the same error as a required one's.
    @Test func anOptionalOfTheWrongTypeIsAnErrorAtItsValue() throws {
        let error = #expect(throws: ManifestError.self) {
            try Self.resolve(OptionalScalarArgs.self, args: "{ uint32: -1, gaps: [] }")
        }
        #expect(error?.errors.map(\.message) == ["service Args: argument 'uint32': -1 is out of range for UInt32 (0...4294967295)"], "\(String(describing: error))")
    }

    @Test func aTypeReadingThroughContainersOfItsOwnDecodes() throws {
        let args = try Self.resolve(WindowShapeArgs.self, args: """
            { bounds: { low: 1, high: 9 }, tags: [a, null, b], pairs: [{ key: x, value: 1 }, { key: y, value: 2 }], label: null, note: hi }
            """)
        #expect(args.low == 1 && args.high == 9)
        #expect(args.tags == ["a", "b"] && args.listed == 3)
        #expect(args.pairs == ["x": 1, "y": 2])
        #expect(args.label == nil && args.note == "hi")
        let noNote = try Self.resolve(WindowShapeArgs.self, args: "{ bounds: { low: 1, high: 2 }, tags: [], pairs: [], label: l }")
        #expect(noNote.label == "l" && noNote.note == nil)
    }

    /// A set and optional elements are described by their element, so that a value of the
    /// wrong kind is found when the container is built, at its position.
    @Test func setsAndOptionalElementsAreCheckedByTheirElement() throws {
        #expect(ArgumentSchema(CollectionShapeArgs.self) == .object(type: "CollectionShapeArgs", fields: [
            ArgumentField(name: "tags", schema: .list(.string), isRequired: true),
            ArgumentField(name: "gaps", schema: .list(.integer(type: "Int", minimum: Int.min, maximum: Int.max)), isRequired: true),
            ArgumentField(name: "limits", schema: .dictionary(.number), isRequired: true),
        ]))
        let args = try Self.resolve(CollectionShapeArgs.self, args: "{ tags: [a, b, a], gaps: [1, null], limits: { cpu: 0.5, disk: null } }")
        #expect(args.tags == ["a", "b"] && args.gaps == [1, nil] && args.limits == ["cpu": 0.5, "disk": Double?.none])
        let error = #expect(throws: ManifestError.self) {
            try Self.resolve(CollectionShapeArgs.self, args: "{ tags: [a, [b]], gaps: [x], limits: {} }")
        }
        #expect(error?.errors.map(\.message) == [
            "service Args: argument 'tags[1]': expected a string, found a list",
            "service Args: argument 'gaps[0]': expected an integer, found a string 'x'",
        ])
    }

    /// A problem deep in a hand-written type's nested containers is reported at that value,
    /// when the container is built.
    @Test func aProblemInANestedContainerIsPlacedAtItsValue() throws {
        let error = #expect(throws: ManifestError.self) {
            try Self.resolve(WindowShapeArgs.self, args: "{ bounds: { low: 1, high: nine }, tags: [], pairs: [], label: l }")
        }
        let headline = error?.errors.first?.headline ?? ""
        #expect(headline.hasSuffix("m.yaml:3:58: error: service Args: argument 'bounds.high': expected an integer, found a string 'nine'"), "\(headline)")
    }
}
