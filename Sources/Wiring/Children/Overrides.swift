extension Container {
    /// What a child container resolves differently from its parent, written in the closure of
    /// ``Container/child(_:)``.
    ///
    /// ```swift
    /// let child = try container.child { overrides in
    ///     overrides.override(NoteStore.self) { r in InMemoryNoteStore(log: try r.resolve()) }
    ///     overrides.override(Clock.self, with: FixedClock(at: .zero))      // an instance
    ///     overrides.override(NoteStore.self, name: "archive") { _ in EmptyStore() }
    ///     overrides.share(DatabasePool.self)                                // the parent's instance
    ///     overrides.add(AuditSink.self) { _ in RecordingAuditSink() }       // a service the manifest lacks
    /// }
    /// ```
    ///
    /// An override replaces the service wherever the child resolves it: by its type and every
    /// type it `implements`, by its key, through `!service` and `!tagged` arguments, and through
    /// `r.resolve` in other factories. It keeps the service's scope, arguments (`r.arg` reads
    /// them), tags and `eager:`; the service's decorators still wrap it unless `decorated` is
    /// `false`. The overridden factory's shutdown and property hooks do not run on it.
    ///
    /// Mistakes are reported together when ``Container/child(_:)`` returns, each at the line
    /// that made it: a service the manifest does not declare (with a did-you-mean), a name the
    /// service does not have, a service overridden twice, an added service the manifest declares,
    /// and a shared service that depends on one this child overrides.
    public final class Overrides {
        /// What a change names: a type (a service's type name or an `implements` entry) or a
        /// service key.
        enum Subject {
            case type(Any.Type)
            case key(String)

            var shown: String {
                switch self {
                case .type(let type): String(describing: type)
                case .key(let key): key
                }
            }
        }

        enum Kind {
            case override(FactoryRegistry.Entry, decorated: Bool)
            case share
            case add(FactoryRegistry.Entry, scope: Scope)
        }

        /// One change, where the code wrote it.
        struct Change {
            let subject: Subject
            let name: String?
            let kind: Kind
            let location: SourceLocation
        }

        /// The changes, in the order they were written.
        private(set) var changes: [Change] = []

        init() {}

        // MARK: - Overriding
        //
        // Each form exists for a service named by its type and by its key: a plain closure, an
        // asynchronous one, one isolated to a global actor (`{ @MainActor r in … }`, run as the
        // asynchronous form runs it), each also with the service's typed `args`, and an instance.
        // The isolated forms alone have no `column:`: with the same parameters as the plain form
        // they would be the same declaration to Swift, so they are placed at column 1 of their line.

        /// Replaces the service resolved as `type` (with `name`, one of its named variants) with
        /// what `make` builds.
        ///
        /// - Parameters:
        ///   - type: The service's type, or a type it `implements`.
        ///   - name: A named variant to replace instead of the service itself.
        ///   - decorated: Whether the service's decorators wrap the replacement (the default).
        ///   - fileID: Where the override is written; leave the default. Mistakes are reported
        ///     at this place.
        ///   - line: Leave the default.
        ///   - column: Leave the default.
        ///   - make: Builds the instance, in the child: its `r.resolve` sees the child's overrides.
        public func override<T>(
            _ type: T.Type, name: String? = nil, decorated: Bool = true,
            fileID: String = #fileID, line: Int = #line, column: Int = #column,
            _ make: @escaping @Sendable (FactoryContext) throws -> T
        ) {
            replace(.type(type), name: name, decorated: decorated, with: .synchronous(make, at: at(fileID, line, column)))
        }

        /// Replaces the service resolved as `type` with what the asynchronous (or actor-isolated)
        /// `make` builds: the child then resolves it with `await`.
        public func override<T>(
            _ type: T.Type, name: String? = nil, decorated: Bool = true,
            fileID: String = #fileID, line: Int = #line, column: Int = #column,
            _ make: @escaping @isolated(any) @Sendable (FactoryContext) async throws -> sending T
        ) {
            replace(.type(type), name: name, decorated: decorated, with: .asynchronous(make, at: at(fileID, line, column)))
        }

        /// Replaces the service resolved as `type` with what `make`, isolated to a global actor
        /// (`{ @MainActor r in … }`), builds: the child then resolves it with `await`.
        public func override<T>(
            _ type: T.Type, name: String? = nil, decorated: Bool = true,
            fileID: String = #fileID, line: Int = #line,
            _ make: @escaping @isolated(any) @Sendable (FactoryContext) throws -> sending T
        ) {
            override(type, name: name, decorated: decorated, fileID: fileID, line: line, column: 1, Self.asynchronous(make))
        }

        /// Replaces the service resolved as `type` with what `make` builds from the service's
        /// `args`, read as `A` as a typed factory reads them (see ``FactoryRegistry/factory(_:args:overriding:fileID:line:column:_:)-2rvyo``).
        ///
        /// ```swift
        /// overrides.override(Pool.self, args: PoolArgs.self) { _, args in FakePool(size: args.size) }
        /// ```
        ///
        /// The arguments are checked and decoded when the child is made: a manifest whose `args`
        /// do not read as an `A` is an error at the manifest's line then, not when the override
        /// first runs.
        public func override<A: Decodable & Sendable, T>(
            _ type: T.Type, name: String? = nil, args: A.Type, decorated: Bool = true,
            fileID: String = #fileID, line: Int = #line, column: Int = #column,
            _ make: @escaping @Sendable (FactoryContext, A) throws -> T
        ) {
            replace(.type(type), name: name, decorated: decorated, with: .typed(make, at: at(fileID, line, column)))
        }

        /// Replaces the service resolved as `type` with what the asynchronous `make` builds from
        /// the service's `args`, read as `A`; its `@Reference` fields are awaited first.
        public func override<A: Decodable & Sendable, T>(
            _ type: T.Type, name: String? = nil, args: A.Type, decorated: Bool = true,
            fileID: String = #fileID, line: Int = #line, column: Int = #column,
            _ make: @escaping @isolated(any) @Sendable (FactoryContext, A) async throws -> sending T
        ) {
            replace(.type(type), name: name, decorated: decorated, with: .typed(make, at: at(fileID, line, column)))
        }

        /// Replaces the service resolved as `type` with what `make`, isolated to a global actor,
        /// builds from the service's `args`, read as `A`.
        public func override<A: Decodable & Sendable, T>(
            _ type: T.Type, name: String? = nil, args: A.Type, decorated: Bool = true,
            fileID: String = #fileID, line: Int = #line,
            _ make: @escaping @isolated(any) @Sendable (FactoryContext, A) throws -> sending T
        ) {
            override(type, name: name, args: args, decorated: decorated, fileID: fileID, line: line, column: 1, Self.asynchronous(make))
        }

        /// Replaces the service resolved as `type` with `instance`, which every resolve through
        /// the child hands out (from any thread, as a singleton's instance is).
        public func override<T>(
            _ type: T.Type, name: String? = nil, with instance: T, decorated: Bool = true,
            fileID: String = #fileID, line: Int = #line
        ) {
            replace(.type(type), name: name, decorated: decorated, with: .instance(instance, at: at(fileID, line)))
        }

        /// Replaces the service declared under `key` (with `name`, one of its named variants)
        /// with what `make` builds.
        public func override<T>(
            key: String, name: String? = nil, decorated: Bool = true,
            fileID: String = #fileID, line: Int = #line, column: Int = #column,
            _ make: @escaping @Sendable (FactoryContext) throws -> T
        ) {
            replace(.key(key), name: name, decorated: decorated, with: .synchronous(make, at: at(fileID, line, column)))
        }

        /// Replaces the service declared under `key` with what the asynchronous `make` builds.
        public func override<T>(
            key: String, name: String? = nil, decorated: Bool = true,
            fileID: String = #fileID, line: Int = #line, column: Int = #column,
            _ make: @escaping @isolated(any) @Sendable (FactoryContext) async throws -> sending T
        ) {
            replace(.key(key), name: name, decorated: decorated, with: .asynchronous(make, at: at(fileID, line, column)))
        }

        /// Replaces the service declared under `key` with what the actor-isolated `make` builds.
        public func override<T>(
            key: String, name: String? = nil, decorated: Bool = true,
            fileID: String = #fileID, line: Int = #line,
            _ make: @escaping @isolated(any) @Sendable (FactoryContext) throws -> sending T
        ) {
            override(key: key, name: name, decorated: decorated, fileID: fileID, line: line, column: 1, Self.asynchronous(make))
        }

        /// Replaces the service declared under `key` with what `make` builds from its `args`,
        /// read as `A`.
        public func override<A: Decodable & Sendable, T>(
            key: String, name: String? = nil, args: A.Type, decorated: Bool = true,
            fileID: String = #fileID, line: Int = #line, column: Int = #column,
            _ make: @escaping @Sendable (FactoryContext, A) throws -> T
        ) {
            replace(.key(key), name: name, decorated: decorated, with: .typed(make, at: at(fileID, line, column)))
        }

        /// Replaces the service declared under `key` with what the asynchronous `make` builds
        /// from its `args`, read as `A`.
        public func override<A: Decodable & Sendable, T>(
            key: String, name: String? = nil, args: A.Type, decorated: Bool = true,
            fileID: String = #fileID, line: Int = #line, column: Int = #column,
            _ make: @escaping @isolated(any) @Sendable (FactoryContext, A) async throws -> sending T
        ) {
            replace(.key(key), name: name, decorated: decorated, with: .typed(make, at: at(fileID, line, column)))
        }

        /// Replaces the service declared under `key` with what the actor-isolated `make` builds
        /// from its `args`, read as `A`.
        public func override<A: Decodable & Sendable, T>(
            key: String, name: String? = nil, args: A.Type, decorated: Bool = true,
            fileID: String = #fileID, line: Int = #line,
            _ make: @escaping @isolated(any) @Sendable (FactoryContext, A) throws -> sending T
        ) {
            override(key: key, name: name, args: args, decorated: decorated, fileID: fileID, line: line, column: 1, Self.asynchronous(make))
        }

        /// Replaces the service declared under `key` with `instance`.
        public func override<T>(
            key: String, name: String? = nil, with instance: T, decorated: Bool = true,
            fileID: String = #fileID, line: Int = #line
        ) {
            replace(.key(key), name: name, decorated: decorated, with: .instance(instance, at: at(fileID, line)))
        }

        // MARK: - Sharing

        /// Makes the child hand out its parent's instance of the service resolved as `type`,
        /// instead of keeping one of its own: a connection pool, say.
        ///
        /// The parent builds it, if it has not yet, with the parent's services. Sharing a
        /// service whose declared references (`!service`, `!tagged`, directly or through other
        /// services) reach one this child overrides is an error: the parent's instance holds the
        /// parent's version. An autowired factory's parameters count as references while that
        /// factory builds the parent's instance (a parent's override of the service takes none).
        /// Dependencies resolved in a closure's code cannot be seen before they run.
        public func share<T>(_ type: T.Type, name: String? = nil, fileID: String = #fileID, line: Int = #line) {
            append(.type(type), name: name, .share, at(fileID, line))
        }

        /// Makes the child hand out its parent's instance of the service declared under `key`.
        public func share(key: String, name: String? = nil, fileID: String = #fileID, line: Int = #line) {
            append(.key(key), name: name, .share, at(fileID, line))
        }

        // MARK: - Adding
        //
        // An added service has no manifest entry, so no `args`: no typed form.

        /// Adds a service the manifest does not declare, resolved as `type` (and by its type
        /// name as a key), kept as `scope` says: one instance per child by default.
        public func add<T>(
            _ type: T.Type, scope: Scope = .singleton,
            fileID: String = #fileID, line: Int = #line, column: Int = #column,
            _ make: @escaping @Sendable (FactoryContext) throws -> T
        ) {
            append(.type(type), name: nil, .add(.synchronous(make, at: at(fileID, line, column)), scope: scope), at(fileID, line, column))
        }

        /// Adds a service the manifest does not declare, built by the asynchronous `make`.
        public func add<T>(
            _ type: T.Type, scope: Scope = .singleton,
            fileID: String = #fileID, line: Int = #line, column: Int = #column,
            _ make: @escaping @isolated(any) @Sendable (FactoryContext) async throws -> sending T
        ) {
            append(.type(type), name: nil, .add(.asynchronous(make, at: at(fileID, line, column)), scope: scope), at(fileID, line, column))
        }

        /// Adds a service the manifest does not declare, built by the actor-isolated `make`.
        public func add<T>(
            _ type: T.Type, scope: Scope = .singleton,
            fileID: String = #fileID, line: Int = #line,
            _ make: @escaping @isolated(any) @Sendable (FactoryContext) throws -> sending T
        ) {
            add(type, scope: scope, fileID: fileID, line: line, column: 1, Self.asynchronous(make))
        }

        // MARK: - Recording

        private func replace(_ subject: Subject, name: String?, decorated: Bool, with entry: FactoryRegistry.Entry) {
            append(subject, name: name, .override(entry, decorated: decorated), entry.location)
        }

        private func append(_ subject: Subject, name: String?, _ kind: Kind, _ location: SourceLocation) {
            changes.append(Change(subject: subject, name: name, kind: kind, location: location))
        }

        private func at(_ fileID: String, _ line: Int, _ column: Int = 1) -> SourceLocation {
            SourceLocation(file: fileID, line: line, column: column)
        }

        /// An actor-isolated synchronous factory as the asynchronous one it runs as (awaited,
        /// on its actor).
        private static func asynchronous<T>(
            _ make: @escaping @isolated(any) @Sendable (FactoryContext) throws -> sending T
        ) -> @isolated(any) @Sendable (FactoryContext) async throws -> sending T {
            make
        }

        /// The same for a typed factory.
        private static func asynchronous<A, T>(
            _ make: @escaping @isolated(any) @Sendable (FactoryContext, A) throws -> sending T
        ) -> @isolated(any) @Sendable (FactoryContext, A) async throws -> sending T {
            make
        }
    }
}

/// An instance an override hands out, held for any thread as a kept instance is.
private final class UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

extension FactoryRegistry.Entry {
    /// The entry of a synchronous factory written in code outside the registry.
    static func synchronous<T>(_ make: @escaping @Sendable (FactoryContext) throws -> T, at location: SourceLocation) -> Self {
        var entry = Self(make: { try make($0) }, makeAsync: nil, shutdown: nil, location: location)
        entry.buildsObject = T.self is AnyObject.Type
        return entry
    }

    /// The entry of an asynchronous factory written in code outside the registry.
    static func asynchronous<T>(
        _ make: @escaping @isolated(any) @Sendable (FactoryContext) async throws -> sending T, at location: SourceLocation
    ) -> Self {
        makeAsynchronous({ try await make($0) as Any }, type: T.self, at: location)
    }

    /// The entry of a typed synchronous factory written in code outside the registry: `make`
    /// gets the service's `args` read as `A`.
    static func typed<A: Decodable & Sendable, T>(
        _ make: @escaping @Sendable (FactoryContext, A) throws -> T, at location: SourceLocation
    ) -> Self {
        var entry = synchronous({ r in try make(r, try r.typedArguments(A.self)) }, at: location)
        entry.arguments = TypedArguments(A.self)
        return entry
    }

    /// The entry of a typed asynchronous factory: `make` gets the service's `args` read as `A`,
    /// its `@Reference` fields awaited first.
    static func typed<A: Decodable & Sendable, T>(
        _ make: @escaping @isolated(any) @Sendable (FactoryContext, A) async throws -> sending T, at location: SourceLocation
    ) -> Self {
        var entry = asynchronous({ r in try await make(r, try await r.typedArgumentsAwaitingReferences(A.self)) }, at: location)
        entry.arguments = TypedArguments(A.self)
        return entry
    }

    /// The entry that hands out `instance` on every build.
    static func instance<T>(_ instance: T, at location: SourceLocation) -> Self {
        let box = UncheckedBox(instance)
        return synchronous({ _ in box.value }, at: location)
    }

    private static func makeAsynchronous<T>(
        _ make: @escaping @Sendable (FactoryContext) async throws -> Any, type: T.Type, at location: SourceLocation
    ) -> Self {
        var entry = Self(make: { context in throw context.awaitRequired() }, makeAsync: make, shutdown: nil, location: location)
        entry.buildsObject = T.self is AnyObject.Type
        return entry
    }
}
