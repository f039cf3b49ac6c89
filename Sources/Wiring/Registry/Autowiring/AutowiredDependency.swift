import Synchronization

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

/// How an autowired factory fills one of its parameters, worked out once when the factory is
/// registered: from its typed `args`, as an optional service, or as a service resolved by type.
///
/// Not generic: the work for each parameter of the parameter pack's forms runs inside the
/// pack's expansion, which Swift 6.3 does not specialize, so what a generic type or a generic
/// cast would cost there (metadata lookups, a conformance check each build) is decided here
/// once. A service built from three class parameters through the pack costs 2,851
/// instructions against the hand-written closure's 2,475 (`WiringBenchmarks --profile-resolve
/// N packed`, under callgrind); with a generic slot type and `as? P` it cost 6,040. The forms
/// of fixed arity read only `isResolvedByType` on their specialized path.
@usableFromInline
struct AutowiredSlot: Sendable {
    @usableFromInline
    enum Kind: Sendable {
        /// A class: the instance's stored type is compared with `type`, then moved out.
        case object
        /// Any other type (a protocol, a value): cast as `r.resolve` casts it.
        case value
        /// The factory's decoded `args`.
        case arguments
        /// An optional: the wrapped type is resolved, if a service is declared for it.
        case optional(any AutowiredOptional.Type)
    }

    /// The parameter's type.
    @usableFromInline let type: Any.Type
    @usableFromInline let kind: Kind
    /// Whether `kind` is `.object`, read first on the resolve path.
    @usableFromInline let isObject: Bool
    /// Whether `kind` is `.object` or `.value`: the parameter is resolved as `r.resolve(P.self)`
    /// resolves it, which a function of fixed arity inlines.
    @usableFromInline let isResolvedByType: Bool
    /// The last stored type a `.value` parameter's instance was found castable from.
    private let castable = CastMemo()

    /// How a parameter of type `P` is filled, `arguments` being the factory's `args` type, if any.
    @usableFromInline
    init<P>(for parameter: P.Type, arguments: Any.Type?) {
        type = P.self
        if let arguments, arguments == P.self {
            kind = .arguments
        } else if let optional = P.self as? any AutowiredOptional.Type {
            kind = .optional(optional)
        } else {
            kind = P.self is AnyObject.Type ? .object : .value
        }
        switch kind {
        case .object: (isObject, isResolvedByType) = (true, true)
        case .value: (isObject, isResolvedByType) = (false, true)
        case .arguments, .optional: (isObject, isResolvedByType) = (false, false)
        }
    }

    /// The service the parameter depends on; `nil` for the arguments.
    var dependency: AutowiredDependency? {
        switch kind {
        case .arguments: nil
        case .optional(let optional): AutowiredDependency(type: String(describing: optional.wrappedType), isOptional: true)
        case .object, .value: AutowiredDependency(type: String(describing: type), isOptional: false)
        }
    }

    /// `instance`, the service resolved for this parameter, as `P`: cast with `as!` (which
    /// makes no `P?`) when its stored type was castable before; otherwise checked with `as?`,
    /// its stored type remembered.
    func cast<P>(_ instance: Any, as type: P.Type, context: FactoryContext) throws(ResolutionError) -> P {
        let stored = Container.storedType(of: instance)
        if castable.holds(stored) { return instance as! P }   // the same cast succeeded for this stored type before
        return try check(instance, storedAs: stored, as: P.self, context: context)
    }

    /// `instance` checked with `as? P`, its stored type remembered when it is one. A function of
    /// its own: code that mentions `P?` looks its metadata up on entry, found or not.
    @inline(never)
    private func check<P>(_ instance: Any, storedAs stored: Any.Type, as type: P.Type, context: FactoryContext) throws(ResolutionError) -> P {
        guard let typed = instance as? P else { throw context.typeMismatch(instance, expected: self.type, name: nil) }
        castable.remember(stored)
        return typed
    }

    /// The slots of the parameters `types`, in order.
    @usableFromInline
    static func slots<each P>(for types: repeat (each P).Type, arguments: Any.Type?) -> [AutowiredSlot] {
        var slots: [AutowiredSlot] = []
        for type in repeat each types { slots.append(AutowiredSlot(for: type, arguments: arguments)) }
        return slots
    }
}

/// The last stored type one parameter's instances were cast from: a pointer compare then
/// stands for the `as? P` check, whose `P?` costs a metadata lookup in unspecialized code.
final class CastMemo: Sendable {
    private let last = Atomic<Int>(0)

    func holds(_ type: Any.Type) -> Bool {
        last.load(ordering: .relaxed) == Int(bitPattern: unsafeBitCast(type, to: UnsafeRawPointer.self))
    }

    func remember(_ type: Any.Type) {
        last.store(Int(bitPattern: unsafeBitCast(type, to: UnsafeRawPointer.self)), ordering: .relaxed)
    }
}

extension FactoryContext {
    /// The value of the parameter `slots[next]`, of type `P`, in this resolution; `next` moves
    /// to the following parameter. A class stored as itself, the common case, is moved out of
    /// what the container returned: no `P?` is made and no slot is copied on the way (in the
    /// unspecialized code a pack expansion runs, a `P?` looks `Optional<P>`'s metadata up, about
    /// 400 instructions, and a copy of a slot retains its memo).
    @usableFromInline
    func autowired<P>(_ slots: [AutowiredSlot], _ next: inout Int, as type: P.Type) throws(ResolutionError) -> P {
        let index = next
        next = index + 1
        guard slots[index].isObject else { return try autowired(slots[index], as: P.self, arguments: nil) }
        let type = slots[index].type
        var instance = try dependency(type, name: nil)
        guard Container.storedType(in: &instance) == type else { return try slots[index].cast(instance, as: P.self, context: self) }
        return Container.move(&instance, as: P.self)
    }

    /// The value of the parameter `slots[next]`, the factory's decoded `arguments` being those
    /// of the form with `args:`.
    @usableFromInline
    func autowired<P>(_ slots: [AutowiredSlot], _ next: inout Int, as type: P.Type, arguments: Any) throws(ResolutionError) -> P {
        let index = next
        next = index + 1
        return try autowired(slots[index], as: P.self, arguments: arguments)
    }

    /// The value of the parameter `slots[index]` of a function of fixed arity (up to six
    /// parameters), inlined where `P` is known: a parameter resolved by type is
    /// `r.resolve(P.self)`, specialized as in a hand-written closure; the others (`args`, an
    /// optional) are filled as a parameter pack's are.
    @inlinable @inline(__always)
    func autowired<P>(_ slots: [AutowiredSlot], at index: Int) throws(ResolutionError) -> P {
        guard slots[index].isResolvedByType else { return try autowired(slots[index], as: P.self, arguments: nil) }
        return try resolve(P.self)
    }

    /// The value of the parameter `slots[index]` of a function of fixed arity whose service has
    /// typed `args`, `arguments` (a separate function: a default `Any?` argument costs the
    /// form without them about 30 instructions a parameter to destroy).
    @inlinable @inline(__always)
    func autowired<P>(_ slots: [AutowiredSlot], at index: Int, arguments: Any) throws(ResolutionError) -> P {
        guard slots[index].isResolvedByType else { return try autowired(slots[index], as: P.self, arguments: arguments) }
        return try resolve(P.self)
    }

    /// The value of the parameter `slots[index]` of an async function of fixed arity: a
    /// parameter resolved by type is `try await r.resolve(P.self)`, specialized where this is
    /// inlined; `args` and an optional are filled as a parameter pack's are.
    @inlinable @inline(__always)
    func awaitingAutowired<P>(_ slots: [AutowiredSlot], at index: Int) async throws -> P {
        guard slots[index].isResolvedByType else {
            var next = index
            return try await autowired(slots, &next, as: P.self, arguments: nil)
        }
        return try await resolve(P.self)
    }

    /// The value of the parameter `slots[index]` of an async function of fixed arity whose
    /// service has typed `args`, `arguments`.
    @inlinable @inline(__always)
    func awaitingAutowired<P>(_ slots: [AutowiredSlot], at index: Int, arguments: Any) async throws -> P {
        guard slots[index].isResolvedByType else {
            var next = index
            return try await autowired(slots, &next, as: P.self, arguments: arguments)
        }
        return try await resolve(P.self)
    }

    /// The value of the parameter `slot` that is not a class stored as itself.
    @usableFromInline @inline(never)
    func autowired<P>(_ slot: AutowiredSlot, as type: P.Type, arguments: Any?) throws(ResolutionError) -> P {
        switch slot.kind {
        case .object, .value:
            return try slot.cast(try dependency(slot.type, name: nil), as: P.self, context: self)
        case .arguments:
            return try autowiredArguments(arguments, as: P.self)
        case .optional(let optional):
            return try autowiredOptional(optional, as: P.self)
        }
    }

    /// The value of the parameter `slots[next]`, awaited when its service's factory is async.
    @usableFromInline
    func autowired<P>(_ slots: [AutowiredSlot], _ next: inout Int, as type: P.Type, arguments: Any?) async throws -> P {
        let slot = slots[next]
        next += 1
        switch slot.kind {
        case .object, .value:
            return try slot.cast(try await container.resolveAsync(slot.type, name: nil, arguments: .none, from: state), as: P.self, context: self)
        case .arguments:
            return try autowiredArguments(arguments, as: P.self)
        case .optional(let optional):
            return try await autowiredOptional(optional, as: P.self)
        }
    }

    /// The decoded `args` of an autowired factory, as the parameter of their type.
    func autowiredArguments<P>(_ arguments: Any?, as type: P.Type) throws(ResolutionError) -> P {
        guard let typed = arguments as? P else {
            throw error(.typeMismatch(produced: "\(Swift.type(of: arguments))", expected: "\(P.self)"),
                        "service \(serviceKey)'s autowired factory was given no \(P.self) arguments")
        }
        return typed
    }

    /// An optional parameter: `nil` when no service is declared for the type it wraps.
    func autowiredOptional<P>(_ optional: any AutowiredOptional.Type, as type: P.Type) throws(ResolutionError) -> P {
        guard container.isDeclared(optional.wrappedType) else { return optional.noValue as! P }   // `optional` is `P`'s own metatype
        let instance = try dependency(optional.wrappedType, name: nil)
        guard let typed = optional.wrapping(instance) else {
            throw typeMismatch(instance, expected: optional.wrappedType, name: nil)
        }
        return typed as! P   // `wrapping` returns `P`: `optional` is `P`'s own metatype
    }

    /// An optional parameter, awaited when its service's factory is async.
    func autowiredOptional<P>(_ optional: any AutowiredOptional.Type, as type: P.Type) async throws -> P {
        guard container.isDeclared(optional.wrappedType) else { return optional.noValue as! P }   // `optional` is `P`'s own metatype
        let instance = try await container.resolveAsync(optional.wrappedType, name: nil, arguments: .none, from: state)
        guard let typed = optional.wrapping(instance) else {
            throw typeMismatch(instance, expected: optional.wrappedType, name: nil)
        }
        return typed as! P   // `wrapping` returns `P`: `optional` is `P`'s own metatype
    }
}
