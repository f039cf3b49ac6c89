extension FactoryRegistry {
    // MARK: - Autowiring, an isolated function of up to six parameters
    //
    // The isolated forms of FactoryRegistry+Autowire.swift for a function of up to six
    // parameters, which Swift picks over the pack's, as FactoryRegistry+AutowireArities.swift
    // does for the synchronous ones: each parameter is awaited on `try await r.resolve(P.self)`'s
    // path specialized in the client, then the function runs on its actor. A service whose
    // initializer, isolated to a global actor, takes three class parameters resolves in 1.12 µs
    // through them, as the closure isolated to that actor does (1.12–1.14 µs), against 1.24 µs
    // through the pack (`WiringBenchmarks async`).

    /// Registers `make`, a function of no parameter isolated to a global actor, under `key`:
    /// ``autowire(_:isolated:overriding:fileID:line:column:)-5kyfq`` specialized.
    @inlinable @discardableResult
    public func autowire<T: Sendable>(
        _ key: String,
        isolated make: @escaping @isolated(any) @Sendable () throws -> T,
        overriding: Bool = false, fileID: String = #fileID, line: Int = #line, column: Int = #column
    ) -> FactoryRegistration<T> {
        registerAsync(key, overriding: overriding, at: SourceLocation(file: fileID, line: line, column: column),
                      autowired: []) { _ in
            try await make() as Any
        }
    }

    /// Registers `make`, a function of no parameter isolated to a global actor, under its
    /// type's name: ``autowire(isolated:overriding:fileID:line:column:)-13tvi`` specialized.
    @inlinable @discardableResult
    public func autowire<T: Sendable>(
        isolated make: @escaping @isolated(any) @Sendable () throws -> T,
        overriding: Bool = false, fileID: String = #fileID, line: Int = #line, column: Int = #column
    ) -> FactoryRegistration<T> {
        autowire(String(describing: T.self), isolated: make, overriding: overriding, fileID: fileID, line: line, column: column)
    }

    /// Registers `make`, a function of one parameter isolated to a global actor, under `key`,
    /// its parameter resolved by type and awaited:
    /// ``autowire(_:isolated:overriding:fileID:line:column:)-5kyfq`` specialized.
    @inlinable @discardableResult
    public func autowire<T: Sendable, P1: Sendable>(
        _ key: String,
        isolated make: @escaping @isolated(any) @Sendable (consuming P1) throws -> T,
        overriding: Bool = false, fileID: String = #fileID, line: Int = #line, column: Int = #column
    ) -> FactoryRegistration<T> {
        let slots = AutowiredSlot.slots(for: P1.self, arguments: nil)
        return registerAsync(key, overriding: overriding, at: SourceLocation(file: fileID, line: line, column: column),
                             autowired: Self.dependencies(slots)) { r in
            let p0: P1 = try await r.awaitingAutowired(slots, at: 0)
            return try await make(p0) as Any
        }
    }

    /// Registers `make`, a function of one parameter isolated to a global actor, under its
    /// type's name: ``autowire(isolated:overriding:fileID:line:column:)-13tvi`` specialized.
    @inlinable @discardableResult
    public func autowire<T: Sendable, P1: Sendable>(
        isolated make: @escaping @isolated(any) @Sendable (consuming P1) throws -> T,
        overriding: Bool = false, fileID: String = #fileID, line: Int = #line, column: Int = #column
    ) -> FactoryRegistration<T> {
        autowire(String(describing: T.self), isolated: make, overriding: overriding, fileID: fileID, line: line, column: column)
    }

    /// Registers `make`, a function of two parameters isolated to a global actor, under `key`,
    /// each parameter resolved by type and awaited:
    /// ``autowire(_:isolated:overriding:fileID:line:column:)-5kyfq`` specialized.
    @inlinable @discardableResult
    public func autowire<T: Sendable, P1: Sendable, P2: Sendable>(
        _ key: String,
        isolated make: @escaping @isolated(any) @Sendable (consuming P1, consuming P2) throws -> T,
        overriding: Bool = false, fileID: String = #fileID, line: Int = #line, column: Int = #column
    ) -> FactoryRegistration<T> {
        let slots = AutowiredSlot.slots(for: P1.self, P2.self, arguments: nil)
        return registerAsync(key, overriding: overriding, at: SourceLocation(file: fileID, line: line, column: column),
                             autowired: Self.dependencies(slots)) { r in
            let p0: P1 = try await r.awaitingAutowired(slots, at: 0)
            let p1: P2 = try await r.awaitingAutowired(slots, at: 1)
            return try await make(p0, p1) as Any
        }
    }

    /// Registers `make`, a function of two parameters isolated to a global actor, under its
    /// type's name: ``autowire(isolated:overriding:fileID:line:column:)-13tvi`` specialized.
    @inlinable @discardableResult
    public func autowire<T: Sendable, P1: Sendable, P2: Sendable>(
        isolated make: @escaping @isolated(any) @Sendable (consuming P1, consuming P2) throws -> T,
        overriding: Bool = false, fileID: String = #fileID, line: Int = #line, column: Int = #column
    ) -> FactoryRegistration<T> {
        autowire(String(describing: T.self), isolated: make, overriding: overriding, fileID: fileID, line: line, column: column)
    }

    /// Registers `make`, a function of three parameters isolated to a global actor, under
    /// `key`, each parameter resolved by type and awaited:
    /// ``autowire(_:isolated:overriding:fileID:line:column:)-5kyfq`` specialized.
    @inlinable @discardableResult
    public func autowire<T: Sendable, P1: Sendable, P2: Sendable, P3: Sendable>(
        _ key: String,
        isolated make: @escaping @isolated(any) @Sendable (consuming P1, consuming P2, consuming P3) throws -> T,
        overriding: Bool = false, fileID: String = #fileID, line: Int = #line, column: Int = #column
    ) -> FactoryRegistration<T> {
        let slots = AutowiredSlot.slots(for: P1.self, P2.self, P3.self, arguments: nil)
        return registerAsync(key, overriding: overriding, at: SourceLocation(file: fileID, line: line, column: column),
                             autowired: Self.dependencies(slots)) { r in
            let p0: P1 = try await r.awaitingAutowired(slots, at: 0)
            let p1: P2 = try await r.awaitingAutowired(slots, at: 1)
            let p2: P3 = try await r.awaitingAutowired(slots, at: 2)
            return try await make(p0, p1, p2) as Any
        }
    }

    /// Registers `make`, a function of three parameters isolated to a global actor, under its
    /// type's name: ``autowire(isolated:overriding:fileID:line:column:)-13tvi`` specialized.
    @inlinable @discardableResult
    public func autowire<T: Sendable, P1: Sendable, P2: Sendable, P3: Sendable>(
        isolated make: @escaping @isolated(any) @Sendable (consuming P1, consuming P2, consuming P3) throws -> T,
        overriding: Bool = false, fileID: String = #fileID, line: Int = #line, column: Int = #column
    ) -> FactoryRegistration<T> {
        autowire(String(describing: T.self), isolated: make, overriding: overriding, fileID: fileID, line: line, column: column)
    }

    /// Registers `make`, a function of four parameters isolated to a global actor, under `key`,
    /// each parameter resolved by type and awaited:
    /// ``autowire(_:isolated:overriding:fileID:line:column:)-5kyfq`` specialized.
    @inlinable @discardableResult
    public func autowire<T: Sendable, P1: Sendable, P2: Sendable, P3: Sendable, P4: Sendable>(
        _ key: String,
        isolated make: @escaping @isolated(any) @Sendable (consuming P1, consuming P2, consuming P3, consuming P4) throws -> T,
        overriding: Bool = false, fileID: String = #fileID, line: Int = #line, column: Int = #column
    ) -> FactoryRegistration<T> {
        let slots = AutowiredSlot.slots(for: P1.self, P2.self, P3.self, P4.self, arguments: nil)
        return registerAsync(key, overriding: overriding, at: SourceLocation(file: fileID, line: line, column: column),
                             autowired: Self.dependencies(slots)) { r in
            let p0: P1 = try await r.awaitingAutowired(slots, at: 0)
            let p1: P2 = try await r.awaitingAutowired(slots, at: 1)
            let p2: P3 = try await r.awaitingAutowired(slots, at: 2)
            let p3: P4 = try await r.awaitingAutowired(slots, at: 3)
            return try await make(p0, p1, p2, p3) as Any
        }
    }

    /// Registers `make`, a function of four parameters isolated to a global actor, under its
    /// type's name: ``autowire(isolated:overriding:fileID:line:column:)-13tvi`` specialized.
    @inlinable @discardableResult
    public func autowire<T: Sendable, P1: Sendable, P2: Sendable, P3: Sendable, P4: Sendable>(
        isolated make: @escaping @isolated(any) @Sendable (consuming P1, consuming P2, consuming P3, consuming P4) throws -> T,
        overriding: Bool = false, fileID: String = #fileID, line: Int = #line, column: Int = #column
    ) -> FactoryRegistration<T> {
        autowire(String(describing: T.self), isolated: make, overriding: overriding, fileID: fileID, line: line, column: column)
    }

    /// Registers `make`, a function of five parameters isolated to a global actor, under `key`,
    /// each parameter resolved by type and awaited:
    /// ``autowire(_:isolated:overriding:fileID:line:column:)-5kyfq`` specialized.
    @inlinable @discardableResult
    public func autowire<T: Sendable, P1: Sendable, P2: Sendable, P3: Sendable, P4: Sendable, P5: Sendable>(
        _ key: String,
        isolated make: @escaping @isolated(any) @Sendable (consuming P1, consuming P2, consuming P3, consuming P4, consuming P5) throws -> T,
        overriding: Bool = false, fileID: String = #fileID, line: Int = #line, column: Int = #column
    ) -> FactoryRegistration<T> {
        let slots = AutowiredSlot.slots(for: P1.self, P2.self, P3.self, P4.self, P5.self, arguments: nil)
        return registerAsync(key, overriding: overriding, at: SourceLocation(file: fileID, line: line, column: column),
                             autowired: Self.dependencies(slots)) { r in
            let p0: P1 = try await r.awaitingAutowired(slots, at: 0)
            let p1: P2 = try await r.awaitingAutowired(slots, at: 1)
            let p2: P3 = try await r.awaitingAutowired(slots, at: 2)
            let p3: P4 = try await r.awaitingAutowired(slots, at: 3)
            let p4: P5 = try await r.awaitingAutowired(slots, at: 4)
            return try await make(p0, p1, p2, p3, p4) as Any
        }
    }

    /// Registers `make`, a function of five parameters isolated to a global actor, under its
    /// type's name: ``autowire(isolated:overriding:fileID:line:column:)-13tvi`` specialized.
    @inlinable @discardableResult
    public func autowire<T: Sendable, P1: Sendable, P2: Sendable, P3: Sendable, P4: Sendable, P5: Sendable>(
        isolated make: @escaping @isolated(any) @Sendable (consuming P1, consuming P2, consuming P3, consuming P4, consuming P5) throws -> T,
        overriding: Bool = false, fileID: String = #fileID, line: Int = #line, column: Int = #column
    ) -> FactoryRegistration<T> {
        autowire(String(describing: T.self), isolated: make, overriding: overriding, fileID: fileID, line: line, column: column)
    }

    /// Registers `make`, a function of six parameters isolated to a global actor, under `key`,
    /// each parameter resolved by type and awaited:
    /// ``autowire(_:isolated:overriding:fileID:line:column:)-5kyfq`` specialized.
    @inlinable @discardableResult
    public func autowire<T: Sendable, P1: Sendable, P2: Sendable, P3: Sendable, P4: Sendable, P5: Sendable, P6: Sendable>(
        _ key: String,
        isolated make: @escaping @isolated(any) @Sendable (consuming P1, consuming P2, consuming P3, consuming P4, consuming P5, consuming P6) throws -> T,
        overriding: Bool = false, fileID: String = #fileID, line: Int = #line, column: Int = #column
    ) -> FactoryRegistration<T> {
        let slots = AutowiredSlot.slots(for: P1.self, P2.self, P3.self, P4.self, P5.self, P6.self, arguments: nil)
        return registerAsync(key, overriding: overriding, at: SourceLocation(file: fileID, line: line, column: column),
                             autowired: Self.dependencies(slots)) { r in
            let p0: P1 = try await r.awaitingAutowired(slots, at: 0)
            let p1: P2 = try await r.awaitingAutowired(slots, at: 1)
            let p2: P3 = try await r.awaitingAutowired(slots, at: 2)
            let p3: P4 = try await r.awaitingAutowired(slots, at: 3)
            let p4: P5 = try await r.awaitingAutowired(slots, at: 4)
            let p5: P6 = try await r.awaitingAutowired(slots, at: 5)
            return try await make(p0, p1, p2, p3, p4, p5) as Any
        }
    }

    /// Registers `make`, a function of six parameters isolated to a global actor, under its
    /// type's name: ``autowire(isolated:overriding:fileID:line:column:)-13tvi`` specialized.
    @inlinable @discardableResult
    public func autowire<T: Sendable, P1: Sendable, P2: Sendable, P3: Sendable, P4: Sendable, P5: Sendable, P6: Sendable>(
        isolated make: @escaping @isolated(any) @Sendable (consuming P1, consuming P2, consuming P3, consuming P4, consuming P5, consuming P6) throws -> T,
        overriding: Bool = false, fileID: String = #fileID, line: Int = #line, column: Int = #column
    ) -> FactoryRegistration<T> {
        autowire(String(describing: T.self), isolated: make, overriding: overriding, fileID: fileID, line: line, column: column)
    }
}
