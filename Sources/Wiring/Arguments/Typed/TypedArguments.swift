import Synchronization

/// What a factory registered with `args:` reads: its arguments type, how to decode it, and
/// its schema, derived the first time something asks (a container's build, a catalog).
@usableFromInline
package final class TypedArguments: Sendable {
    private let decodeArguments: @Sendable (ManifestMap, (any ReferenceSource)?) throws -> DecodedArguments
    private let planArguments: @Sendable (ManifestMap) throws -> DecodedArguments?
    private let deriveSchema: @Sendable () -> ArgumentSchema
    private let derived = OnceReference<SchemaBox>()

    /// Internal, not private, as `LazyArguments.Filled` is (a compiler crash otherwise).
    final class SchemaBox: Sendable {
        let schema: ArgumentSchema
        init(_ schema: ArgumentSchema) { self.schema = schema }
    }

    init<A: Decodable & Sendable>(_ type: A.Type) {
        decodeArguments = { map, references in
            DecodedArguments(try ArgumentDecoder.decode(A.self, from: map, references: references))
        }
        planArguments = { map in
            let planner = ReferencePlanner()
            let arguments = try ArgumentDecoder.decode(A.self, from: map, references: planner)
            return planner.located(in: arguments).map { DecodedArguments(arguments, slots: $0) }
        }
        deriveSchema = { TypedArguments.schema(of: A.self) }
    }

    /// Schemas derived so far, by type: a type several factories read is derived once.
    private static let derivedByType = Mutex<[ObjectIdentifier: ArgumentSchema]>([:])

    private static func schema<A: Decodable>(of type: A.Type) -> ArgumentSchema {
        if let known = derivedByType.withLock({ $0[ObjectIdentifier(A.self)] }) { return known }
        // Derived outside the lock: a type's `init(from:)` runs, which may take locks of its own.
        let schema = ArgumentSchema(A.self)
        derivedByType.withLock { $0[ObjectIdentifier(A.self)] = schema }
        return schema
    }

    /// The schema of the arguments type, derived once.
    package var schema: ArgumentSchema {
        if let box = derived.load() { return box.schema }
        return derived.storeIfNil(SchemaBox(deriveSchema())).schema
    }

    /// The arguments decoded from `map` (references filled in), `@Reference` fields resolved
    /// through `references`.
    func decode(_ map: ManifestMap, references: (any ReferenceSource)?) throws -> DecodedArguments {
        try decodeArguments(map, references)
    }

    /// The arguments decoded from `map`, which holds references, with a placeholder in each
    /// `@Reference` field for a build to fill (see ``ReferenceSlot``); `nil` when a field's
    /// place cannot be found, and the arguments are decoded at each build.
    func plan(_ map: ManifestMap) throws -> DecodedArguments? {
        try planArguments(map)
    }
}

/// A typed factory's arguments, decoded when the container was built: what each build of its
/// service hands the factory, without reading the manifest again.
final class DecodedArguments: @unchecked Sendable {
    /// The arguments, of the factory's `Decodable & Sendable` type.
    let value: Any
    /// Its `@Reference` fields, which each build fills; empty for arguments without any.
    let slots: [ReferenceSlot]

    init<A: Sendable>(_ value: A, slots: [ReferenceSlot] = []) {
        self.value = value
        self.slots = slots
    }
}
