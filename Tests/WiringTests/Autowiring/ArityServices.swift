import Testing
import Wiring

// The services the tests of every number of autowired parameters build: one initializer of
// `ArityBuilt` (of `AsyncArityBuilt`, async; of `IsolatedArityBuilt`, on the main actor) per
// number, its parameters of each kind (a class, a protocol, an optional whose service is
// declared, one whose service is not), so that each form of fixed arity and the parameter
// pack's form are reached with each kind.

protocol ArityPart: Sendable { var name: String { get } }
protocol ArityProtocol: ArityPart {}

final class ArityA: ArityPart { let name = "a" }
struct ArityB: ArityProtocol { let name = "b" }
final class ArityC: ArityPart { let name = "c" }
final class ArityD: ArityPart { let name = "d" }
final class ArityE: ArityPart { let name = "e" }
final class ArityF: ArityPart { let name = "f" }
final class ArityG: ArityPart { let name = "g" }

struct ArityArgs: Decodable, Sendable { var size: Int }

/// What an autowired function was given: `parts` names them in order (`nil` for an optional
/// that was `nil`, `args:N` for the typed args).
protocol ArityBuilding: AnyObject, Sendable {
    var parts: [String] { get }
    /// The first parameter's instance, when it is the class `ArityA`.
    var first: ArityA? { get }
}

/// The names of `parts`, after the args' when there are some.
func arityNames(_ parts: [(any ArityPart)?], args: ArityArgs?) -> [String] {
    (args.map { ["args:\($0.size)"] } ?? []) + parts.map { $0?.name ?? "nil" }
}

final class ArityBuilt: ArityBuilding {
    let parts: [String]
    let first: ArityA?

    private init(_ parts: [(any ArityPart)?], args: ArityArgs? = nil) {
        self.parts = arityNames(parts, args: args)
        first = parts.first as? ArityA
    }

    convenience init() { self.init([]) }
    convenience init(_ a: ArityA) { self.init([a]) }
    convenience init(_ a: ArityA, _ b: any ArityProtocol) { self.init([a, b]) }
    convenience init(_ a: ArityA, _ b: any ArityProtocol, _ c: ArityC?) { self.init([a, b, c]) }
    convenience init(_ a: ArityA, _ b: any ArityProtocol, _ c: ArityC?, _ d: ArityD) { self.init([a, b, c, d]) }
    convenience init(_ a: ArityA, _ b: any ArityProtocol, _ c: ArityC?, _ d: ArityD, _ e: ArityE?) { self.init([a, b, c, d, e]) }
    convenience init(_ a: ArityA, _ b: any ArityProtocol, _ c: ArityC?, _ d: ArityD, _ e: ArityE?, _ f: ArityF) { self.init([a, b, c, d, e, f]) }
    convenience init(_ a: ArityA, _ b: any ArityProtocol, _ c: ArityC?, _ d: ArityD, _ e: ArityE?, _ f: ArityF, _ g: ArityG) { self.init([a, b, c, d, e, f, g]) }
    convenience init(args: ArityArgs) { self.init([], args: args) }
    convenience init(args: ArityArgs, _ a: ArityA) { self.init([a], args: args) }
    convenience init(args: ArityArgs, _ a: ArityA, _ b: any ArityProtocol) { self.init([a, b], args: args) }
    convenience init(args: ArityArgs, _ a: ArityA, _ b: any ArityProtocol, _ c: ArityC?) { self.init([a, b, c], args: args) }
    convenience init(args: ArityArgs, _ a: ArityA, _ b: any ArityProtocol, _ c: ArityC?, _ d: ArityD) { self.init([a, b, c, d], args: args) }
    convenience init(args: ArityArgs, _ a: ArityA, _ b: any ArityProtocol, _ c: ArityC?, _ d: ArityD, _ e: ArityE?) { self.init([a, b, c, d, e], args: args) }
    convenience init(args: ArityArgs, _ a: ArityA, _ b: any ArityProtocol, _ c: ArityC?, _ d: ArityD, _ e: ArityE?, _ f: ArityF) { self.init([a, b, c, d, e, f], args: args) }
}

final class AsyncArityBuilt: ArityBuilding {
    let parts: [String]
    let first: ArityA?

    private init(_ parts: [(any ArityPart)?], args: ArityArgs? = nil) {
        self.parts = arityNames(parts, args: args)
        first = parts.first as? ArityA
    }

    convenience init() async { self.init([]) }
    convenience init(_ a: ArityA) async { self.init([a]) }
    convenience init(_ a: ArityA, _ b: any ArityProtocol) async { self.init([a, b]) }
    convenience init(_ a: ArityA, _ b: any ArityProtocol, _ c: ArityC?) async { self.init([a, b, c]) }
    convenience init(_ a: ArityA, _ b: any ArityProtocol, _ c: ArityC?, _ d: ArityD) async { self.init([a, b, c, d]) }
    convenience init(_ a: ArityA, _ b: any ArityProtocol, _ c: ArityC?, _ d: ArityD, _ e: ArityE?) async { self.init([a, b, c, d, e]) }
    convenience init(_ a: ArityA, _ b: any ArityProtocol, _ c: ArityC?, _ d: ArityD, _ e: ArityE?, _ f: ArityF) async { self.init([a, b, c, d, e, f]) }
    convenience init(_ a: ArityA, _ b: any ArityProtocol, _ c: ArityC?, _ d: ArityD, _ e: ArityE?, _ f: ArityF, _ g: ArityG) async { self.init([a, b, c, d, e, f, g]) }
    convenience init(args: ArityArgs) async { self.init([], args: args) }
    convenience init(args: ArityArgs, _ a: ArityA) async { self.init([a], args: args) }
    convenience init(args: ArityArgs, _ a: ArityA, _ b: any ArityProtocol) async { self.init([a, b], args: args) }
    convenience init(args: ArityArgs, _ a: ArityA, _ b: any ArityProtocol, _ c: ArityC?) async { self.init([a, b, c], args: args) }
    convenience init(args: ArityArgs, _ a: ArityA, _ b: any ArityProtocol, _ c: ArityC?, _ d: ArityD) async { self.init([a, b, c, d], args: args) }
    convenience init(args: ArityArgs, _ a: ArityA, _ b: any ArityProtocol, _ c: ArityC?, _ d: ArityD, _ e: ArityE?) async { self.init([a, b, c, d, e], args: args) }
    convenience init(args: ArityArgs, _ a: ArityA, _ b: any ArityProtocol, _ c: ArityC?, _ d: ArityD, _ e: ArityE?, _ f: ArityF) async { self.init([a, b, c, d, e, f], args: args) }
}

@MainActor final class IsolatedArityBuilt: ArityBuilding {
    let parts: [String]
    let first: ArityA?

    private init(_ parts: [(any ArityPart)?], args: ArityArgs? = nil) {
        self.parts = arityNames(parts, args: args)
        first = parts.first as? ArityA
    }

    convenience init() { self.init([]) }
    convenience init(_ a: ArityA) { self.init([a]) }
    convenience init(_ a: ArityA, _ b: any ArityProtocol) { self.init([a, b]) }
    convenience init(_ a: ArityA, _ b: any ArityProtocol, _ c: ArityC?) { self.init([a, b, c]) }
    convenience init(_ a: ArityA, _ b: any ArityProtocol, _ c: ArityC?, _ d: ArityD) { self.init([a, b, c, d]) }
    convenience init(_ a: ArityA, _ b: any ArityProtocol, _ c: ArityC?, _ d: ArityD, _ e: ArityE?) { self.init([a, b, c, d, e]) }
    convenience init(_ a: ArityA, _ b: any ArityProtocol, _ c: ArityC?, _ d: ArityD, _ e: ArityE?, _ f: ArityF) { self.init([a, b, c, d, e, f]) }
    convenience init(_ a: ArityA, _ b: any ArityProtocol, _ c: ArityC?, _ d: ArityD, _ e: ArityE?, _ f: ArityF, _ g: ArityG) { self.init([a, b, c, d, e, f, g]) }
}

/// Registers the initializer of `arity` parameters in `form`: each case names the overload the
/// form and the number select, so that every one is compiled and reached.
enum ArityRegistration {
    static func register(_ registry: FactoryRegistry, arity: Int, form: AutowiringArityTests.Form) {
        switch (form, arity) {
        case (.key, 0): registry.autowire("built", ArityBuilt.init as @Sendable () -> ArityBuilt)
        case (.key, 1): registry.autowire("built", ArityBuilt.init(_:))
        case (.key, 2): registry.autowire("built", ArityBuilt.init(_:_:))
        case (.key, 3): registry.autowire("built", ArityBuilt.init(_:_:_:))
        case (.key, 4): registry.autowire("built", ArityBuilt.init(_:_:_:_:))
        case (.key, 5): registry.autowire("built", ArityBuilt.init(_:_:_:_:_:))
        case (.key, 6): registry.autowire("built", ArityBuilt.init(_:_:_:_:_:_:))
        case (.key, 7): registry.autowire("built", ArityBuilt.init(_:_:_:_:_:_:_:))
        case (.type, 0): registry.autowire(ArityBuilt.init as @Sendable () -> ArityBuilt)
        case (.type, 1): registry.autowire(ArityBuilt.init(_:))
        case (.type, 2): registry.autowire(ArityBuilt.init(_:_:))
        case (.type, 3): registry.autowire(ArityBuilt.init(_:_:_:))
        case (.type, 4): registry.autowire(ArityBuilt.init(_:_:_:_:))
        case (.type, 5): registry.autowire(ArityBuilt.init(_:_:_:_:_:))
        case (.type, 6): registry.autowire(ArityBuilt.init(_:_:_:_:_:_:))
        case (.type, 7): registry.autowire(ArityBuilt.init(_:_:_:_:_:_:_:))
        case (.args, 0): registry.autowire("built", ArityBuilt.init as @Sendable () -> ArityBuilt, args: ArityArgs.self)
        case (.args, 1): registry.autowire("built", ArityBuilt.init(args:), args: ArityArgs.self)
        case (.args, 2): registry.autowire("built", ArityBuilt.init(args:_:), args: ArityArgs.self)
        case (.args, 3): registry.autowire("built", ArityBuilt.init(args:_:_:), args: ArityArgs.self)
        case (.args, 4): registry.autowire("built", ArityBuilt.init(args:_:_:_:), args: ArityArgs.self)
        case (.args, 5): registry.autowire("built", ArityBuilt.init(args:_:_:_:_:), args: ArityArgs.self)
        case (.args, 6): registry.autowire("built", ArityBuilt.init(args:_:_:_:_:_:), args: ArityArgs.self)
        case (.args, 7): registry.autowire("built", ArityBuilt.init(args:_:_:_:_:_:_:), args: ArityArgs.self)
        case (.keyThroughThePack, 0): TestSupport.autowireThroughThePack(registry, "built", ArityBuilt.init as @Sendable () -> ArityBuilt)
        case (.keyThroughThePack, 1): TestSupport.autowireThroughThePack(registry, "built", ArityBuilt.init(_:))
        case (.keyThroughThePack, 2): TestSupport.autowireThroughThePack(registry, "built", ArityBuilt.init(_:_:))
        case (.keyThroughThePack, 3): TestSupport.autowireThroughThePack(registry, "built", ArityBuilt.init(_:_:_:))
        case (.keyThroughThePack, 4): TestSupport.autowireThroughThePack(registry, "built", ArityBuilt.init(_:_:_:_:))
        case (.keyThroughThePack, 5): TestSupport.autowireThroughThePack(registry, "built", ArityBuilt.init(_:_:_:_:_:))
        case (.keyThroughThePack, 6): TestSupport.autowireThroughThePack(registry, "built", ArityBuilt.init(_:_:_:_:_:_:))
        case (.keyThroughThePack, 7): TestSupport.autowireThroughThePack(registry, "built", ArityBuilt.init(_:_:_:_:_:_:_:))
        case (.typeThroughThePack, 0): TestSupport.autowireThroughThePack(registry, ArityBuilt.init as @Sendable () -> ArityBuilt)
        case (.typeThroughThePack, 1): TestSupport.autowireThroughThePack(registry, ArityBuilt.init(_:))
        case (.typeThroughThePack, 2): TestSupport.autowireThroughThePack(registry, ArityBuilt.init(_:_:))
        case (.typeThroughThePack, 3): TestSupport.autowireThroughThePack(registry, ArityBuilt.init(_:_:_:))
        case (.typeThroughThePack, 4): TestSupport.autowireThroughThePack(registry, ArityBuilt.init(_:_:_:_:))
        case (.typeThroughThePack, 5): TestSupport.autowireThroughThePack(registry, ArityBuilt.init(_:_:_:_:_:))
        case (.typeThroughThePack, 6): TestSupport.autowireThroughThePack(registry, ArityBuilt.init(_:_:_:_:_:_:))
        case (.typeThroughThePack, 7): TestSupport.autowireThroughThePack(registry, ArityBuilt.init(_:_:_:_:_:_:_:))
        case (.argsThroughThePack, 0): TestSupport.autowireThroughThePack(registry, "built", ArityBuilt.init as @Sendable () -> ArityBuilt, args: ArityArgs.self)
        case (.argsThroughThePack, 1): TestSupport.autowireThroughThePack(registry, "built", ArityBuilt.init(args:), args: ArityArgs.self)
        case (.argsThroughThePack, 2): TestSupport.autowireThroughThePack(registry, "built", ArityBuilt.init(args:_:), args: ArityArgs.self)
        case (.argsThroughThePack, 3): TestSupport.autowireThroughThePack(registry, "built", ArityBuilt.init(args:_:_:), args: ArityArgs.self)
        case (.argsThroughThePack, 4): TestSupport.autowireThroughThePack(registry, "built", ArityBuilt.init(args:_:_:_:), args: ArityArgs.self)
        case (.argsThroughThePack, 5): TestSupport.autowireThroughThePack(registry, "built", ArityBuilt.init(args:_:_:_:_:), args: ArityArgs.self)
        case (.argsThroughThePack, 6): TestSupport.autowireThroughThePack(registry, "built", ArityBuilt.init(args:_:_:_:_:_:), args: ArityArgs.self)
        case (.argsThroughThePack, 7): TestSupport.autowireThroughThePack(registry, "built", ArityBuilt.init(args:_:_:_:_:_:_:), args: ArityArgs.self)
        case (.asyncKey, 0): registry.autowire("built", AsyncArityBuilt.init as @Sendable () async -> AsyncArityBuilt)
        case (.asyncKey, 1): registry.autowire("built", AsyncArityBuilt.init(_:))
        case (.asyncKey, 2): registry.autowire("built", AsyncArityBuilt.init(_:_:))
        case (.asyncKey, 3): registry.autowire("built", AsyncArityBuilt.init(_:_:_:))
        case (.asyncKey, 4): registry.autowire("built", AsyncArityBuilt.init(_:_:_:_:))
        case (.asyncKey, 5): registry.autowire("built", AsyncArityBuilt.init(_:_:_:_:_:))
        case (.asyncKey, 6): registry.autowire("built", AsyncArityBuilt.init(_:_:_:_:_:_:))
        case (.asyncKey, 7): registry.autowire("built", AsyncArityBuilt.init(_:_:_:_:_:_:_:))
        case (.asyncType, 0): registry.autowire(AsyncArityBuilt.init as @Sendable () async -> AsyncArityBuilt)
        case (.asyncType, 1): registry.autowire(AsyncArityBuilt.init(_:))
        case (.asyncType, 2): registry.autowire(AsyncArityBuilt.init(_:_:))
        case (.asyncType, 3): registry.autowire(AsyncArityBuilt.init(_:_:_:))
        case (.asyncType, 4): registry.autowire(AsyncArityBuilt.init(_:_:_:_:))
        case (.asyncType, 5): registry.autowire(AsyncArityBuilt.init(_:_:_:_:_:))
        case (.asyncType, 6): registry.autowire(AsyncArityBuilt.init(_:_:_:_:_:_:))
        case (.asyncType, 7): registry.autowire(AsyncArityBuilt.init(_:_:_:_:_:_:_:))
        case (.asyncArgs, 0): registry.autowire("built", AsyncArityBuilt.init as @Sendable () async -> AsyncArityBuilt, args: ArityArgs.self)
        case (.asyncArgs, 1): registry.autowire("built", AsyncArityBuilt.init(args:), args: ArityArgs.self)
        case (.asyncArgs, 2): registry.autowire("built", AsyncArityBuilt.init(args:_:), args: ArityArgs.self)
        case (.asyncArgs, 3): registry.autowire("built", AsyncArityBuilt.init(args:_:_:), args: ArityArgs.self)
        case (.asyncArgs, 4): registry.autowire("built", AsyncArityBuilt.init(args:_:_:_:), args: ArityArgs.self)
        case (.asyncArgs, 5): registry.autowire("built", AsyncArityBuilt.init(args:_:_:_:_:), args: ArityArgs.self)
        case (.asyncArgs, 6): registry.autowire("built", AsyncArityBuilt.init(args:_:_:_:_:_:), args: ArityArgs.self)
        case (.asyncArgs, 7): registry.autowire("built", AsyncArityBuilt.init(args:_:_:_:_:_:_:), args: ArityArgs.self)
        case (.asyncKeyThroughThePack, 0): TestSupport.autowireThroughThePack(registry, "built", AsyncArityBuilt.init as @Sendable () async -> AsyncArityBuilt)
        case (.asyncKeyThroughThePack, 1): TestSupport.autowireThroughThePack(registry, "built", AsyncArityBuilt.init(_:))
        case (.asyncKeyThroughThePack, 2): TestSupport.autowireThroughThePack(registry, "built", AsyncArityBuilt.init(_:_:))
        case (.asyncKeyThroughThePack, 3): TestSupport.autowireThroughThePack(registry, "built", AsyncArityBuilt.init(_:_:_:))
        case (.asyncKeyThroughThePack, 4): TestSupport.autowireThroughThePack(registry, "built", AsyncArityBuilt.init(_:_:_:_:))
        case (.asyncKeyThroughThePack, 5): TestSupport.autowireThroughThePack(registry, "built", AsyncArityBuilt.init(_:_:_:_:_:))
        case (.asyncKeyThroughThePack, 6): TestSupport.autowireThroughThePack(registry, "built", AsyncArityBuilt.init(_:_:_:_:_:_:))
        case (.asyncKeyThroughThePack, 7): TestSupport.autowireThroughThePack(registry, "built", AsyncArityBuilt.init(_:_:_:_:_:_:_:))
        case (.asyncTypeThroughThePack, 0): TestSupport.autowireThroughThePack(registry, AsyncArityBuilt.init as @Sendable () async -> AsyncArityBuilt)
        case (.asyncTypeThroughThePack, 1): TestSupport.autowireThroughThePack(registry, AsyncArityBuilt.init(_:))
        case (.asyncTypeThroughThePack, 2): TestSupport.autowireThroughThePack(registry, AsyncArityBuilt.init(_:_:))
        case (.asyncTypeThroughThePack, 3): TestSupport.autowireThroughThePack(registry, AsyncArityBuilt.init(_:_:_:))
        case (.asyncTypeThroughThePack, 4): TestSupport.autowireThroughThePack(registry, AsyncArityBuilt.init(_:_:_:_:))
        case (.asyncTypeThroughThePack, 5): TestSupport.autowireThroughThePack(registry, AsyncArityBuilt.init(_:_:_:_:_:))
        case (.asyncTypeThroughThePack, 6): TestSupport.autowireThroughThePack(registry, AsyncArityBuilt.init(_:_:_:_:_:_:))
        case (.asyncTypeThroughThePack, 7): TestSupport.autowireThroughThePack(registry, AsyncArityBuilt.init(_:_:_:_:_:_:_:))
        case (.asyncArgsThroughThePack, 0): TestSupport.autowireThroughThePack(registry, "built", AsyncArityBuilt.init as @Sendable () async -> AsyncArityBuilt, args: ArityArgs.self)
        case (.asyncArgsThroughThePack, 1): TestSupport.autowireThroughThePack(registry, "built", AsyncArityBuilt.init(args:), args: ArityArgs.self)
        case (.asyncArgsThroughThePack, 2): TestSupport.autowireThroughThePack(registry, "built", AsyncArityBuilt.init(args:_:), args: ArityArgs.self)
        case (.asyncArgsThroughThePack, 3): TestSupport.autowireThroughThePack(registry, "built", AsyncArityBuilt.init(args:_:_:), args: ArityArgs.self)
        case (.asyncArgsThroughThePack, 4): TestSupport.autowireThroughThePack(registry, "built", AsyncArityBuilt.init(args:_:_:_:), args: ArityArgs.self)
        case (.asyncArgsThroughThePack, 5): TestSupport.autowireThroughThePack(registry, "built", AsyncArityBuilt.init(args:_:_:_:_:), args: ArityArgs.self)
        case (.asyncArgsThroughThePack, 6): TestSupport.autowireThroughThePack(registry, "built", AsyncArityBuilt.init(args:_:_:_:_:_:), args: ArityArgs.self)
        case (.asyncArgsThroughThePack, 7): TestSupport.autowireThroughThePack(registry, "built", AsyncArityBuilt.init(args:_:_:_:_:_:_:), args: ArityArgs.self)
        case (.isolatedKey, 0): registry.autowire("built", isolated: IsolatedArityBuilt.init as @MainActor @Sendable () -> IsolatedArityBuilt)
        case (.isolatedKey, 1): registry.autowire("built", isolated: IsolatedArityBuilt.init(_:))
        case (.isolatedKey, 2): registry.autowire("built", isolated: IsolatedArityBuilt.init(_:_:))
        case (.isolatedKey, 3): registry.autowire("built", isolated: IsolatedArityBuilt.init(_:_:_:))
        case (.isolatedKey, 4): registry.autowire("built", isolated: IsolatedArityBuilt.init(_:_:_:_:))
        case (.isolatedKey, 5): registry.autowire("built", isolated: IsolatedArityBuilt.init(_:_:_:_:_:))
        case (.isolatedKey, 6): registry.autowire("built", isolated: IsolatedArityBuilt.init(_:_:_:_:_:_:))
        case (.isolatedKey, 7): registry.autowire("built", isolated: IsolatedArityBuilt.init(_:_:_:_:_:_:_:))
        case (.isolatedType, 0): registry.autowire(isolated: IsolatedArityBuilt.init as @MainActor @Sendable () -> IsolatedArityBuilt)
        case (.isolatedType, 1): registry.autowire(isolated: IsolatedArityBuilt.init(_:))
        case (.isolatedType, 2): registry.autowire(isolated: IsolatedArityBuilt.init(_:_:))
        case (.isolatedType, 3): registry.autowire(isolated: IsolatedArityBuilt.init(_:_:_:))
        case (.isolatedType, 4): registry.autowire(isolated: IsolatedArityBuilt.init(_:_:_:_:))
        case (.isolatedType, 5): registry.autowire(isolated: IsolatedArityBuilt.init(_:_:_:_:_:))
        case (.isolatedType, 6): registry.autowire(isolated: IsolatedArityBuilt.init(_:_:_:_:_:_:))
        case (.isolatedType, 7): registry.autowire(isolated: IsolatedArityBuilt.init(_:_:_:_:_:_:_:))
        case (.isolatedKeyThroughThePack, 0): TestSupport.autowireThroughThePack(registry, "built", isolated: IsolatedArityBuilt.init as @MainActor @Sendable () -> IsolatedArityBuilt)
        case (.isolatedKeyThroughThePack, 1): TestSupport.autowireThroughThePack(registry, "built", isolated: IsolatedArityBuilt.init(_:))
        case (.isolatedKeyThroughThePack, 2): TestSupport.autowireThroughThePack(registry, "built", isolated: IsolatedArityBuilt.init(_:_:))
        case (.isolatedKeyThroughThePack, 3): TestSupport.autowireThroughThePack(registry, "built", isolated: IsolatedArityBuilt.init(_:_:_:))
        case (.isolatedKeyThroughThePack, 4): TestSupport.autowireThroughThePack(registry, "built", isolated: IsolatedArityBuilt.init(_:_:_:_:))
        case (.isolatedKeyThroughThePack, 5): TestSupport.autowireThroughThePack(registry, "built", isolated: IsolatedArityBuilt.init(_:_:_:_:_:))
        case (.isolatedKeyThroughThePack, 6): TestSupport.autowireThroughThePack(registry, "built", isolated: IsolatedArityBuilt.init(_:_:_:_:_:_:))
        case (.isolatedKeyThroughThePack, 7): TestSupport.autowireThroughThePack(registry, "built", isolated: IsolatedArityBuilt.init(_:_:_:_:_:_:_:))
        case (.isolatedTypeThroughThePack, 0): TestSupport.autowireThroughThePack(registry, isolated: IsolatedArityBuilt.init as @MainActor @Sendable () -> IsolatedArityBuilt)
        case (.isolatedTypeThroughThePack, 1): TestSupport.autowireThroughThePack(registry, isolated: IsolatedArityBuilt.init(_:))
        case (.isolatedTypeThroughThePack, 2): TestSupport.autowireThroughThePack(registry, isolated: IsolatedArityBuilt.init(_:_:))
        case (.isolatedTypeThroughThePack, 3): TestSupport.autowireThroughThePack(registry, isolated: IsolatedArityBuilt.init(_:_:_:))
        case (.isolatedTypeThroughThePack, 4): TestSupport.autowireThroughThePack(registry, isolated: IsolatedArityBuilt.init(_:_:_:_:))
        case (.isolatedTypeThroughThePack, 5): TestSupport.autowireThroughThePack(registry, isolated: IsolatedArityBuilt.init(_:_:_:_:_:))
        case (.isolatedTypeThroughThePack, 6): TestSupport.autowireThroughThePack(registry, isolated: IsolatedArityBuilt.init(_:_:_:_:_:_:))
        case (.isolatedTypeThroughThePack, 7): TestSupport.autowireThroughThePack(registry, isolated: IsolatedArityBuilt.init(_:_:_:_:_:_:_:))
        default: Issue.record("no initializer of \(arity) parameters")
        }
    }
}
