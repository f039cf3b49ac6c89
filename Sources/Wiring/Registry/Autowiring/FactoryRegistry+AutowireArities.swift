extension FactoryRegistry {
    // MARK: - Autowiring, a function of up to six parameters
    //
    // The same registrations as the parameter pack's forms in FactoryRegistry+Autowire.swift,
    // for a synchronous function of up to six parameters, which Swift picks over the pack's.
    // Swift 6.3 runs a pack's expansion unspecialized, each parameter a generic step; with a
    // fixed list, each parameter takes `r.resolve(P.self)`'s path specialized in the client, as
    // a hand-written closure's does, and the function's parameters are `consuming`, as an
    // initializer's are (a pack drops the mark, and its thunk retains each parameter). A
    // service built from three autowired class parameters costs 2,511 instructions against the
    // hand-written closure's 2,475 (`WiringBenchmarks --profile-resolve N autowired`, under
    // callgrind); through the pack, 2,851. The pack's forms stay for seven parameters or more
    // (the async and isolated forms of fixed arity are in files of their own). The forms of no
    // parameter are here because Swift would otherwise read `() -> T` as a function of one
    // `Void` parameter.

    /// Registers `make`, a function of no parameter, under `key`:
    /// ``autowire(_:_:overriding:fileID:line:column:)-1mvpd`` specialized.
    @inlinable @discardableResult
    public func autowire<T>(
        _ key: String,
        _ make: @escaping @Sendable () throws -> T,
        overriding: Bool = false, fileID: String = #fileID, line: Int = #line, column: Int = #column
    ) -> FactoryRegistration<T> {
        registerSynchronous(key, overriding: overriding, at: SourceLocation(file: fileID, line: line, column: column),
                            autowired: []) { _ in
            try make()
        }
    }

    /// Registers `make`, a function of no parameter, under its type's name:
    /// ``autowire(_:overriding:fileID:line:column:)-945xr`` specialized.
    @inlinable @discardableResult
    public func autowire<T>(
        _ make: @escaping @Sendable () throws -> T,
        overriding: Bool = false, fileID: String = #fileID, line: Int = #line, column: Int = #column
    ) -> FactoryRegistration<T> {
        autowire(String(describing: T.self), make, overriding: overriding, fileID: fileID, line: line, column: column)
    }

    /// Registers `make`, a function of no parameter whose service also has typed `args` (which
    /// it does not read, but whose references are resolved):
    /// ``autowire(_:_:args:overriding:fileID:line:column:)-949rf`` specialized.
    @inlinable @discardableResult
    public func autowire<A: Decodable & Sendable, T>(
        _ key: String,
        _ make: @escaping @Sendable () throws -> T,
        args: A.Type, overriding: Bool = false, fileID: String = #fileID, line: Int = #line, column: Int = #column
    ) -> FactoryRegistration<T> {
        registerSynchronous(key, overriding: overriding, at: SourceLocation(file: fileID, line: line, column: column),
                            autowired: [], arguments: A.self) { r in
            _ = try r.typedArguments(A.self)
            return try make()
        }
    }

    /// Registers `make`, a function of one parameter, under `key`, its parameter resolved by
    /// type: ``autowire(_:_:overriding:fileID:line:column:)-1mvpd`` specialized.
    @inlinable @discardableResult
    public func autowire<T, P1>(
        _ key: String,
        _ make: @escaping @Sendable (consuming P1) throws -> T,
        overriding: Bool = false, fileID: String = #fileID, line: Int = #line, column: Int = #column
    ) -> FactoryRegistration<T> {
        let slots = AutowiredSlot.slots(for: P1.self, arguments: nil)
        return registerSynchronous(key, overriding: overriding, at: SourceLocation(file: fileID, line: line, column: column),
                                   autowired: Self.dependencies(slots)) { r in
            try make(r.autowired(slots, at: 0))
        }
    }

    /// Registers `make`, a function of one parameter, under its type's name:
    /// ``autowire(_:overriding:fileID:line:column:)-945xr`` specialized.
    @inlinable @discardableResult
    public func autowire<T, P1>(
        _ make: @escaping @Sendable (consuming P1) throws -> T,
        overriding: Bool = false, fileID: String = #fileID, line: Int = #line, column: Int = #column
    ) -> FactoryRegistration<T> {
        autowire(String(describing: T.self), make, overriding: overriding, fileID: fileID, line: line, column: column)
    }

    /// Registers `make`, a function of one parameter that also takes its service's typed
    /// `args`, as its parameter of type `A`:
    /// ``autowire(_:_:args:overriding:fileID:line:column:)-949rf`` specialized.
    @inlinable @discardableResult
    public func autowire<A: Decodable & Sendable, T, P1>(
        _ key: String,
        _ make: @escaping @Sendable (consuming P1) throws -> T,
        args: A.Type, overriding: Bool = false, fileID: String = #fileID, line: Int = #line, column: Int = #column
    ) -> FactoryRegistration<T> {
        let slots = AutowiredSlot.slots(for: P1.self, arguments: A.self)
        return registerSynchronous(key, overriding: overriding, at: SourceLocation(file: fileID, line: line, column: column),
                                   autowired: Self.dependencies(slots), arguments: A.self) { r in
            let arguments = try r.typedArguments(A.self)
            return try make(r.autowired(slots, at: 0, arguments: arguments))
        }
    }

    /// Registers `make`, a function of two parameters, under `key`, each parameter resolved by
    /// type: ``autowire(_:_:overriding:fileID:line:column:)-1mvpd`` specialized.
    @inlinable @discardableResult
    public func autowire<T, P1, P2>(
        _ key: String,
        _ make: @escaping @Sendable (consuming P1, consuming P2) throws -> T,
        overriding: Bool = false, fileID: String = #fileID, line: Int = #line, column: Int = #column
    ) -> FactoryRegistration<T> {
        let slots = AutowiredSlot.slots(for: P1.self, P2.self, arguments: nil)
        return registerSynchronous(key, overriding: overriding, at: SourceLocation(file: fileID, line: line, column: column),
                                   autowired: Self.dependencies(slots)) { r in
            try make(r.autowired(slots, at: 0), r.autowired(slots, at: 1))
        }
    }

    /// Registers `make`, a function of two parameters, under its type's name:
    /// ``autowire(_:overriding:fileID:line:column:)-945xr`` specialized.
    @inlinable @discardableResult
    public func autowire<T, P1, P2>(
        _ make: @escaping @Sendable (consuming P1, consuming P2) throws -> T,
        overriding: Bool = false, fileID: String = #fileID, line: Int = #line, column: Int = #column
    ) -> FactoryRegistration<T> {
        autowire(String(describing: T.self), make, overriding: overriding, fileID: fileID, line: line, column: column)
    }

    /// Registers `make`, a function of two parameters that also takes its service's typed
    /// `args`, as its parameter of type `A`:
    /// ``autowire(_:_:args:overriding:fileID:line:column:)-949rf`` specialized.
    @inlinable @discardableResult
    public func autowire<A: Decodable & Sendable, T, P1, P2>(
        _ key: String,
        _ make: @escaping @Sendable (consuming P1, consuming P2) throws -> T,
        args: A.Type, overriding: Bool = false, fileID: String = #fileID, line: Int = #line, column: Int = #column
    ) -> FactoryRegistration<T> {
        let slots = AutowiredSlot.slots(for: P1.self, P2.self, arguments: A.self)
        return registerSynchronous(key, overriding: overriding, at: SourceLocation(file: fileID, line: line, column: column),
                                   autowired: Self.dependencies(slots), arguments: A.self) { r in
            let arguments = try r.typedArguments(A.self)
            return try make(r.autowired(slots, at: 0, arguments: arguments), r.autowired(slots, at: 1, arguments: arguments))
        }
    }

    /// Registers `make`, a function of three parameters, under `key`, each parameter resolved
    /// by type: ``autowire(_:_:overriding:fileID:line:column:)-1mvpd`` specialized.
    @inlinable @discardableResult
    public func autowire<T, P1, P2, P3>(
        _ key: String,
        _ make: @escaping @Sendable (consuming P1, consuming P2, consuming P3) throws -> T,
        overriding: Bool = false, fileID: String = #fileID, line: Int = #line, column: Int = #column
    ) -> FactoryRegistration<T> {
        let slots = AutowiredSlot.slots(for: P1.self, P2.self, P3.self, arguments: nil)
        return registerSynchronous(key, overriding: overriding, at: SourceLocation(file: fileID, line: line, column: column),
                                   autowired: Self.dependencies(slots)) { r in
            try make(r.autowired(slots, at: 0), r.autowired(slots, at: 1), r.autowired(slots, at: 2))
        }
    }

    /// Registers `make`, a function of three parameters, under its type's name:
    /// ``autowire(_:overriding:fileID:line:column:)-945xr`` specialized.
    @inlinable @discardableResult
    public func autowire<T, P1, P2, P3>(
        _ make: @escaping @Sendable (consuming P1, consuming P2, consuming P3) throws -> T,
        overriding: Bool = false, fileID: String = #fileID, line: Int = #line, column: Int = #column
    ) -> FactoryRegistration<T> {
        autowire(String(describing: T.self), make, overriding: overriding, fileID: fileID, line: line, column: column)
    }

    /// Registers `make`, a function of three parameters that also takes its service's typed
    /// `args`, as its parameter of type `A`:
    /// ``autowire(_:_:args:overriding:fileID:line:column:)-949rf`` specialized.
    @inlinable @discardableResult
    public func autowire<A: Decodable & Sendable, T, P1, P2, P3>(
        _ key: String,
        _ make: @escaping @Sendable (consuming P1, consuming P2, consuming P3) throws -> T,
        args: A.Type, overriding: Bool = false, fileID: String = #fileID, line: Int = #line, column: Int = #column
    ) -> FactoryRegistration<T> {
        let slots = AutowiredSlot.slots(for: P1.self, P2.self, P3.self, arguments: A.self)
        return registerSynchronous(key, overriding: overriding, at: SourceLocation(file: fileID, line: line, column: column),
                                   autowired: Self.dependencies(slots), arguments: A.self) { r in
            let arguments = try r.typedArguments(A.self)
            return try make(
                r.autowired(slots, at: 0, arguments: arguments), r.autowired(slots, at: 1, arguments: arguments),
                r.autowired(slots, at: 2, arguments: arguments)
            )
        }
    }

    /// Registers `make`, a function of four parameters, under `key`, each parameter resolved by
    /// type: ``autowire(_:_:overriding:fileID:line:column:)-1mvpd`` specialized.
    @inlinable @discardableResult
    public func autowire<T, P1, P2, P3, P4>(
        _ key: String,
        _ make: @escaping @Sendable (consuming P1, consuming P2, consuming P3, consuming P4) throws -> T,
        overriding: Bool = false, fileID: String = #fileID, line: Int = #line, column: Int = #column
    ) -> FactoryRegistration<T> {
        let slots = AutowiredSlot.slots(for: P1.self, P2.self, P3.self, P4.self, arguments: nil)
        return registerSynchronous(key, overriding: overriding, at: SourceLocation(file: fileID, line: line, column: column),
                                   autowired: Self.dependencies(slots)) { r in
            try make(
                r.autowired(slots, at: 0), r.autowired(slots, at: 1), r.autowired(slots, at: 2),
                r.autowired(slots, at: 3)
            )
        }
    }

    /// Registers `make`, a function of four parameters, under its type's name:
    /// ``autowire(_:overriding:fileID:line:column:)-945xr`` specialized.
    @inlinable @discardableResult
    public func autowire<T, P1, P2, P3, P4>(
        _ make: @escaping @Sendable (consuming P1, consuming P2, consuming P3, consuming P4) throws -> T,
        overriding: Bool = false, fileID: String = #fileID, line: Int = #line, column: Int = #column
    ) -> FactoryRegistration<T> {
        autowire(String(describing: T.self), make, overriding: overriding, fileID: fileID, line: line, column: column)
    }

    /// Registers `make`, a function of four parameters that also takes its service's typed
    /// `args`, as its parameter of type `A`:
    /// ``autowire(_:_:args:overriding:fileID:line:column:)-949rf`` specialized.
    @inlinable @discardableResult
    public func autowire<A: Decodable & Sendable, T, P1, P2, P3, P4>(
        _ key: String,
        _ make: @escaping @Sendable (consuming P1, consuming P2, consuming P3, consuming P4) throws -> T,
        args: A.Type, overriding: Bool = false, fileID: String = #fileID, line: Int = #line, column: Int = #column
    ) -> FactoryRegistration<T> {
        let slots = AutowiredSlot.slots(for: P1.self, P2.self, P3.self, P4.self, arguments: A.self)
        return registerSynchronous(key, overriding: overriding, at: SourceLocation(file: fileID, line: line, column: column),
                                   autowired: Self.dependencies(slots), arguments: A.self) { r in
            let arguments = try r.typedArguments(A.self)
            return try make(
                r.autowired(slots, at: 0, arguments: arguments), r.autowired(slots, at: 1, arguments: arguments),
                r.autowired(slots, at: 2, arguments: arguments), r.autowired(slots, at: 3, arguments: arguments)
            )
        }
    }

    /// Registers `make`, a function of five parameters, under `key`, each parameter resolved by
    /// type: ``autowire(_:_:overriding:fileID:line:column:)-1mvpd`` specialized.
    @inlinable @discardableResult
    public func autowire<T, P1, P2, P3, P4, P5>(
        _ key: String,
        _ make: @escaping @Sendable (consuming P1, consuming P2, consuming P3, consuming P4, consuming P5) throws -> T,
        overriding: Bool = false, fileID: String = #fileID, line: Int = #line, column: Int = #column
    ) -> FactoryRegistration<T> {
        let slots = AutowiredSlot.slots(for: P1.self, P2.self, P3.self, P4.self, P5.self, arguments: nil)
        return registerSynchronous(key, overriding: overriding, at: SourceLocation(file: fileID, line: line, column: column),
                                   autowired: Self.dependencies(slots)) { r in
            try make(
                r.autowired(slots, at: 0), r.autowired(slots, at: 1), r.autowired(slots, at: 2),
                r.autowired(slots, at: 3), r.autowired(slots, at: 4)
            )
        }
    }

    /// Registers `make`, a function of five parameters, under its type's name:
    /// ``autowire(_:overriding:fileID:line:column:)-945xr`` specialized.
    @inlinable @discardableResult
    public func autowire<T, P1, P2, P3, P4, P5>(
        _ make: @escaping @Sendable (consuming P1, consuming P2, consuming P3, consuming P4, consuming P5) throws -> T,
        overriding: Bool = false, fileID: String = #fileID, line: Int = #line, column: Int = #column
    ) -> FactoryRegistration<T> {
        autowire(String(describing: T.self), make, overriding: overriding, fileID: fileID, line: line, column: column)
    }

    /// Registers `make`, a function of five parameters that also takes its service's typed
    /// `args`, as its parameter of type `A`:
    /// ``autowire(_:_:args:overriding:fileID:line:column:)-949rf`` specialized.
    @inlinable @discardableResult
    public func autowire<A: Decodable & Sendable, T, P1, P2, P3, P4, P5>(
        _ key: String,
        _ make: @escaping @Sendable (consuming P1, consuming P2, consuming P3, consuming P4, consuming P5) throws -> T,
        args: A.Type, overriding: Bool = false, fileID: String = #fileID, line: Int = #line, column: Int = #column
    ) -> FactoryRegistration<T> {
        let slots = AutowiredSlot.slots(for: P1.self, P2.self, P3.self, P4.self, P5.self, arguments: A.self)
        return registerSynchronous(key, overriding: overriding, at: SourceLocation(file: fileID, line: line, column: column),
                                   autowired: Self.dependencies(slots), arguments: A.self) { r in
            let arguments = try r.typedArguments(A.self)
            return try make(
                r.autowired(slots, at: 0, arguments: arguments), r.autowired(slots, at: 1, arguments: arguments),
                r.autowired(slots, at: 2, arguments: arguments), r.autowired(slots, at: 3, arguments: arguments),
                r.autowired(slots, at: 4, arguments: arguments)
            )
        }
    }

    /// Registers `make`, a function of six parameters, under `key`, each parameter resolved by
    /// type: ``autowire(_:_:overriding:fileID:line:column:)-1mvpd`` specialized.
    @inlinable @discardableResult
    public func autowire<T, P1, P2, P3, P4, P5, P6>(
        _ key: String,
        _ make: @escaping @Sendable (consuming P1, consuming P2, consuming P3, consuming P4, consuming P5, consuming P6) throws -> T,
        overriding: Bool = false, fileID: String = #fileID, line: Int = #line, column: Int = #column
    ) -> FactoryRegistration<T> {
        let slots = AutowiredSlot.slots(for: P1.self, P2.self, P3.self, P4.self, P5.self, P6.self, arguments: nil)
        return registerSynchronous(key, overriding: overriding, at: SourceLocation(file: fileID, line: line, column: column),
                                   autowired: Self.dependencies(slots)) { r in
            try make(
                r.autowired(slots, at: 0), r.autowired(slots, at: 1), r.autowired(slots, at: 2),
                r.autowired(slots, at: 3), r.autowired(slots, at: 4), r.autowired(slots, at: 5)
            )
        }
    }

    /// Registers `make`, a function of six parameters, under its type's name:
    /// ``autowire(_:overriding:fileID:line:column:)-945xr`` specialized.
    @inlinable @discardableResult
    public func autowire<T, P1, P2, P3, P4, P5, P6>(
        _ make: @escaping @Sendable (consuming P1, consuming P2, consuming P3, consuming P4, consuming P5, consuming P6) throws -> T,
        overriding: Bool = false, fileID: String = #fileID, line: Int = #line, column: Int = #column
    ) -> FactoryRegistration<T> {
        autowire(String(describing: T.self), make, overriding: overriding, fileID: fileID, line: line, column: column)
    }

    /// Registers `make`, a function of six parameters that also takes its service's typed
    /// `args`, as its parameter of type `A`:
    /// ``autowire(_:_:args:overriding:fileID:line:column:)-949rf`` specialized.
    @inlinable @discardableResult
    public func autowire<A: Decodable & Sendable, T, P1, P2, P3, P4, P5, P6>(
        _ key: String,
        _ make: @escaping @Sendable (consuming P1, consuming P2, consuming P3, consuming P4, consuming P5, consuming P6) throws -> T,
        args: A.Type, overriding: Bool = false, fileID: String = #fileID, line: Int = #line, column: Int = #column
    ) -> FactoryRegistration<T> {
        let slots = AutowiredSlot.slots(for: P1.self, P2.self, P3.self, P4.self, P5.self, P6.self, arguments: A.self)
        return registerSynchronous(key, overriding: overriding, at: SourceLocation(file: fileID, line: line, column: column),
                                   autowired: Self.dependencies(slots), arguments: A.self) { r in
            let arguments = try r.typedArguments(A.self)
            return try make(
                r.autowired(slots, at: 0, arguments: arguments), r.autowired(slots, at: 1, arguments: arguments),
                r.autowired(slots, at: 2, arguments: arguments), r.autowired(slots, at: 3, arguments: arguments),
                r.autowired(slots, at: 4, arguments: arguments), r.autowired(slots, at: 5, arguments: arguments)
            )
        }
    }
}
