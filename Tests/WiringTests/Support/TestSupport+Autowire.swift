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

    /// `registry.autowire(key, make)` of an async function through the parameter pack's form.
    @discardableResult
    static func autowireThroughThePack<T, each D>(
        _ registry: FactoryRegistry, _ key: String, _ make: @escaping @concurrent @Sendable (repeat each D) async throws -> T
    ) -> FactoryRegistration<T> {
        registry.autowire(key, make)
    }

    /// `registry.autowire(make)` of an async function, under the type's name, through the
    /// parameter pack's form.
    @discardableResult
    static func autowireThroughThePack<T, each D>(
        _ registry: FactoryRegistry, _ make: @escaping @concurrent @Sendable (repeat each D) async throws -> T
    ) -> FactoryRegistration<T> {
        registry.autowire(make)
    }

    /// `registry.autowire(key, make, args: A.self)` of an async function through the parameter
    /// pack's form.
    @discardableResult
    static func autowireThroughThePack<A: Decodable & Sendable, T, each D>(
        _ registry: FactoryRegistry, _ key: String, _ make: @escaping @concurrent @Sendable (repeat each D) async throws -> T,
        args: A.Type
    ) -> FactoryRegistration<T> {
        registry.autowire(key, make, args: A.self)
    }

    /// `registry.autowire(key, isolated: make)` through the parameter pack's form.
    @discardableResult
    static func autowireThroughThePack<T: Sendable, each D: Sendable>(
        _ registry: FactoryRegistry, _ key: String, isolated make: @escaping @isolated(any) @Sendable (repeat each D) throws -> T
    ) -> FactoryRegistration<T> {
        registry.autowire(key, isolated: make)
    }

    /// `registry.autowire(isolated: make)`, under the type's name, through the parameter pack's
    /// form.
    @discardableResult
    static func autowireThroughThePack<T: Sendable, each D: Sendable>(
        _ registry: FactoryRegistry, isolated make: @escaping @isolated(any) @Sendable (repeat each D) throws -> T
    ) -> FactoryRegistration<T> {
        registry.autowire(isolated: make)
    }
}
