#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Decodes a typed factory's arguments from its service's `args`, references filled in, by the
/// manifest's rules: the YAML 1.2 core schema, `${VAR}` and `$(param)` text read as the number,
/// boolean, duration or URL a field asks for, ``ManifestDecodable`` types read their own way.
///
/// It stops at the first problem, thrown as an ``ArgumentFailure`` at its position. When
/// building a container finds one this way, ``ArgumentChecker`` reads the arguments again and
/// reports every problem the schema can tell (see ``ArgumentFill``).
struct ArgumentDecoder: Decoder {
    /// The value, built from its kind read once (a stored value decodes its scalar on every
    /// read of its kind).
    let value: ManifestValue
    let codingPath: [any CodingKey]
    let references: (any ReferenceSource)?
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(value: ManifestValue, codingPath: [any CodingKey], references: (any ReferenceSource)?) {
        self.value = value.built
        self.codingPath = codingPath
        self.references = references
    }

    /// The path to `value` from the arguments: `tls.cert`, `hosts[1]`; empty at the top.
    var path: String { codingPath.spelled }

    /// `type` decoded from `map`, with `references` resolving `@Reference` fields (none: a
    /// reference is an error).
    static func decode<T: Decodable>(_ type: T.Type, from map: ManifestMap, references: (any ReferenceSource)?) throws -> T {
        let decoder = ArgumentDecoder(value: ManifestValue(.map(map), at: map.location), codingPath: [], references: references)
        do {
            return try decoder.decode(type)
        } catch let error as DecodingError {
            // Thrown by the type's own `init(from:)`: placed at the value its path names. Its
            // message may quote the value, which is not shown when secret.
            let value = decoder.locate(error.codingPath)
            let message = value.isSecret ? "the value (not shown) cannot be read as \(T.self)" : error.message
            throw ArgumentFailure(message, at: value.location, path: error.codingPath.spelled)
        }
    }

    /// `type` read from this decoder's value.
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if let leaf = try Self.leaf(type, from: value, path: codingPath) { return leaf }
        return try decodeComposite(type)
    }

    /// `type`, which ``leaf(_:from:path:)`` does not read, read from this decoder's value.
    func decodeComposite<T: Decodable>(_ type: T.Type) throws -> T {
        switch value.kind {
        case .service, .tagged:
            guard T.self is any ReferenceField.Type else {
                throw ArgumentFailure("is a service reference, but the field is \(ArgumentSchema(type).summary); declare it @Reference",
                                      at: value.location, path: path)
            }
        default: break
        }
        if let readable = T.self as? any ManifestDecodable.Type {
            func open<M: ManifestDecodable>(_: M.Type) throws -> Any {
                do {
                    return try M(manifestValue: value)
                } catch {
                    throw ArgumentFailure(error.diagnostics.first?.message ?? "cannot be read", at: value.location, path: path)
                }
            }
            return try open(readable) as! T
        }
        return try T(from: self)
    }

    /// `type` read from `value` when it is a scalar type a manifest writes (the common case,
    /// read without a decoder of its own); `nil` for any other type.
    static func leaf<T>(_ type: T.Type, from value: ManifestValue, path: @autoclosure () -> [any CodingKey]) throws -> T? {
        func read<M: ManifestDecodable>(_: M.Type) throws -> M {
            do {
                return try M(manifestValue: value)
            } catch {
                throw ArgumentFailure(error.diagnostics.first?.message ?? "cannot be read", at: value.location, path: path().spelled)
            }
        }
        // Each type compared, then read as itself: no dynamic cast on the common path.
        if T.self == String.self { return unsafeBitCast(try read(String.self), to: T.self) }
        if T.self == Int.self { return unsafeBitCast(try read(Int.self), to: T.self) }
        if T.self == Bool.self { return unsafeBitCast(try read(Bool.self), to: T.self) }
        if T.self == Double.self { return unsafeBitCast(try read(Double.self), to: T.self) }
        if T.self == Duration.self { return unsafeBitCast(try read(Duration.self), to: T.self) }
        if T.self == URL.self { return unsafeBitCast(try read(URL.self), to: T.self) }
        // The other integers and floating-point types, by comparing types too: asking whether a
        // type conforms to a protocol costs more than reading most values.
        func integer<I: FixedWidthInteger>(_: I.Type) throws -> T {
            let number = try read(Int.self)
            guard let exact = I(exactly: number) else {
                throw ArgumentFailure("\(number) is out of range for \(I.self) (\(I.min)...\(I.max))", at: value.location, path: path().spelled)
            }
            return unsafeBitCast(exact, to: T.self)
        }
        if T.self == UInt16.self { return try integer(UInt16.self) }
        if T.self == UInt8.self { return try integer(UInt8.self) }
        if T.self == UInt32.self { return try integer(UInt32.self) }
        if T.self == UInt64.self { return try integer(UInt64.self) }
        if T.self == UInt.self { return try integer(UInt.self) }
        if T.self == Int8.self { return try integer(Int8.self) }
        if T.self == Int16.self { return try integer(Int16.self) }
        if T.self == Int32.self { return try integer(Int32.self) }
        if T.self == Int64.self { return try integer(Int64.self) }
        if T.self == Float.self {
            // Rounded to the nearest Float, as Swift converts; a finite number past Float's range
            // is an error, not infinity.
            let number = try read(Double.self)
            let single = Float(number)
            guard single.isFinite || !number.isFinite else {
                throw ArgumentFailure("\(number) is out of range for Float (±\(Float.greatestFiniteMagnitude))", at: value.location, path: path().spelled)
            }
            return unsafeBitCast(single, to: T.self)
        }
        return nil
    }

    /// The box of a ``Reference`` field: the service (or services) this decoder's value refers
    /// to, as a `T`, or, when a container is built, a placeholder a build fills in.
    func referenceBox<T>(for type: T.Type) throws -> AnyObject {
        switch value.kind {
        case .service, .tagged, .list: break
        default:
            throw ArgumentFailure("expected a service reference (!service Key), found \(value.kindDescription)", at: value.location, path: path)
        }
        guard let references else {
            throw ArgumentFailure("is a service reference; it is resolved when the factory runs", at: value.location, path: path)
        }
        if let planner = references as? ReferencePlanner { return planner.placeholder(for: value, path: path, as: type) }
        return ReferenceBox(try references.instance(for: value, path: path, as: type))
    }

    /// A decoder for `child`, under `key` (a mapping's) or at `index` (a list's).
    func child(_ child: ManifestValue, key: any CodingKey) -> ArgumentDecoder {
        ArgumentDecoder(value: child, codingPath: codingPath + [key], references: references)
    }

    /// The value at `codingPath` (from the top); the nearest value found.
    func locate(_ codingPath: [any CodingKey]) -> ManifestValue {
        var current = value
        for key in codingPath {
            switch current.kind {
            case .map(let map):
                guard let next = map[key.stringValue] else { return current }
                current = next
            case .list(let values):
                guard let index = key.intValue, values.indices.contains(index) else { return current }
                current = values[index]
            default:
                return current
            }
        }
        return current
    }

    func mismatch(_ expected: String) -> ArgumentFailure {
        ArgumentFailure("expected \(expected), found \(value.kindDescription)", at: value.location, path: path)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .map(let map) = value.kind else { throw mismatch("a mapping") }
        return KeyedDecodingContainer(ArgumentKeyedContainer<Key>(decoder: self, map: map))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .list(let values) = value.kind else { throw mismatch("a list") }
        return ArgumentUnkeyedContainer(decoder: self, values: values)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        ArgumentSingleValueContainer(decoder: self)
    }
}

extension ManifestValue {
    /// This value with its kind read once and kept: what a decoder reads over and over.
    var built: ManifestValue {
        ManifestValue(kind, at: location, isSecret: isSecret, isInterpolated: isInterpolated)
    }
}

/// Resolves the services `@Reference` fields name, for the factory being built.
protocol ReferenceSource {
    /// The service (or services) `value` refers to, at `path` in the arguments, as a `T`.
    func instance<T>(for value: ManifestValue, path: String, as type: T.Type) throws -> T
}

/// A problem decoding arguments, at its position.
struct ArgumentFailure: Error {
    let message: String
    let location: SourceLocation
    /// Where in the arguments: `size`, `tls.cert`; empty for the arguments as a whole.
    let path: String

    init(_ message: String, at location: SourceLocation, path: String) {
        self.message = message
        self.location = location
        self.path = path
    }
}

extension DecodingError {
    /// What the error says, without the coding path (the position says where).
    var message: String {
        switch self {
        case .dataCorrupted(let context), .typeMismatch(_, let context), .valueNotFound(_, let context):
            return context.debugDescription
        case .keyNotFound(let key, _):
            return "missing argument '\(key.stringValue)'"
        @unknown default:
            return "\(self)"
        }
    }

    var codingPath: [any CodingKey] {
        switch self {
        case .dataCorrupted(let context), .typeMismatch(_, let context), .valueNotFound(_, let context),
             .keyNotFound(_, let context):
            return context.codingPath
        @unknown default:
            return []
        }
    }
}

extension [any CodingKey] {
    /// `tls.cert`, `hosts[1]`.
    var spelled: String {
        var text = ""
        for key in self {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return text
    }
}

private struct ArgumentKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: ArgumentDecoder
    let map: ManifestMap
    /// The entries, read once: each key is looked up among them.
    let entries: [ManifestMap.Entry]
    /// Where each key is, for a mapping too large to scan at each lookup: a type that reads every
    /// key it finds (a dictionary of structs) looks each one up.
    private let positions: [String: Int]?
    var codingPath: [any CodingKey] { decoder.codingPath }

    /// The most entries looked up by scanning them.
    private static var scannedEntries: Int { 16 }

    init(decoder: ArgumentDecoder, map: ManifestMap) {
        self.decoder = decoder
        self.map = map
        let entries = map.entries
        self.entries = entries
        positions = entries.count > Self.scannedEntries
            ? Dictionary(entries.indices.map { (entries[$0].key, $0) }) { first, _ in first } : nil
    }

    var allKeys: [Key] { entries.compactMap { Key(stringValue: $0.key) } }

    func contains(_ key: Key) -> Bool { value(key) != nil }

    private func value(_ key: Key) -> ManifestValue? {
        let name = key.stringValue
        if let positions { return positions[name].map { entries[$0].value } }
        return entries.first { $0.key == name }?.value
    }

    private func required(_ key: Key) throws -> ManifestValue {
        guard let value = value(key) else {
            let path = decoder.path
            throw ArgumentFailure("missing argument '\(key.stringValue)'\(path.isEmpty ? "" : " in '\(path)'")", at: map.location, path: path)
        }
        return value
    }

    /// The value under `key`, `nil` when it is missing or `null`.
    private func present(_ key: Key) -> ManifestValue? {
        guard let value = value(key) else { return nil }
        let built = value.built
        if case .null = built.kind { return nil }
        return built
    }

    func decodeNil(forKey key: Key) throws -> Bool { present(key) == nil }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let value = try required(key).built
        if let leaf = try ArgumentDecoder.leaf(type, from: value, path: codingPath + [key]) { return leaf }
        return try decoder.child(value, key: key).decodeComposite(type)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let value = present(key) else { return nil }
        if let leaf = try ArgumentDecoder.leaf(type, from: value, path: codingPath + [key]) { return leaf }
        return try decoder.child(value, key: key).decodeComposite(type)
    }

    // The standard library's own forms of these look the key up three times.
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        guard let value = present(key) else { return nil }
        return try ArgumentDecoder.leaf(type, from: value, path: codingPath + [key])
    }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        guard let value = present(key) else { return nil }
        return try ArgumentDecoder.leaf(type, from: value, path: codingPath + [key])
    }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        guard let value = present(key) else { return nil }
        return try ArgumentDecoder.leaf(type, from: value, path: codingPath + [key])
    }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
        guard let value = present(key) else { return nil }
        return try ArgumentDecoder.leaf(type, from: value, path: codingPath + [key])
    }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        guard let value = present(key) else { return nil }
        return try ArgumentDecoder.leaf(type, from: value, path: codingPath + [key])
    }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? {
        guard let value = present(key) else { return nil }
        return try ArgumentDecoder.leaf(type, from: value, path: codingPath + [key])
    }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
        guard let value = present(key) else { return nil }
        return try ArgumentDecoder.leaf(type, from: value, path: codingPath + [key])
    }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
        guard let value = present(key) else { return nil }
        return try ArgumentDecoder.leaf(type, from: value, path: codingPath + [key])
    }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
        guard let value = present(key) else { return nil }
        return try ArgumentDecoder.leaf(type, from: value, path: codingPath + [key])
    }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? {
        guard let value = present(key) else { return nil }
        return try ArgumentDecoder.leaf(type, from: value, path: codingPath + [key])
    }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
        guard let value = present(key) else { return nil }
        return try ArgumentDecoder.leaf(type, from: value, path: codingPath + [key])
    }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
        guard let value = present(key) else { return nil }
        return try ArgumentDecoder.leaf(type, from: value, path: codingPath + [key])
    }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
        guard let value = present(key) else { return nil }
        return try ArgumentDecoder.leaf(type, from: value, path: codingPath + [key])
    }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
        guard let value = present(key) else { return nil }
        return try ArgumentDecoder.leaf(type, from: value, path: codingPath + [key])
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try decoder.child(try required(key), key: key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try decoder.child(try required(key), key: key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { decoder }
    func superDecoder(forKey key: Key) throws -> any Decoder { decoder.child(try required(key), key: key) }
}

private struct ArgumentUnkeyedContainer: UnkeyedDecodingContainer {
    let decoder: ArgumentDecoder
    let values: [ManifestValue]
    var currentIndex = 0
    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { values.count }
    var isAtEnd: Bool { currentIndex >= values.count }

    init(decoder: ArgumentDecoder, values: [ManifestValue]) {
        self.decoder = decoder
        self.values = values
    }

    private mutating func next() throws -> ArgumentDecoder {
        guard !isAtEnd else {
            throw ArgumentFailure("expected another element in the list", at: decoder.value.location, path: decoder.path)
        }
        defer { currentIndex += 1 }
        return decoder.child(values[currentIndex], key: IndexKey(currentIndex))
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, case .null = values[currentIndex].kind else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next().decode(type) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next().container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next().unkeyedContainer() }
    mutating func superDecoder() throws -> any Decoder { try next() }
}

private struct ArgumentSingleValueContainer: SingleValueDecodingContainer {
    let decoder: ArgumentDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool {
        if case .null = decoder.value.kind { return true }
        return false
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decode(type) }
}

/// A list element's coding key.
private struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { String(intValue ?? 0) }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}
