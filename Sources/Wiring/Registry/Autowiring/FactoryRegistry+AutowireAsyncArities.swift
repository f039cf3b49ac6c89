extension FactoryRegistry {
    // MARK: - Autowiring, an async function of up to six parameters
    //
    // The async forms of FactoryRegistry+Autowire.swift for a function of up to six parameters,
    // which Swift picks over the pack's, as FactoryRegistry+AutowireArities.swift does for the
    // synchronous ones: each parameter takes `try await r.resolve(P.self)`'s path specialized in
    // the client. A service whose async initializer takes three class parameters resolves in
    // 1.00 µs through them, as the closure that awaits each does (1.01 µs), against 1.19 µs
    // through the pack (`WiringBenchmarks async`). The functions are `@concurrent`, as the pack's are (a
    // client that passes an async initializer to a parameter that is not crashed Swift 6.3.1).

    /// Registers `make`, an async function of no parameter, under `key`:
    /// ``autowire(_:_:overriding:fileID:line:column:)-6tpmu`` specialized.
    @inlinable @discardableResult
    public func autowire<T>(
        _ key: String,
        _ make: @escaping @concurrent @Sendable () async throws -> T,
        overriding: Bool = false, fileID: String = #fileID, line: Int = #line, column: Int = #column
    ) -> FactoryRegistration<T> {
        registerAsync(key, overriding: overriding, at: SourceLocation(file: fileID, line: line, column: column),
                      autowired: []) { _ in
            try await make() as Any
        }
    }

    /// Registers `make`, an async function of no parameter, under its type's name:
    /// ``autowire(_:overriding:fileID:line:column:)-14jh`` specialized.
    @inlinable @discardableResult
    public func autowire<T>(
        _ make: @escaping @concurrent @Sendable () async throws -> T,
        overriding: Bool = false, fileID: String = #fileID, line: Int = #line, column: Int = #column
    ) -> FactoryRegistration<T> {
        autowire(String(describing: T.self), make, overriding: overriding, fileID: fileID, line: line, column: column)
    }

    /// Registers `make`, an async function of no parameter whose service also has typed `args`
    /// (which it does not read, but whose references are awaited):
    /// ``autowire(_:_:args:overriding:fileID:line:column:)-9wom4`` specialized.
    @inlinable @discardableResult
    public func autowire<A: Decodable & Sendable, T>(
        _ key: String,
        _ make: @escaping @concurrent @Sendable () async throws -> T,
        args: A.Type, overriding: Bool = false, fileID: String = #fileID, line: Int = #line, column: Int = #column
    ) -> FactoryRegistration<T> {
        registerAsync(key, overriding: overriding, at: SourceLocation(file: fileID, line: line, column: column),
                      autowired: [], arguments: A.self) { r in
            _ = try await r.typedArgumentsAwaitingReferences(A.self)
            return try await make() as Any
        }
    }

    /// Registers `make`, an async function of one parameter, under `key`, its parameter
    /// resolved by type and awaited when its factory is async:
    /// ``autowire(_:_:overriding:fileID:line:column:)-6tpmu`` specialized.
    @inlinable @discardableResult
    public func autowire<T, P1>(
        _ key: String,
        _ make: @escaping @concurrent @Sendable (consuming P1) async throws -> T,
        overriding: Bool = false, fileID: String = #fileID, line: Int = #line, column: Int = #column
    ) -> FactoryRegistration<T> {
        let slots = AutowiredSlot.slots(for: P1.self, arguments: nil)
        return registerAsync(key, overriding: overriding, at: SourceLocation(file: fileID, line: line, column: column),
                             autowired: Self.dependencies(slots)) { r in
            try await make(r.awaitingAutowired(slots, at: 0)) as Any
        }
    }

    /// Registers `make`, an async function of one parameter, under its type's name:
    /// ``autowire(_:overriding:fileID:line:column:)-14jh`` specialized.
    @inlinable @discardableResult
    public func autowire<T, P1>(
        _ make: @escaping @concurrent @Sendable (consuming P1) async throws -> T,
        overriding: Bool = false, fileID: String = #fileID, line: Int = #line, column: Int = #column
    ) -> FactoryRegistration<T> {
        autowire(String(describing: T.self), make, overriding: overriding, fileID: fileID, line: line, column: column)
    }

    /// Registers `make`, an async function of one parameter that also takes its service's typed
    /// `args`, as its parameter of type `A`:
    /// ``autowire(_:_:args:overriding:fileID:line:column:)-9wom4`` specialized.
    @inlinable @discardableResult
    public func autowire<A: Decodable & Sendable, T, P1>(
        _ key: String,
        _ make: @escaping @concurrent @Sendable (consuming P1) async throws -> T,
        args: A.Type, overriding: Bool = false, fileID: String = #fileID, line: Int = #line, column: Int = #column
    ) -> FactoryRegistration<T> {
        let slots = AutowiredSlot.slots(for: P1.self, arguments: A.self)
        return registerAsync(key, overriding: overriding, at: SourceLocation(file: fileID, line: line, column: column),
                             autowired: Self.dependencies(slots), arguments: A.self) { r in
            let arguments = try await r.typedArgumentsAwaitingReferences(A.self)
            return try await make(r.awaitingAutowired(slots, at: 0, arguments: arguments)) as Any
        }
    }

    /// Registers `make`, an async function of two parameters, under `key`, each parameter
    /// resolved by type and awaited when its factory is async:
    /// ``autowire(_:_:overriding:fileID:line:column:)-6tpmu`` specialized.
    @inlinable @discardableResult
    public func autowire<T, P1, P2>(
        _ key: String,
        _ make: @escaping @concurrent @Sendable (consuming P1, consuming P2) async throws -> T,
        overriding: Bool = false, fileID: String = #fileID, line: Int = #line, column: Int = #column
    ) -> FactoryRegistration<T> {
        let slots = AutowiredSlot.slots(for: P1.self, P2.self, arguments: nil)
        return registerAsync(key, overriding: overriding, at: SourceLocation(file: fileID, line: line, column: column),
                             autowired: Self.dependencies(slots)) { r in
            try await make(r.awaitingAutowired(slots, at: 0), r.awaitingAutowired(slots, at: 1)) as Any
        }
    }

    /// Registers `make`, an async function of two parameters, under its type's name:
    /// ``autowire(_:overriding:fileID:line:column:)-14jh`` specialized.
    @inlinable @discardableResult
    public func autowire<T, P1, P2>(
        _ make: @escaping @concurrent @Sendable (consuming P1, consuming P2) async throws -> T,
        overriding: Bool = false, fileID: String = #fileID, line: Int = #line, column: Int = #column
    ) -> FactoryRegistration<T> {
        autowire(String(describing: T.self), make, overriding: overriding, fileID: fileID, line: line, column: column)
    }

    /// Registers `make`, an async function of two parameters that also takes its service's
    /// typed `args`, as its parameter of type `A`:
    /// ``autowire(_:_:args:overriding:fileID:line:column:)-9wom4`` specialized.
    @inlinable @discardableResult
    public func autowire<A: Decodable & Sendable, T, P1, P2>(
        _ key: String,
        _ make: @escaping @concurrent @Sendable (consuming P1, consuming P2) async throws -> T,
        args: A.Type, overriding: Bool = false, fileID: String = #fileID, line: Int = #line, column: Int = #column
    ) -> FactoryRegistration<T> {
        let slots = AutowiredSlot.slots(for: P1.self, P2.self, arguments: A.self)
        return registerAsync(key, overriding: overriding, at: SourceLocation(file: fileID, line: line, column: column),
                             autowired: Self.dependencies(slots), arguments: A.self) { r in
            let arguments = try await r.typedArgumentsAwaitingReferences(A.self)
            return try await make(r.awaitingAutowired(slots, at: 0, arguments: arguments), r.awaitingAutowired(slots, at: 1, arguments: arguments)) as Any
        }
    }

    /// Registers `make`, an async function of three parameters, under `key`, each parameter
    /// resolved by type and awaited when its factory is async:
    /// ``autowire(_:_:overriding:fileID:line:column:)-6tpmu`` specialized.
    @inlinable @discardableResult
    public func autowire<T, P1, P2, P3>(
        _ key: String,
        _ make: @escaping @concurrent @Sendable (consuming P1, consuming P2, consuming P3) async throws -> T,
        overriding: Bool = false, fileID: String = #fileID, line: Int = #line, column: Int = #column
    ) -> FactoryRegistration<T> {
        let slots = AutowiredSlot.slots(for: P1.self, P2.self, P3.self, arguments: nil)
        return registerAsync(key, overriding: overriding, at: SourceLocation(file: fileID, line: line, column: column),
                             autowired: Self.dependencies(slots)) { r in
            try await make(
                r.awaitingAutowired(slots, at: 0), r.awaitingAutowired(slots, at: 1),
                r.awaitingAutowired(slots, at: 2)
            ) as Any
        }
    }

    /// Registers `make`, an async function of three parameters, under its type's name:
    /// ``autowire(_:overriding:fileID:line:column:)-14jh`` specialized.
    @inlinable @discardableResult
    public func autowire<T, P1, P2, P3>(
        _ make: @escaping @concurrent @Sendable (consuming P1, consuming P2, consuming P3) async throws -> T,
        overriding: Bool = false, fileID: String = #fileID, line: Int = #line, column: Int = #column
    ) -> FactoryRegistration<T> {
        autowire(String(describing: T.self), make, overriding: overriding, fileID: fileID, line: line, column: column)
    }

    /// Registers `make`, an async function of three parameters that also takes its service's
    /// typed `args`, as its parameter of type `A`:
    /// ``autowire(_:_:args:overriding:fileID:line:column:)-9wom4`` specialized.
    @inlinable @discardableResult
    public func autowire<A: Decodable & Sendable, T, P1, P2, P3>(
        _ key: String,
        _ make: @escaping @concurrent @Sendable (consuming P1, consuming P2, consuming P3) async throws -> T,
        args: A.Type, overriding: Bool = false, fileID: String = #fileID, line: Int = #line, column: Int = #column
    ) -> FactoryRegistration<T> {
        let slots = AutowiredSlot.slots(for: P1.self, P2.self, P3.self, arguments: A.self)
        return registerAsync(key, overriding: overriding, at: SourceLocation(file: fileID, line: line, column: column),
                             autowired: Self.dependencies(slots), arguments: A.self) { r in
            let arguments = try await r.typedArgumentsAwaitingReferences(A.self)
            return try await make(
                r.awaitingAutowired(slots, at: 0, arguments: arguments), r.awaitingAutowired(slots, at: 1, arguments: arguments),
                r.awaitingAutowired(slots, at: 2, arguments: arguments)
            ) as Any
        }
    }

    /// Registers `make`, an async function of four parameters, under `key`, each parameter
    /// resolved by type and awaited when its factory is async:
    /// ``autowire(_:_:overriding:fileID:line:column:)-6tpmu`` specialized.
    @inlinable @discardableResult
    public func autowire<T, P1, P2, P3, P4>(
        _ key: String,
        _ make: @escaping @concurrent @Sendable (consuming P1, consuming P2, consuming P3, consuming P4) async throws -> T,
        overriding: Bool = false, fileID: String = #fileID, line: Int = #line, column: Int = #column
    ) -> FactoryRegistration<T> {
        let slots = AutowiredSlot.slots(for: P1.self, P2.self, P3.self, P4.self, arguments: nil)
        return registerAsync(key, overriding: overriding, at: SourceLocation(file: fileID, line: line, column: column),
                             autowired: Self.dependencies(slots)) { r in
            try await make(
                r.awaitingAutowired(slots, at: 0), r.awaitingAutowired(slots, at: 1),
                r.awaitingAutowired(slots, at: 2), r.awaitingAutowired(slots, at: 3)
            ) as Any
        }
    }

    /// Registers `make`, an async function of four parameters, under its type's name:
    /// ``autowire(_:overriding:fileID:line:column:)-14jh`` specialized.
    @inlinable @discardableResult
    public func autowire<T, P1, P2, P3, P4>(
        _ make: @escaping @concurrent @Sendable (consuming P1, consuming P2, consuming P3, consuming P4) async throws -> T,
        overriding: Bool = false, fileID: String = #fileID, line: Int = #line, column: Int = #column
    ) -> FactoryRegistration<T> {
        autowire(String(describing: T.self), make, overriding: overriding, fileID: fileID, line: line, column: column)
    }

    /// Registers `make`, an async function of four parameters that also takes its service's
    /// typed `args`, as its parameter of type `A`:
    /// ``autowire(_:_:args:overriding:fileID:line:column:)-9wom4`` specialized.
    @inlinable @discardableResult
    public func autowire<A: Decodable & Sendable, T, P1, P2, P3, P4>(
        _ key: String,
        _ make: @escaping @concurrent @Sendable (consuming P1, consuming P2, consuming P3, consuming P4) async throws -> T,
        args: A.Type, overriding: Bool = false, fileID: String = #fileID, line: Int = #line, column: Int = #column
    ) -> FactoryRegistration<T> {
        let slots = AutowiredSlot.slots(for: P1.self, P2.self, P3.self, P4.self, arguments: A.self)
        return registerAsync(key, overriding: overriding, at: SourceLocation(file: fileID, line: line, column: column),
                             autowired: Self.dependencies(slots), arguments: A.self) { r in
            let arguments = try await r.typedArgumentsAwaitingReferences(A.self)
            return try await make(
                r.awaitingAutowired(slots, at: 0, arguments: arguments), r.awaitingAutowired(slots, at: 1, arguments: arguments),
                r.awaitingAutowired(slots, at: 2, arguments: arguments), r.awaitingAutowired(slots, at: 3, arguments: arguments)
            ) as Any
        }
    }

    /// Registers `make`, an async function of five parameters, under `key`, each parameter
    /// resolved by type and awaited when its factory is async:
    /// ``autowire(_:_:overriding:fileID:line:column:)-6tpmu`` specialized.
    @inlinable @discardableResult
    public func autowire<T, P1, P2, P3, P4, P5>(
        _ key: String,
        _ make: @escaping @concurrent @Sendable (consuming P1, consuming P2, consuming P3, consuming P4, consuming P5) async throws -> T,
        overriding: Bool = false, fileID: String = #fileID, line: Int = #line, column: Int = #column
    ) -> FactoryRegistration<T> {
        let slots = AutowiredSlot.slots(for: P1.self, P2.self, P3.self, P4.self, P5.self, arguments: nil)
        return registerAsync(key, overriding: overriding, at: SourceLocation(file: fileID, line: line, column: column),
                             autowired: Self.dependencies(slots)) { r in
            try await make(
                r.awaitingAutowired(slots, at: 0), r.awaitingAutowired(slots, at: 1),
                r.awaitingAutowired(slots, at: 2), r.awaitingAutowired(slots, at: 3),
                r.awaitingAutowired(slots, at: 4)
            ) as Any
        }
    }

    /// Registers `make`, an async function of five parameters, under its type's name:
    /// ``autowire(_:overriding:fileID:line:column:)-14jh`` specialized.
    @inlinable @discardableResult
    public func autowire<T, P1, P2, P3, P4, P5>(
        _ make: @escaping @concurrent @Sendable (consuming P1, consuming P2, consuming P3, consuming P4, consuming P5) async throws -> T,
        overriding: Bool = false, fileID: String = #fileID, line: Int = #line, column: Int = #column
    ) -> FactoryRegistration<T> {
        autowire(String(describing: T.self), make, overriding: overriding, fileID: fileID, line: line, column: column)
    }

    /// Registers `make`, an async function of five parameters that also takes its service's
    /// typed `args`, as its parameter of type `A`:
    /// ``autowire(_:_:args:overriding:fileID:line:column:)-9wom4`` specialized.
    @inlinable @discardableResult
    public func autowire<A: Decodable & Sendable, T, P1, P2, P3, P4, P5>(
        _ key: String,
        _ make: @escaping @concurrent @Sendable (consuming P1, consuming P2, consuming P3, consuming P4, consuming P5) async throws -> T,
        args: A.Type, overriding: Bool = false, fileID: String = #fileID, line: Int = #line, column: Int = #column
    ) -> FactoryRegistration<T> {
        let slots = AutowiredSlot.slots(for: P1.self, P2.self, P3.self, P4.self, P5.self, arguments: A.self)
        return registerAsync(key, overriding: overriding, at: SourceLocation(file: fileID, line: line, column: column),
                             autowired: Self.dependencies(slots), arguments: A.self) { r in
            let arguments = try await r.typedArgumentsAwaitingReferences(A.self)
            return try await make(
                r.awaitingAutowired(slots, at: 0, arguments: arguments), r.awaitingAutowired(slots, at: 1, arguments: arguments),
                r.awaitingAutowired(slots, at: 2, arguments: arguments), r.awaitingAutowired(slots, at: 3, arguments: arguments),
                r.awaitingAutowired(slots, at: 4, arguments: arguments)
            ) as Any
        }
    }

    /// Registers `make`, an async function of six parameters, under `key`, each parameter
    /// resolved by type and awaited when its factory is async:
    /// ``autowire(_:_:overriding:fileID:line:column:)-6tpmu`` specialized.
    @inlinable @discardableResult
    public func autowire<T, P1, P2, P3, P4, P5, P6>(
        _ key: String,
        _ make: @escaping @concurrent @Sendable (consuming P1, consuming P2, consuming P3, consuming P4, consuming P5, consuming P6) async throws -> T,
        overriding: Bool = false, fileID: String = #fileID, line: Int = #line, column: Int = #column
    ) -> FactoryRegistration<T> {
        let slots = AutowiredSlot.slots(for: P1.self, P2.self, P3.self, P4.self, P5.self, P6.self, arguments: nil)
        return registerAsync(key, overriding: overriding, at: SourceLocation(file: fileID, line: line, column: column),
                             autowired: Self.dependencies(slots)) { r in
            try await make(
                r.awaitingAutowired(slots, at: 0), r.awaitingAutowired(slots, at: 1),
                r.awaitingAutowired(slots, at: 2), r.awaitingAutowired(slots, at: 3),
                r.awaitingAutowired(slots, at: 4), r.awaitingAutowired(slots, at: 5)
            ) as Any
        }
    }

    /// Registers `make`, an async function of six parameters, under its type's name:
    /// ``autowire(_:overriding:fileID:line:column:)-14jh`` specialized.
    @inlinable @discardableResult
    public func autowire<T, P1, P2, P3, P4, P5, P6>(
        _ make: @escaping @concurrent @Sendable (consuming P1, consuming P2, consuming P3, consuming P4, consuming P5, consuming P6) async throws -> T,
        overriding: Bool = false, fileID: String = #fileID, line: Int = #line, column: Int = #column
    ) -> FactoryRegistration<T> {
        autowire(String(describing: T.self), make, overriding: overriding, fileID: fileID, line: line, column: column)
    }

    /// Registers `make`, an async function of six parameters that also takes its service's
    /// typed `args`, as its parameter of type `A`:
    /// ``autowire(_:_:args:overriding:fileID:line:column:)-9wom4`` specialized.
    @inlinable @discardableResult
    public func autowire<A: Decodable & Sendable, T, P1, P2, P3, P4, P5, P6>(
        _ key: String,
        _ make: @escaping @concurrent @Sendable (consuming P1, consuming P2, consuming P3, consuming P4, consuming P5, consuming P6) async throws -> T,
        args: A.Type, overriding: Bool = false, fileID: String = #fileID, line: Int = #line, column: Int = #column
    ) -> FactoryRegistration<T> {
        let slots = AutowiredSlot.slots(for: P1.self, P2.self, P3.self, P4.self, P5.self, P6.self, arguments: A.self)
        return registerAsync(key, overriding: overriding, at: SourceLocation(file: fileID, line: line, column: column),
                             autowired: Self.dependencies(slots), arguments: A.self) { r in
            let arguments = try await r.typedArgumentsAwaitingReferences(A.self)
            return try await make(
                r.awaitingAutowired(slots, at: 0, arguments: arguments), r.awaitingAutowired(slots, at: 1, arguments: arguments),
                r.awaitingAutowired(slots, at: 2, arguments: arguments), r.awaitingAutowired(slots, at: 3, arguments: arguments),
                r.awaitingAutowired(slots, at: 4, arguments: arguments), r.awaitingAutowired(slots, at: 5, arguments: arguments)
            ) as Any
        }
    }
}
