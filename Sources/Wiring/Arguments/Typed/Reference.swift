/// A field of a typed factory's arguments that the manifest fills with a service:
/// `!service Key`, `!service { service: Key, name: n }`, a list of them, or `!tagged tag`.
///
/// ```swift
/// struct AuditArgs: Decodable, Sendable {
///     var prefix: String
///     @Reference var log: any LogSink                  // log: !service LogSink
///     @Reference var checks: [any HealthCheck]         // checks: !tagged health-check
/// }
/// registry.factory("audited-store", args: AuditArgs.self) { r, args in
///     AuditedStore(inner: try r.decorated(), prefix: args.prefix, log: args.log)
/// }
/// ```
///
/// The service is resolved when the factory runs, within its resolution, exactly as
/// `r.resolve` would (same scopes, `graph` sharing, cycle detection, path in errors); an async
/// factory awaits it. Building the container checks that the manifest writes a reference
/// there; that the service exists, and cycles and captive dependencies, are checked as for any
/// `!service` argument.
///
/// A custom `init(from:)` may decode a `Reference` but must not read its `wrappedValue`: the
/// container decodes the arguments once, with a placeholder where each service will be, and
/// deriving the type's schema does the same. Read it in the factory.
@propertyWrapper
public struct Reference<Value>: Decodable {
    /// The instance, boxed (a ``ReferenceBox``): one reference in the arguments' layout, which
    /// a build replaces with the box of the instance it resolved (see ``ReferenceSlot``). Only
    /// the arguments a container keeps to copy hold a placeholder instead, never a factory's.
    let box: AnyObject

    /// The resolved service.
    public var wrappedValue: Value { (box as! ReferenceBox<Value>).instance }

    /// A field set in code (a test that builds the arguments itself).
    public init(wrappedValue: Value) {
        box = ReferenceBox(wrappedValue)
    }

    init(box: AnyObject) {
        self.box = box
    }

    /// Resolves the service the manifest names at this field.
    /// - Throws: A decoding error when the decoder is not a manifest's (references are not
    ///   data), the value is not a reference, or the service cannot be resolved as a `Value`.
    public init(from decoder: any Decoder) throws {
        guard let decoder = decoder as? ArgumentDecoder else {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: decoder.codingPath,
                debugDescription: "a @Reference field is filled from a manifest's !service or !tagged value, not decoded from data"))
        }
        box = try decoder.referenceBox(for: Value.self)
    }
}

// The box holds a `Value`, or is a placeholder that holds nothing.
extension Reference: @unchecked Sendable where Value: Sendable {}

/// A ``Reference``'s instance.
final class ReferenceBox<Value> {
    let instance: Value
    /// Required, so that a build makes boxes through the metatype its slot keeps, without
    /// looking the generic class's metadata up each time.
    required init(_ instance: Value) { self.instance = instance }
}

/// What a ``Reference`` field holds in arguments a container keeps to copy for each build.
final class ReferencePlaceholder {}

/// What ``SchemaProbe`` needs of a ``Reference`` without knowing its value type.
protocol ReferenceField {
    static var placeholder: Any { get }
    static var referencedTypeName: String { get }
}

extension Reference: ReferenceField {
    static var placeholder: Any { Reference(box: ReferencePlaceholder()) }
    static var referencedTypeName: String { String(describing: Value.self) }
}
