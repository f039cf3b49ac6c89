extension FactoryRegistry {
    /// Registers `make` under `key`, reading its service's `args` as a `Decodable` type.
    ///
    /// ```swift
    /// struct PoolArgs: Decodable, Sendable {
    ///     enum Mode: String, Decodable, CaseIterable, Sendable { case fast, safe }
    ///     var url: String
    ///     var size: Int?
    ///     var mode: Mode
    ///     var timeout: Duration?
    /// }
    /// registry.factory("pool", args: PoolArgs.self) { r, args in
    ///     Pool(url: args.url, size: args.size ?? 10, mode: args.mode)
    /// }
    /// ```
    ///
    /// Building a ``Container`` decodes the arguments of every service, named variant and
    /// context's `add:` service that names this factory, once, before any factory runs, and
    /// throws one ``ManifestError`` with every problem at its manifest position: a value of the
    /// wrong type, a missing required field, an unknown key (with a did-you-mean), an enum value
    /// that is not a case, a number out of the field's range. Each build hands the factory the
    /// decoded value. See <doc:TypedArguments> for the rules values decode by, and ``Reference``
    /// for fields that the manifest fills with a service.
    ///
    /// - Parameters:
    ///   - key: The key manifests name in `factory:`.
    ///   - args: The arguments type: a `Decodable` struct whose fields are the keys of `args`.
    ///   - overriding: Whether this registration knowingly replaces an earlier one.
    ///   - fileID: Where the registration is written; leave the default.
    ///   - line: The line of the registration; leave the default.
    ///   - column: The column of the registration; leave the default.
    ///   - make: Builds an instance from the context and the decoded arguments.
    /// - Returns: The registration, to add a shutdown hook to.
    @discardableResult
    public func factory<A: Decodable & Sendable, T>(
        _ key: String, args: A.Type, overriding: Bool = false,
        fileID: String = #fileID, line: Int = #line, column: Int = #column,
        _ make: @escaping @Sendable (FactoryContext, A) throws -> T
    ) -> FactoryRegistration<T> {
        register(key, overriding: overriding, Entry(
            make: { r in try make(r, try r.typedArguments(A.self)) }, makeAsync: nil, shutdown: nil,
            location: SourceLocation(file: fileID, line: line, column: column), arguments: TypedArguments(A.self)))
    }

    /// Registers an asynchronous factory under `key` that reads its service's `args` as a
    /// `Decodable` type; its `@Reference` fields are awaited before it runs.
    ///
    /// ```swift
    /// registry.factory("pool", args: PoolArgs.self) { r, args in
    ///     try await Pool.connect(args.url, size: args.size ?? 10, mode: args.mode)
    /// }
    /// .onShutdown { pool in try await pool.close() }
    /// ```
    ///
    /// The arguments are checked when a container is built, as for the synchronous form
    /// (``factory(_:args:overriding:fileID:line:column:_:)-2rvyo``).
    @discardableResult
    public func factory<A: Decodable & Sendable, T>(
        _ key: String, args: A.Type, overriding: Bool = false,
        fileID: String = #fileID, line: Int = #line, column: Int = #column,
        _ make: @escaping @isolated(any) @Sendable (FactoryContext, A) async throws -> sending T
    ) -> FactoryRegistration<T> {
        registerAsync(key, overriding: overriding, at: SourceLocation(file: fileID, line: line, column: column),
                      arguments: TypedArguments(A.self)) { r in
            let arguments = try await r.typedArgumentsAwaitingReferences(A.self)
            return try await make(r, arguments) as Any
        }
    }

    /// Registers a synchronous factory isolated to a global actor (`{ @MainActor r, args in
    /// ViewModel(title: args.title) }`) that reads its service's `args` as a `Decodable` type:
    /// it runs on its actor, so its service resolves with `await`.
    @discardableResult
    public func factory<A: Decodable & Sendable, T>(
        _ key: String, args: A.Type, overriding: Bool = false,
        fileID: String = #fileID, line: Int = #line,
        _ make: @escaping @isolated(any) @Sendable (FactoryContext, A) throws -> sending T
    ) -> FactoryRegistration<T> {
        registerAsync(key, overriding: overriding, at: SourceLocation(file: fileID, line: line, column: 1),
                      arguments: TypedArguments(A.self)) { r in
            let arguments = try await r.typedArgumentsAwaitingReferences(A.self)
            return try await make(r, arguments) as Any
        }
    }

    /// The schema of each factory registered with `args:`, by key.
    package var argumentSchemas: [String: ArgumentSchema] {
        let entries = snapshot.entries
        var schemas: [String: ArgumentSchema] = [:]
        for (key, entry) in entries {
            if let arguments = entry.arguments { schemas[key] = arguments.schema }
        }
        return schemas
    }
}
