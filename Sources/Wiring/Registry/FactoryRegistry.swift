
/// The factories Swift code registers under string keys, for manifests to refer to.
///
/// ```swift
/// let registry = FactoryRegistry()
/// registry.factory("console-logger") { r in
///     ConsoleLogger(level: try r.arg("level"))
/// }
/// registry.factory("postgres-user-store") { r in
///     PostgresUserStore(url: try r.arg("url"), logger: try r.resolve(Logger.self))
/// }
/// ```
///
/// A factory may be asynchronous, isolated to a global actor, and may have a shutdown hook:
///
/// ```swift
/// registry.factory("pool") { r in try await Pool.connect(url: try r.arg("url")) }
///     .onShutdown { pool in try await pool.close() }
/// registry.factory("view-model") { @MainActor r in ViewModel() }
/// ```
///
/// Registering a key twice is an error, reported with both places when a ``Container`` is
/// built, unless the second registration says `overriding: true`.
public final class FactoryRegistry: Sendable {
    /// A registered factory: its closure and where the code registered it.
    package struct Entry: Sendable {
        /// Builds synchronously; for an async factory, throws the error that says to await it.
        package let make: @Sendable (FactoryContext) throws -> Any
        /// The async factory, when the registration is one.
        let makeAsync: (@Sendable (FactoryContext) async throws -> Any)?
        /// What `FactoryRegistration.onShutdown` registered for the factory's instances.
        package var shutdown: ShutdownHook?
        /// What `resolvingProperties` added: run on each instance right after the factory.
        package var properties: [@Sendable (FactoryContext, Any) throws -> Void] = []
        package let location: SourceLocation
        /// Whether the factory's type is a class: its instances are references.
        var buildsObject = false
        /// What a factory registered with `args:` reads; `nil` for one that reads `r.arg`.
        package var arguments: TypedArguments?
        /// The services an autowired factory's parameters resolve; `nil` for a closure.
        package var autowired: [AutowiredDependency]?

        /// Whether calling the factory may suspend.
        var isAsync: Bool { makeAsync != nil }

        /// What builds a `seeded: true` service that names no factory: nothing, so resolving
        /// it in a scope that was not seeded throws.
        static func seededOnly(at location: SourceLocation) -> Entry {
            Entry(make: { context in throw context.notSeeded() }, makeAsync: nil, shutdown: nil, location: location)
        }
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var order: [String] = []
        var duplicates: [(key: String, first: SourceLocation, again: SourceLocation)] = []
        /// The autowired factories' dependencies, by key, kept as they are registered: every
        /// container built from the registry reads them.
        var autowired: [String: [AutowiredDependency]] = [:]
    }

    private let state = Locked(State())

    /// Creates an empty registry.
    public init() {}

    /// Registers `make` under `key`.
    ///
    /// - Parameters:
    ///   - key: The key manifests name in `factory:`.
    ///   - overriding: Whether this registration knowingly replaces an earlier one.
    ///   - fileID: Where the registration is written; leave the default. Duplicate and unused
    ///     registrations are reported at this place.
    ///   - line: The line of the registration; leave the default.
    ///   - column: The column of the registration; leave the default.
    ///   - make: Builds an instance; it reads its arguments and dependencies from the context.
    /// - Returns: The registration, to add a shutdown hook to.
    @inlinable @discardableResult
    public func factory<T>(
        _ key: String, overriding: Bool = false,
        fileID: String = #fileID, line: Int = #line, column: Int = #column,
        _ make: @escaping @Sendable (FactoryContext) throws -> T
    ) -> FactoryRegistration<T> {
        // Made `Any` here, in the caller's module, where `T` is known: the closure between the
        // container and the factory is then specialized, and a build no longer boxes its
        // instance through `T`'s value witnesses (about 25 instructions a build).
        registerSynchronous(key, overriding: overriding, at: SourceLocation(file: fileID, line: line, column: column)) { try make($0) }
    }

    /// Registers `make`, a synchronous factory of `T`s that returns them as `Any`.
    @usableFromInline
    func registerSynchronous<T>(
        _ key: String, overriding: Bool, at location: SourceLocation, autowired: [AutowiredDependency]? = nil,
        _ make: @escaping @Sendable (FactoryContext) throws -> Any
    ) -> FactoryRegistration<T> {
        var entry = Entry(make: make, makeAsync: nil, shutdown: nil, location: location)
        entry.autowired = autowired
        return register(key, overriding: overriding, entry)
    }

    /// Registers `make`, a synchronous factory of `T`s that reads its service's typed `args`
    /// as an `A`, and returns them as `Any`.
    @usableFromInline
    func registerSynchronous<T, A: Decodable & Sendable>(
        _ key: String, overriding: Bool, at location: SourceLocation, autowired: [AutowiredDependency]?, arguments: A.Type,
        _ make: @escaping @Sendable (FactoryContext) throws -> Any
    ) -> FactoryRegistration<T> {
        var entry = Entry(make: make, makeAsync: nil, shutdown: nil, location: location, arguments: TypedArguments(A.self))
        entry.autowired = autowired
        return register(key, overriding: overriding, entry)
    }

    /// Registers an asynchronous factory under `key`: one that awaits (a connection, a file,
    /// another async service), or one isolated to an actor (`{ @MainActor r in ViewModel() }`).
    ///
    /// Its service resolves with `await` (``Container/resolve(_:name:arguments:)-3njpw``); once built, a
    /// kept instance also resolves synchronously. Mark it `eager: true` in the manifest so that
    /// ``Container/start()`` builds it before the app's synchronous code needs it.
    ///
    /// - Parameters:
    ///   - key: The key manifests name in `factory:`.
    ///   - overriding: Whether this registration knowingly replaces an earlier one.
    ///   - fileID: Where the registration is written; leave the default.
    ///   - line: The line of the registration; leave the default.
    ///   - column: The column of the registration; leave the default.
    ///   - make: Builds an instance, in the factory's own isolation.
    /// - Returns: The registration, to add a shutdown hook to.
    @discardableResult
    public func factory<T>(
        _ key: String, overriding: Bool = false,
        fileID: String = #fileID, line: Int = #line, column: Int = #column,
        _ make: @escaping @isolated(any) @Sendable (FactoryContext) async throws -> sending T
    ) -> FactoryRegistration<T> {
        registerAsync(key, overriding: overriding, at: SourceLocation(file: fileID, line: line, column: column)) { try await make($0) as Any }
    }

    /// Registers a synchronous factory isolated to a global actor (`{ @MainActor r in
    /// ViewModel() }`): it runs on its actor, so its service resolves with `await`, as an
    /// async factory's does.
    ///
    /// Swift picks this overload for a closure with a global actor; a plain closure gets the
    /// synchronous one. This form has no `column:`: with the same parameters as the plain form,
    /// Swift could not tell the two apart, so its registration is placed at column 1 of its line.
    @discardableResult
    public func factory<T>(
        _ key: String, overriding: Bool = false,
        fileID: String = #fileID, line: Int = #line,
        _ make: @escaping @isolated(any) @Sendable (FactoryContext) throws -> sending T
    ) -> FactoryRegistration<T> {
        registerAsync(key, overriding: overriding, at: SourceLocation(file: fileID, line: line, column: 1)) { try await make($0) as Any }
    }

    /// Registers `make`, which already returns its `T` as `Any`: one closure between the
    /// container and the factory, not two.
    @usableFromInline
    func registerAsync<T>(
        _ key: String, overriding: Bool, at location: SourceLocation, autowired: [AutowiredDependency]? = nil,
        arguments: TypedArguments? = nil, _ make: @escaping @Sendable (FactoryContext) async throws -> Any
    ) -> FactoryRegistration<T> {
        var entry = Entry(make: { context in throw context.awaitRequired() }, makeAsync: make, shutdown: nil, location: location,
                          arguments: arguments)
        entry.autowired = autowired
        return register(key, overriding: overriding, entry)
    }

    /// Registers `make`, an async factory of `T`s that reads its service's typed `args` as an
    /// `A`, and returns them as `Any`.
    @usableFromInline
    func registerAsync<T, A: Decodable & Sendable>(
        _ key: String, overriding: Bool, at location: SourceLocation, autowired: [AutowiredDependency]?, arguments: A.Type,
        _ make: @escaping @Sendable (FactoryContext) async throws -> Any
    ) -> FactoryRegistration<T> {
        registerAsync(key, overriding: overriding, at: location, autowired: autowired, arguments: TypedArguments(A.self), make)
    }

    func register<T>(_ key: String, overriding: Bool, _ entry: Entry) -> FactoryRegistration<T> {
        var entry = entry
        entry.buildsObject = T.self is AnyObject.Type
        state.withLock { state in
            if let first = state.entries[key] {
                if !overriding { state.duplicates.append((key, first.location, entry.location)) }
            } else {
                state.order.append(key)
            }
            state.entries[key] = entry
            state.autowired[key] = entry.autowired
        }
        return FactoryRegistration(registry: self, key: key)
    }

    /// Adds a hook that runs on each instance the factory registered under `key` builds, right
    /// after the factory and before any decorator, in the same resolution: property injection
    /// for instances that cannot take everything in their initializer, also on a registration a
    /// library made.
    ///
    /// ```swift
    /// registry.resolvingProperties("session", as: Session.self) { r, session in
    ///     session.delegate = try r.resolve(SessionDelegate.self)
    /// }
    /// ```
    ///
    /// Hooks run in the order they were added; one that throws fails the resolve as a factory
    /// that throws does. Meant for classes: a value type's changes would be lost. Add hooks
    /// before building a container.
    public func resolvingProperties<T>(_ key: String, as type: T.Type = T.self,
                                       _ hook: @escaping @Sendable (FactoryContext, T) throws -> Void) {
        state.withLock { state in
            state.entries[key]?.properties.append { context, instance in
                if let typed = instance as? T { try hook(context, typed) }
            }
        }
    }

    /// Sets the shutdown hook of the factory registered under `key`.
    @usableFromInline
    func setShutdown(_ key: String, _ hook: ShutdownHook) {
        state.withLock { $0.entries[key]?.shutdown = hook }
    }

    /// The registered keys, in registration order.
    public var keys: [String] { state.withLock { $0.order } }

    /// The dependency types of every autowired factory, by key.
    package var autowiredDependencies: [String: [AutowiredDependency]] { state.withLock { $0.autowired } }

    /// Whether `key` is registered.
    public func contains(_ key: String) -> Bool { state.withLock { $0.entries[key] != nil } }

    /// The factory registered under `key`.
    package func entry(_ key: String) -> Entry? { state.withLock { $0.entries[key] } }

    /// Every registered key in registration order, with its factory, read under one lock.
    package var snapshot: (keys: [String], entries: [String: Entry]) {
        state.withLock { ($0.order, $0.entries) }
    }

    /// Registrations of a key that was already registered, without `overriding: true`.
    var duplicateDiagnostics: [Diagnostic] {
        state.withLock { state in
            state.duplicates.map {
                .error("factory '\($0.key)' is registered twice; pass overriding: true to replace it on purpose",
                       at: $0.again, notes: [Diagnostic.Note("first registered here", at: $0.first)])
            }
        }
    }
}

/// A factory just registered: add what runs when its instances are shut down.
public struct FactoryRegistration<T>: Sendable {
    @usableFromInline let registry: FactoryRegistry
    /// The key the factory is registered under.
    public let key: String

    /// Runs `hook` on each instance right after the factory built it, before any decorator, in
    /// the same resolution (see ``FactoryRegistry/resolvingProperties(_:as:_:)``).
    ///
    /// ```swift
    /// registry.factory("session") { _ in Session() }
    ///     .resolvingProperties { r, session in session.delegate = try r.resolve() }
    /// ```
    @discardableResult
    public func resolvingProperties(_ hook: @escaping @Sendable (FactoryContext, T) throws -> Void) -> Self {
        registry.resolvingProperties(key, as: T.self, hook)
        return self
    }

    /// Runs `hook` on each instance of this factory that the container (or a
    /// ``ContainerScope``) keeps, when it shuts down: ``Container/shutdown()`` for singleton,
    /// cached, shared and custom scopes, the scope's end for `scoped`. Hooks run once each, in
    /// reverse order of construction. An async hook runs in a task of its own within the
    /// service's `shutdownTimeout:` (30 s unless set): one that overruns is cancelled, left
    /// behind and reported.
    ///
    /// ```swift
    /// registry.factory("pool") { r in try await Pool.connect(url: try r.arg("url")) }
    ///     .onShutdown { pool in try await pool.close() }
    /// ```
    ///
    /// Add hooks before building a container: a container takes its factories when it is built.
    @discardableResult @inlinable
    public func onShutdown(_ hook: @escaping @Sendable (T) async throws -> Void) -> Self {
        registry.setShutdown(key, .timed { instance in
            var instance = instance
            if let typed = Container.cast(&instance, to: T.self) { try await hook(typed) }
        })
        return self
    }

    /// Runs the synchronous `hook` on each instance of this factory that the container (or a
    /// ``ContainerScope``) keeps, when it shuts down, in the order
    /// the async `onShutdown` describes. A synchronous hook runs in place, in the task
    /// that shuts down, without a timeout (nothing could stop it): it must not block. This is
    /// the form for request-`scoped` instances: running a hook in a task against a timer costs
    /// about 4 µs, close to what the rest of a request's scope costs.
    ///
    /// ```swift
    /// registry.factory("unit-of-work") { r in UnitOfWork(log: try r.arg("log")) }
    ///     .onShutdown { unit in unit.end() }
    /// ```
    @discardableResult @inlinable
    public func onShutdown(_ hook: @escaping @Sendable (T) throws -> Void) -> Self {
        // Cast as a resolve casts: an exact type without the runtime's dynamic cast.
        registry.setShutdown(key, .immediate { instance in
            var instance = instance
            if let typed = Container.cast(&instance, to: T.self) { try hook(typed) }
        })
        return self
    }
}
