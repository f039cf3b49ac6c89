#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Derives an ``ArgumentSchema`` from a `Decodable` type without any data: it decodes the type
/// from a decoder that answers every request with a placeholder (`""`, `0`, an enum's first
/// case) and records what was asked for, field by field.
///
/// Lists, mappings and optionals are described from their element type alone, so that a
/// recursive type (a node with a list of nodes) ends where it repeats. A type that rejects the
/// placeholders, or reads keys it does not name, is ``ArgumentSchema/unknown(type:reason:)``.
struct SchemaProbe {
    /// The types being probed, outermost first: one asked for again is recursive.
    private var inProgress: [ObjectIdentifier] = []

    static func schema<T: Decodable>(of type: T.Type) -> ArgumentSchema {
        var probe = SchemaProbe()
        return probe.schema(of: type)
    }

    /// The schema of `type`, when an instance is not needed (a list's element, an optional).
    mutating func schema<T: Decodable>(of type: T.Type) -> ArgumentSchema {
        do {
            return try probe(type).schema
        } catch {
            return .unknown(type: Self.name(of: type), reason: error.reason)
        }
    }

    /// A placeholder instance of `type` and its schema.
    mutating func probe<T: Decodable>(_ type: T.Type) throws -> (value: T, schema: ArgumentSchema) {
        if let leaf = Self.leaf(type) { return (leaf.value as! T, leaf.schema) }
        if let container = T.self as? any ProbedCollection.Type {
            let (value, schema) = container.probe(with: &self)
            return (value as! T, schema)
        }
        if let reference = T.self as? any ReferenceField.Type {
            return (reference.placeholder as! T, .reference(type: reference.referencedTypeName))
        }
        if let enumeration = Self.enumeration(type) { return (enumeration.first as! T, enumeration.schema) }
        let identifier = ObjectIdentifier(type)
        guard !inProgress.contains(identifier) else { throw ProbeError.recursive(Self.name(of: type)) }
        inProgress.append(identifier)
        defer { inProgress.removeLast() }
        let decoder = ProbeDecoder(probe: self)
        let value: T
        do {
            value = try T(from: decoder)
        } catch let error as ProbeError {
            throw error
        } catch {
            throw ProbeError.rejected(Self.name(of: type), "\(error)")
        }
        self = decoder.probe
        var schema = try decoder.schema(named: Self.name(of: type))
        // A type that reads itself from manifests (``ManifestDecodable``) is read that way.
        if T.self is any ManifestDecodable.Type { schema = .value(type: Self.name(of: type)) }
        return (value, schema)
    }

    static func name(of type: Any.Type) -> String { String(describing: type) }

    /// The types a manifest writes as one scalar, each with a placeholder.
    private static func leaf<T>(_ type: T.Type) -> (value: Any, schema: ArgumentSchema)? {
        if T.self == String.self { return ("", .string) }
        if T.self == Bool.self { return (false, .boolean) }
        if T.self == Duration.self { return (Duration.zero, .duration) }
        if T.self == URL.self { return (URL(fileURLWithPath: "/"), .url) }
        if let integer = T.self as? any FixedWidthInteger.Type {
            func open<I: FixedWidthInteger>(_: I.Type) -> (Any, ArgumentSchema) {
                (I.zero, .integer(type: name(of: I.self), minimum: Int(clamping: I.min), maximum: Int(clamping: I.max)))
            }
            return open(integer)
        }
        if let number = T.self as? any BinaryFloatingPoint.Type {
            func open<F: BinaryFloatingPoint>(_: F.Type) -> Any { F.zero }
            return (open(number), .number)
        }
        return nil
    }

    /// An enum with `String` or `Int` raw values that lists its cases, with its first case.
    private static func enumeration<T>(_ type: T.Type) -> (first: Any, schema: ArgumentSchema)? {
        guard let enumeration = T.self as? any (CaseIterable & RawRepresentable).Type else { return nil }
        func open<E: CaseIterable & RawRepresentable>(_: E.Type) -> (first: Any, schema: ArgumentSchema)? {
            var cases: [String] = []
            for value in E.allCases {
                switch value.rawValue {
                case let text as String: cases.append(text)
                case let number as Int: cases.append(String(number))
                default: return nil
                }
            }
            guard let first = E.allCases.first else { return nil }
            return (first, .enumeration(type: name(of: E.self), cases: cases))
        }
        return open(enumeration)
    }
}

/// Why a type's schema could not be derived.
enum ProbeError: Error {
    /// The type contains itself where an instance is needed.
    case recursive(String)
    /// The type's `init(from:)` threw on the placeholders.
    case rejected(String, String)
    /// The type reads keys it does not name.
    case dynamicKeys(String)
    /// The type opened no container.
    case empty(String)

    var reason: String {
        switch self {
        case .recursive(let type): "\(type) contains itself"
        case .rejected(let type, let error): "\(type).init(from:) rejected placeholder values (\(error))"
        case .dynamicKeys(let type): "\(type) reads its keys dynamically"
        case .empty(let type): "\(type) reads nothing from its decoder"
        }
    }
}

extension Error {
    fileprivate var reason: String {
        (self as? ProbeError)?.reason ?? "\(self)"
    }
}

/// Lists, mappings and optionals: described from their element type, with an empty placeholder.
protocol ProbedCollection {
    static func probe(with probe: inout SchemaProbe) -> (value: Any, schema: ArgumentSchema)
}

extension Array: ProbedCollection where Element: Decodable {
    static func probe(with probe: inout SchemaProbe) -> (value: Any, schema: ArgumentSchema) {
        ([Element](), .list(probe.schema(of: Element.self)))
    }
}

extension Set: ProbedCollection where Element: Decodable {
    static func probe(with probe: inout SchemaProbe) -> (value: Any, schema: ArgumentSchema) {
        (Set<Element>(), .list(probe.schema(of: Element.self)))
    }
}

extension Dictionary: ProbedCollection where Key == String, Value: Decodable {
    static func probe(with probe: inout SchemaProbe) -> (value: Any, schema: ArgumentSchema) {
        ([String: Value](), .dictionary(probe.schema(of: Value.self)))
    }
}

extension Optional: ProbedCollection where Wrapped: Decodable {
    static func probe(with probe: inout SchemaProbe) -> (value: Any, schema: ArgumentSchema) {
        (Wrapped?.none as Any, probe.schema(of: Wrapped.self))
    }
}

/// The decoder ``SchemaProbe`` hands a type: it records the container the type opens.
private final class ProbeDecoder: Decoder {
    var probe: SchemaProbe
    let codingPath: [any CodingKey] = []
    let userInfo: [CodingUserInfoKey: Any] = [:]
    /// What the type opened.
    private var opened: Opened?

    private enum Opened {
        case keyed(ProbeFields)
        case unkeyed(ProbeFields)
        case single(ProbeFields)
    }

    init(probe: SchemaProbe) { self.probe = probe }

    func schema(named type: String) throws -> ArgumentSchema {
        switch opened {
        case .keyed(let fields):
            if fields.readsDynamicKeys {
                guard fields.fields.isEmpty, let value = fields.dynamicValue else { throw ProbeError.dynamicKeys(type) }
                return .dictionary(value)
            }
            return .object(type: type, fields: fields.fields)
        case .unkeyed(let fields): return .list(fields.dynamicValue ?? .unknown(type: type, reason: "a list read in place"))
        case .single(let fields):
            guard let value = fields.dynamicValue else { throw ProbeError.empty(type) }
            return value
        case nil: throw ProbeError.empty(type)
        }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        let fields = ProbeFields(decoder: self)
        opened = .keyed(fields)
        return KeyedDecodingContainer(ProbeKeyedContainer<Key>(fields: fields))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let fields = ProbeFields(decoder: self)
        opened = .unkeyed(fields)
        return ProbeUnkeyedContainer(fields: fields)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        let fields = ProbeFields(decoder: self)
        opened = .single(fields)
        return ProbeSingleValueContainer(fields: fields)
    }
}

/// What a probed type's container asked for.
private final class ProbeFields {
    unowned let decoder: ProbeDecoder
    var fields: [ArgumentField] = []
    /// The schema of values read under keys not named in advance, or of list elements.
    var dynamicValue: ArgumentSchema?
    var readsDynamicKeys = false

    init(decoder: ProbeDecoder) { self.decoder = decoder }

    /// A placeholder for a required value, recorded under `key` (`nil`: a list element or a
    /// single value).
    func required<T: Decodable>(_ type: T.Type, key: String?) throws -> T {
        let (value, schema) = try decoder.probe.probe(type)
        record(schema, key: key, required: true)
        return value
    }

    func optional<T: Decodable>(_ type: T.Type, key: String?) -> T? {
        record(decoder.probe.schema(of: type), key: key, required: false)
        return nil
    }

    func record(_ schema: ArgumentSchema, key: String?, required: Bool) {
        guard let key, key != ProbeKey.sentinel else {
            dynamicValue = schema
            return
        }
        if let index = fields.firstIndex(where: { $0.name == key }) {
            fields[index].isRequired = fields[index].isRequired || required
        } else {
            fields.append(ArgumentField(name: key, schema: schema, isRequired: required))
        }
    }
}

/// The key a probed dictionary is asked to list: any key type that takes it reads keys it
/// does not name in advance.
private enum ProbeKey {
    static let sentinel = "\u{1}*"
}

private struct ProbeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let fields: ProbeFields
    var codingPath: [any CodingKey] { [] }

    var allKeys: [Key] {
        fields.readsDynamicKeys = true
        return Key(stringValue: ProbeKey.sentinel).map { [$0] } ?? []
    }

    func contains(_ key: Key) -> Bool { false }
    func decodeNil(forKey key: Key) throws -> Bool { false }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try fields.required(type, key: key.stringValue)
    }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        fields.optional(type, key: key.stringValue)
    }
    // The standard library's own forms of these would ask `contains(_:)` and then `decode`,
    // recording an optional field as a required one.
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { fields.optional(type, key: key.stringValue) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { fields.optional(type, key: key.stringValue) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { fields.optional(type, key: key.stringValue) }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { fields.optional(type, key: key.stringValue) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { fields.optional(type, key: key.stringValue) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { fields.optional(type, key: key.stringValue) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { fields.optional(type, key: key.stringValue) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { fields.optional(type, key: key.stringValue) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { fields.optional(type, key: key.stringValue) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { fields.optional(type, key: key.stringValue) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { fields.optional(type, key: key.stringValue) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { fields.optional(type, key: key.stringValue) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { fields.optional(type, key: key.stringValue) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { fields.optional(type, key: key.stringValue) }
    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        throw ProbeError.rejected("field '\(key.stringValue)'", "reads a nested container in place")
    }
    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        throw ProbeError.rejected("field '\(key.stringValue)'", "reads a nested list in place")
    }
    func superDecoder() throws -> any Decoder { throw ProbeError.rejected("superclass", "decodes a superclass") }
    func superDecoder(forKey key: Key) throws -> any Decoder { throw ProbeError.rejected("superclass", "decodes a superclass") }
}

private struct ProbeUnkeyedContainer: UnkeyedDecodingContainer {
    let fields: ProbeFields
    var codingPath: [any CodingKey] { [] }
    var count: Int? { 0 }
    var isAtEnd: Bool { fields.dynamicValue != nil }
    var currentIndex: Int { 0 }

    mutating func decodeNil() throws -> Bool { false }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try fields.required(type, key: nil) }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        throw ProbeError.rejected("list", "reads a nested container in place")
    }
    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw ProbeError.rejected("list", "reads a nested list in place")
    }
    mutating func superDecoder() throws -> any Decoder { throw ProbeError.rejected("list", "decodes a superclass") }
}

private struct ProbeSingleValueContainer: SingleValueDecodingContainer {
    let fields: ProbeFields
    var codingPath: [any CodingKey] { [] }

    func decodeNil() -> Bool { false }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try fields.required(type, key: nil) }
}
