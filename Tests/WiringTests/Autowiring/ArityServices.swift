import Testing
import Wiring

// The services the tests of every number of autowired parameters build: one initializer of
// `ArityBuilt` per number, its parameters of each kind (a class, a protocol, an optional whose
// service is declared, one whose service is not), so that each form of fixed arity and the
// parameter pack's form are reached with each kind.

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

/// Built from the parts its initializer takes: `parts` names them in order (`nil` for an
/// optional that was `nil`, `args:N` for the typed args).
final class ArityBuilt: Sendable {
    let parts: [String]
    /// The first parameter's instance, when it is the class `ArityA`.
    let first: ArityA?

    private init(_ parts: [(any ArityPart)?], args: ArityArgs? = nil) {
        self.parts = (args.map { ["args:\($0.size)"] } ?? []) + parts.map { $0?.name ?? "nil" }
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

/// Registers `ArityBuilt`'s initializer of `arity` parameters in `form`: each case names the
/// overload the form and the number select, so that every one is compiled and reached.
enum ArityRegistration {
    static func register(_ registry: FactoryRegistry, arity: Int, form: AutowiringArityTests.Form) {
        switch (form, arity) {
        case (.key, 0): registry.autowire("built", { ArityBuilt() })
        case (.key, 1): registry.autowire("built", ArityBuilt.init(_:))
        case (.key, 2): registry.autowire("built", ArityBuilt.init(_:_:))
        case (.key, 3): registry.autowire("built", ArityBuilt.init(_:_:_:))
        case (.key, 4): registry.autowire("built", ArityBuilt.init(_:_:_:_:))
        case (.key, 5): registry.autowire("built", ArityBuilt.init(_:_:_:_:_:))
        case (.key, 6): registry.autowire("built", ArityBuilt.init(_:_:_:_:_:_:))
        case (.key, 7): registry.autowire("built", ArityBuilt.init(_:_:_:_:_:_:_:))
        case (.type, 0): registry.autowire({ ArityBuilt() })
        case (.type, 1): registry.autowire(ArityBuilt.init(_:))
        case (.type, 2): registry.autowire(ArityBuilt.init(_:_:))
        case (.type, 3): registry.autowire(ArityBuilt.init(_:_:_:))
        case (.type, 4): registry.autowire(ArityBuilt.init(_:_:_:_:))
        case (.type, 5): registry.autowire(ArityBuilt.init(_:_:_:_:_:))
        case (.type, 6): registry.autowire(ArityBuilt.init(_:_:_:_:_:_:))
        case (.type, 7): registry.autowire(ArityBuilt.init(_:_:_:_:_:_:_:))
        case (.args, 0): registry.autowire("built", { ArityBuilt() }, args: ArityArgs.self)
        case (.args, 1): registry.autowire("built", ArityBuilt.init(args:), args: ArityArgs.self)
        case (.args, 2): registry.autowire("built", ArityBuilt.init(args:_:), args: ArityArgs.self)
        case (.args, 3): registry.autowire("built", ArityBuilt.init(args:_:_:), args: ArityArgs.self)
        case (.args, 4): registry.autowire("built", ArityBuilt.init(args:_:_:_:), args: ArityArgs.self)
        case (.args, 5): registry.autowire("built", ArityBuilt.init(args:_:_:_:_:), args: ArityArgs.self)
        case (.args, 6): registry.autowire("built", ArityBuilt.init(args:_:_:_:_:_:), args: ArityArgs.self)
        case (.args, 7): registry.autowire("built", ArityBuilt.init(args:_:_:_:_:_:_:), args: ArityArgs.self)
        case (.keyThroughThePack, 0): TestSupport.autowireThroughThePack(registry, "built", { ArityBuilt() })
        case (.keyThroughThePack, 1): TestSupport.autowireThroughThePack(registry, "built", ArityBuilt.init(_:))
        case (.keyThroughThePack, 2): TestSupport.autowireThroughThePack(registry, "built", ArityBuilt.init(_:_:))
        case (.keyThroughThePack, 3): TestSupport.autowireThroughThePack(registry, "built", ArityBuilt.init(_:_:_:))
        case (.keyThroughThePack, 4): TestSupport.autowireThroughThePack(registry, "built", ArityBuilt.init(_:_:_:_:))
        case (.keyThroughThePack, 5): TestSupport.autowireThroughThePack(registry, "built", ArityBuilt.init(_:_:_:_:_:))
        case (.keyThroughThePack, 6): TestSupport.autowireThroughThePack(registry, "built", ArityBuilt.init(_:_:_:_:_:_:))
        case (.keyThroughThePack, 7): TestSupport.autowireThroughThePack(registry, "built", ArityBuilt.init(_:_:_:_:_:_:_:))
        case (.typeThroughThePack, 0): TestSupport.autowireThroughThePack(registry, { ArityBuilt() })
        case (.typeThroughThePack, 1): TestSupport.autowireThroughThePack(registry, ArityBuilt.init(_:))
        case (.typeThroughThePack, 2): TestSupport.autowireThroughThePack(registry, ArityBuilt.init(_:_:))
        case (.typeThroughThePack, 3): TestSupport.autowireThroughThePack(registry, ArityBuilt.init(_:_:_:))
        case (.typeThroughThePack, 4): TestSupport.autowireThroughThePack(registry, ArityBuilt.init(_:_:_:_:))
        case (.typeThroughThePack, 5): TestSupport.autowireThroughThePack(registry, ArityBuilt.init(_:_:_:_:_:))
        case (.typeThroughThePack, 6): TestSupport.autowireThroughThePack(registry, ArityBuilt.init(_:_:_:_:_:_:))
        case (.typeThroughThePack, 7): TestSupport.autowireThroughThePack(registry, ArityBuilt.init(_:_:_:_:_:_:_:))
        case (.argsThroughThePack, 0): TestSupport.autowireThroughThePack(registry, "built", { ArityBuilt() }, args: ArityArgs.self)
        case (.argsThroughThePack, 1): TestSupport.autowireThroughThePack(registry, "built", ArityBuilt.init(args:), args: ArityArgs.self)
        case (.argsThroughThePack, 2): TestSupport.autowireThroughThePack(registry, "built", ArityBuilt.init(args:_:), args: ArityArgs.self)
        case (.argsThroughThePack, 3): TestSupport.autowireThroughThePack(registry, "built", ArityBuilt.init(args:_:_:), args: ArityArgs.self)
        case (.argsThroughThePack, 4): TestSupport.autowireThroughThePack(registry, "built", ArityBuilt.init(args:_:_:_:), args: ArityArgs.self)
        case (.argsThroughThePack, 5): TestSupport.autowireThroughThePack(registry, "built", ArityBuilt.init(args:_:_:_:_:), args: ArityArgs.self)
        case (.argsThroughThePack, 6): TestSupport.autowireThroughThePack(registry, "built", ArityBuilt.init(args:_:_:_:_:_:), args: ArityArgs.self)
        case (.argsThroughThePack, 7): TestSupport.autowireThroughThePack(registry, "built", ArityBuilt.init(args:_:_:_:_:_:_:), args: ArityArgs.self)
        default: Issue.record("no initializer of \(arity) parameters")
        }
    }
}
