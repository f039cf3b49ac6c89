extension FactoryRegistry {
    // MARK: - Autowiring
    //
    // An autowired factory is an initializer (or any function) whose parameters are resolved by
    // type, each as `r.resolve(P.self)` resolves it: no closure that resolves them by hand. Its
    // parameter types are recorded when it is registered, so that a container, `validate` and
    // the build plugin check them against the manifest before any factory runs. A closure that
    // takes the context stays `factory`. These forms take a parameter pack, any number of
    // parameters; for a function of up to six, Swift picks a form of fixed arity instead
    // (FactoryRegistry+Autowire*Arities.swift), which costs what the closure costs.
    //
    // An initializer isolated to a global actor is passed as `isolated:`: Swift would pick the
    // plain form for an unlabelled reference and reject it for losing its actor. The async
    // forms take a `@concurrent`
    // function: with it, Swift 6.3 compiles a client that passes an async initializer (without
    // it, the compiler crashes on such a client).

    /// Registers `make`, an initializer or any function, under `key`: each of its parameters is
    /// resolved by type in the same resolution, as `r.resolve(P.self)` resolves it.
    ///
    /// ```swift
    /// registry.autowire("note-service", NoteService.init)   // init(store: NoteStore, clock: any Clock)
    /// ```
    ///
    /// An optional parameter is `nil` when no service is declared for its type. See
    /// <doc:Autowiring> for what is resolved by type and when to write a closure instead.
    ///
    /// - Parameters:
    ///   - key: The key manifests name in `factory:`.
    ///   - make: Builds an instance from its dependencies.
    ///   - overriding: Whether this registration knowingly replaces an earlier one.
    ///   - fileID: Where the registration is written; leave the default.
    ///   - line: The line of the registration; leave the default.
    ///   - column: The column of the registration; leave the default.
    /// - Returns: The registration, to add a shutdown hook to.
    @inlinable @discardableResult
    public func autowire<T, each D>(
        _ key: String, _ make: @escaping @Sendable (repeat each D) throws -> T, overriding: Bool = false,
        fileID: String = #fileID, line: Int = #line, column: Int = #column
    ) -> FactoryRegistration<T> {
        let slots = AutowiredSlot.slots(for: repeat (each D).self, arguments: nil)
        return registerSynchronous(key, overriding: overriding, at: SourceLocation(file: fileID, line: line, column: column),
                                   autowired: Self.dependencies(slots)) { r in
            var next = 0
            return try make(repeat try r.autowired(slots, &next, as: (each D).self))
        }
    }

    /// Registers `make` under its type's name, the key of a manifest service that names no
    /// factory (`NoteService: { scope: singleton }`); its parameters are resolved by type.
    ///
    /// ```swift
    /// registry.autowire(NoteService.init)   // the factory of service NoteService
    /// ```
    @inlinable @discardableResult
    public func autowire<T, each D>(
        _ make: @escaping @Sendable (repeat each D) throws -> T, overriding: Bool = false,
        fileID: String = #fileID, line: Int = #line, column: Int = #column
    ) -> FactoryRegistration<T> {
        autowire(String(describing: T.self), make, overriding: overriding, fileID: fileID, line: line, column: column)
    }

    /// Registers `make`, which also takes its service's typed `args`: the parameter of type `A`
    /// is the service's `args`, decoded and checked as a typed factory's are; the others are
    /// resolved by type.
    ///
    /// ```swift
    /// registry.autowire("pool", Pool.init, args: PoolArgs.self)   // init(settings: PoolArgs, log: Logger)
    /// ```
    @discardableResult
    public func autowire<A: Decodable & Sendable, T, each D>(
        _ key: String, _ make: @escaping @Sendable (repeat each D) throws -> T, args: A.Type, overriding: Bool = false,
        fileID: String = #fileID, line: Int = #line, column: Int = #column
    ) -> FactoryRegistration<T> {
        let slots = AutowiredSlot.slots(for: repeat (each D).self, arguments: A.self)
        return registerSynchronous(key, overriding: overriding, at: SourceLocation(file: fileID, line: line, column: column),
                                   autowired: Self.dependencies(slots), arguments: A.self) { r in
            let arguments = try r.typedArguments(A.self)
            var next = 0
            return try make(repeat try r.autowired(slots, &next, as: (each D).self, arguments: arguments))
        }
    }

    /// Registers an async initializer that also takes its service's typed `args`, as the
    /// parameter of type `A`; their `@Reference` fields are awaited before it runs.
    @discardableResult
    public func autowire<A: Decodable & Sendable, T, each D>(
        _ key: String, _ make: @escaping @concurrent @Sendable (repeat each D) async throws -> T, args: A.Type, overriding: Bool = false,
        fileID: String = #fileID, line: Int = #line, column: Int = #column
    ) -> FactoryRegistration<T> {
        let slots = AutowiredSlot.slots(for: repeat (each D).self, arguments: A.self)
        return registerAsync(key, overriding: overriding, at: SourceLocation(file: fileID, line: line, column: column),
                             autowired: Self.dependencies(slots), arguments: A.self) { r in
            let arguments = try await r.typedArgumentsAwaitingReferences(A.self)
            var next = 0
            return try await make(repeat try await r.autowired(slots, &next, as: (each D).self, arguments: arguments)) as Any
        }
    }

    /// Registers an async (or throwing async) initializer under `key`: its service resolves
    /// with `await`, and each parameter is awaited when its own factory is async.
    @discardableResult
    public func autowire<T, each D>(
        _ key: String, _ make: @escaping @concurrent @Sendable (repeat each D) async throws -> T, overriding: Bool = false,
        fileID: String = #fileID, line: Int = #line, column: Int = #column
    ) -> FactoryRegistration<T> {
        let slots = AutowiredSlot.slots(for: repeat (each D).self, arguments: nil)
        return registerAsync(key, overriding: overriding, at: SourceLocation(file: fileID, line: line, column: column),
                             autowired: Self.dependencies(slots)) { r in
            var next = 0
            return try await make(repeat try await r.autowired(slots, &next, as: (each D).self, arguments: nil)) as Any
        }
    }

    /// Registers an async initializer under its type's name.
    @discardableResult
    public func autowire<T, each D>(
        _ make: @escaping @concurrent @Sendable (repeat each D) async throws -> T, overriding: Bool = false,
        fileID: String = #fileID, line: Int = #line, column: Int = #column
    ) -> FactoryRegistration<T> {
        autowire(String(describing: T.self), make, overriding: overriding, fileID: fileID, line: line, column: column)
    }

    // Its body is the async form's: it cannot forward to it, since Swift has no closure that
    // takes a parameter pack to adapt one function type to the other.

    /// Registers an initializer isolated to a global actor (a `@MainActor` class's) under
    /// `key`: it runs on its actor, so its service resolves with `await`. Its dependencies and
    /// its instance cross to and from its actor, so they are `Sendable` (a `@MainActor` class is).
    ///
    /// ```swift
    /// registry.autowire("view-model", isolated: ViewModel.init)
    /// ```
    @discardableResult
    public func autowire<T: Sendable, each D: Sendable>(
        _ key: String, isolated make: @escaping @isolated(any) @Sendable (repeat each D) throws -> T,
        overriding: Bool = false, fileID: String = #fileID, line: Int = #line, column: Int = #column
    ) -> FactoryRegistration<T> {
        let slots = AutowiredSlot.slots(for: repeat (each D).self, arguments: nil)
        return registerAsync(key, overriding: overriding, at: SourceLocation(file: fileID, line: line, column: column),
                             autowired: Self.dependencies(slots)) { r in
            var next = 0
            return try await make(repeat try await r.autowired(slots, &next, as: (each D).self, arguments: nil)) as Any
        }
    }

    /// Registers an initializer isolated to a global actor under its type's name.
    @discardableResult
    public func autowire<T: Sendable, each D: Sendable>(
        isolated make: @escaping @isolated(any) @Sendable (repeat each D) throws -> T, overriding: Bool = false,
        fileID: String = #fileID, line: Int = #line, column: Int = #column
    ) -> FactoryRegistration<T> {
        autowire(String(describing: T.self), isolated: make, overriding: overriding, fileID: fileID, line: line, column: column)
    }

    /// The services the parameters of `slots` depend on, in order (the arguments' depends on none).
    @usableFromInline
    static func dependencies(_ slots: [AutowiredSlot]) -> [AutowiredDependency] {
        slots.compactMap(\.dependency)
    }

}
