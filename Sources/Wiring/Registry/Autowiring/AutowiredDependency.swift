/// One service an autowired factory depends on: the type one of its parameters resolves, by
/// the name a manifest's service key or `implements` entry gives it.
///
/// The registry records them when the factory is registered, and the catalog writes them
/// (`"autowired": {"note-service": ["NoteStore", "Clock?"]}`), so that the reference checks of
/// a container, of `validate` and of the build plugin see an autowired factory's edges as they
/// see `!service` ones, before any factory runs.
@usableFromInline
package struct AutowiredDependency: Sendable, Hashable, CustomStringConvertible {
    /// The type's name as a manifest names it: `NoteStore`, or `Clock` for `any Clock`.
    package let type: String
    /// Whether the parameter is optional: it is `nil` when no service is declared for the type.
    package let isOptional: Bool

    @usableFromInline
    package init(type: String, isOptional: Bool) {
        self.type = type
        self.isOptional = isOptional
    }

    /// Reads the catalog's spelling, `NoteStore` or `Clock?`.
    package init(spelled: String) {
        isOptional = spelled.hasSuffix("?")
        type = isOptional ? String(spelled.dropLast()) : spelled
    }

    /// The catalog's spelling: `NoteStore`, or `Clock?` for an optional parameter.
    @usableFromInline
    package var description: String { isOptional ? type + "?" : type }
}

/// `Optional`, seen from an autowired parameter: the type it wraps, resolved only when a
/// service is declared for it.
@usableFromInline
protocol AutowiredOptional: SendableMetatype {
    /// The wrapped type.
    static var wrappedType: Any.Type { get }
    /// `nil`, as this optional type.
    static var noValue: Self { get }
    /// `instance` as this optional type, when it is one of the wrapped type.
    static func wrapping(_ instance: Any) -> Self?
}

extension Optional: AutowiredOptional {
    @usableFromInline static var wrappedType: Any.Type { Wrapped.self }
    @usableFromInline static var noValue: Self { nil }
    @usableFromInline static func wrapping(_ instance: Any) -> Self? { (instance as? Wrapped).map { .some($0) } }
}

/// How an autowired factory fills one of its parameters, of type `P`, worked out once when
/// the factory is registered: from its typed `args`, as an optional service, or as a service
/// resolved as `r.resolve(P.self)` resolves it (the same inlined path a closure takes, so an
/// autowired build costs what the hand-written closure costs).
@usableFromInline
struct AutowiredParameter<P>: Sendable {
    /// Set when `P` is the factory's arguments type: the decoded `args` fill the parameter.
    @usableFromInline let isArguments: Bool
    /// Set when `P` is an optional: the type it wraps is resolved, if a service is declared for it.
    @usableFromInline let optional: (any AutowiredOptional.Type)?

    /// How a parameter of type `P` is filled, `arguments` being the factory's `args` type, if any.
    @usableFromInline
    init(arguments: Any.Type?) {
        isArguments = arguments.map { $0 == P.self } ?? false
        optional = P.self as? any AutowiredOptional.Type
    }

    /// The service the parameter depends on; `nil` for the arguments.
    @usableFromInline
    var dependency: AutowiredDependency? {
        if isArguments { return nil }
        if let optional { return AutowiredDependency(type: String(describing: optional.wrappedType), isOptional: true) }
        return AutowiredDependency(type: String(describing: P.self), isOptional: false)
    }

    /// The parameter's value in the resolution `r`, with the factory's decoded `arguments`.
    @inlinable
    func value(in r: FactoryContext, arguments: Any?) throws(ResolutionError) -> P {
        if isArguments { return try r.autowiredArguments(arguments, as: P.self) }
        if let optional { return try r.autowiredOptional(optional, as: P.self) }
        return try r.resolve(P.self)
    }

    /// The parameter's value, awaiting its service when its factory is async.
    @inlinable
    func value(in r: FactoryContext, arguments: Any?) async throws -> P {
        if isArguments { return try r.autowiredArguments(arguments, as: P.self) }
        if let optional { return try await r.autowiredOptional(optional, as: P.self) }
        return try await r.resolve(P.self)
    }
}

extension FactoryContext {
    /// The decoded `args` of an autowired factory, as the parameter of their type.
    @usableFromInline
    func autowiredArguments<P>(_ arguments: Any?, as type: P.Type) throws(ResolutionError) -> P {
        guard let typed = arguments as? P else {
            throw error(.typeMismatch(produced: "\(Swift.type(of: arguments))", expected: "\(P.self)"),
                        "service \(serviceKey)'s autowired factory was given no \(P.self) arguments")
        }
        return typed
    }

    /// An optional parameter: `nil` when no service is declared for the type it wraps.
    @usableFromInline
    func autowiredOptional<P>(_ optional: any AutowiredOptional.Type, as type: P.Type) throws(ResolutionError) -> P {
        guard container.isDeclared(optional.wrappedType) else { return optional.noValue as! P }   // `optional` is `P`'s own metatype
        let instance = try dependency(optional.wrappedType, name: nil)
        guard let typed = optional.wrapping(instance) else {
            throw typeMismatch(instance, expected: optional.wrappedType, name: nil)
        }
        return typed as! P   // `wrapping` returns `P`: `optional` is `P`'s own metatype
    }

    /// An optional parameter, awaited when its service's factory is async.
    @usableFromInline
    func autowiredOptional<P>(_ optional: any AutowiredOptional.Type, as type: P.Type) async throws -> P {
        guard container.isDeclared(optional.wrappedType) else { return optional.noValue as! P }   // `optional` is `P`'s own metatype
        let instance = try await container.resolveAsync(optional.wrappedType, name: nil, arguments: .none, from: state)
        guard let typed = optional.wrapping(instance) else {
            throw typeMismatch(instance, expected: optional.wrappedType, name: nil)
        }
        return typed as! P   // `wrapping` returns `P`: `optional` is `P`'s own metatype
    }
}
