import Wiring

// An app reaches the parameter pack's forms of `autowire` with a function of seven parameters
// or more: with fewer, Swift picks a form of fixed arity. Inside these helpers `D` is a pack,
// which no form of fixed arity takes, so that the tests and the model reach the pack's forms
// with any number of parameters.
extension TestSupport {
    /// `registry.autowire(key, make)` through the parameter pack's form.
    @discardableResult
    static func autowireThroughThePack<T, each D>(
        _ registry: FactoryRegistry, _ key: String, _ make: @escaping @Sendable (repeat each D) throws -> T
    ) -> FactoryRegistration<T> {
        registry.autowire(key, make)
    }

    /// `registry.autowire(make)`, under the type's name, through the parameter pack's form.
    @discardableResult
    static func autowireThroughThePack<T, each D>(
        _ registry: FactoryRegistry, _ make: @escaping @Sendable (repeat each D) throws -> T
    ) -> FactoryRegistration<T> {
        registry.autowire(make)
    }

    /// `registry.autowire(key, make, args: A.self)` through the parameter pack's form.
    @discardableResult
    static func autowireThroughThePack<A: Decodable & Sendable, T, each D>(
        _ registry: FactoryRegistry, _ key: String, _ make: @escaping @Sendable (repeat each D) throws -> T, args: A.Type
    ) -> FactoryRegistration<T> {
        registry.autowire(key, make, args: A.self)
    }
}
