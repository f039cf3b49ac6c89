/// What a factory receives: its service's static arguments, the runtime arguments, the key and
/// name being built, and access to its own dependencies.
///
/// ```swift
/// registry.factory("postgres-user-store") { r in
///     PostgresUserStore(
///         url: try r.arg("url"),                      // from args: in the manifest, typed
///         poolSize: try r.arg("pool", default: 4),
///         logger: try r.resolve(Logger.self))         // a dependency, in the same resolution
/// }
/// registry.factory("logging-user-store") { r in
///     LoggingUserStore(wrapping: try r.decorated(UserStore.self))   // for `decorates:`
/// }
/// registry.factory("sql-store") { r in                    // an async factory
///     SQLStore(pool: try await r.resolve(Pool.self))      // awaits an async dependency
/// }
/// ```
///
/// A context is for its factory's work. An async factory may resolve through it from concurrent
/// child tasks (`async let`, task groups). A factory may also keep it to resolve later, from any
/// thread or task: once its resolution is over, a resolve through the kept context continues
/// that resolution (its `graph` instances); from another thread while the resolution is still
/// under way, it is a resolution of its own (see <doc:Concurrency>). A kept context keeps its
/// container alive: a kept instance (`singleton`, `cached`) that holds its context keeps the
/// container that holds it until ``Container/shutdown()``.
public struct FactoryContext: @unchecked Sendable {
    /// The container, not counted, so that a context has one counted field (see ``Holder``):
    /// while the resolution runs, its caller holds the container, and once it is over, a
    /// context that outlived it holds the state, which then holds the container (see
    /// ``ResolutionState/recycle(_:container:)``). Borrowed, not loaded, on the resolve path:
    /// loading it would count a reference.
    @usableFromInline let owner: Unmanaged<Container>
    /// The resolution's state, read without counting a reference: `holder` holds it.
    @usableFromInline let current: Unmanaged<ResolutionState>
    /// What holds the state, and what a build has only sometimes.
    let holder: Holder
    /// Owned by the container, like `owner`, so it needs no reference count of its own.
    unowned(unsafe) let registration: Registration
    /// The decorator being built, or -1 for the registration's own factory.
    let decorator: Int

    /// The context's one counted reference: the resolution's state, or, for a build with
    /// runtime arguments or a decorated instance, a box that holds it with them.
    ///
    /// One counted field, not the state and an optional box beside it, and the state read
    /// through `current`: the compiler then makes a context from the builder's state, and
    /// reads the state back, without counting a reference while the factory runs (a context
    /// the factory keeps is a copy, which counts). With two counted fields, or the state read
    /// out of this enum, it counted one on every build: two atomic operations a build, which
    /// put the "unique, 3 dependencies" row at 2.2x its floor by time, not about 1.97x.
    enum Holder {
        case state(ResolutionState)
        case extended(Extras)
    }

    /// What a build has only sometimes, boxed so that a context without it is a few words.
    final class Extras {
        let state: ResolutionState
        let arguments: Arguments
        let inner: Any?
        /// For static arguments that read configuration keys: the values in force when the
        /// build began, which every read of this build sees.
        let values: RefreshingArguments.Current?
        init(state: ResolutionState, arguments: Arguments, inner: Any?, values: RefreshingArguments.Current?) {
            self.state = state
            self.arguments = arguments
            self.inner = inner
            self.values = values
        }
    }

    /// A context for a registration's own factory (or for its decorator `decorator`), for a
    /// build with no runtime arguments and no decorated instance.
    init(container: Container, state: ResolutionState, registration: Registration, decorator: Int = -1) {
        owner = Unmanaged.passUnretained(container)
        current = Unmanaged.passUnretained(state)
        holder = .state(state)
        self.registration = registration
        self.decorator = decorator
    }

    /// A context whose build has runtime arguments or wraps an instance.
    init(container: Container, extras: Extras, registration: Registration, decorator: Int) {
        owner = Unmanaged.passUnretained(container)
        current = Unmanaged.passUnretained(extras.state)
        holder = .extended(extras)
        self.registration = registration
        self.decorator = decorator
    }

    /// A context for a registration's own factory.
    init(container: Container, state: ResolutionState, arguments: Arguments, registration: Registration) {
        let refreshing = registration.refreshing
        if arguments.count == 0, refreshing == nil {
            self.init(container: container, state: state, registration: registration)
        } else {
            self.init(container: container, extras: Extras(state: state, arguments: arguments, inner: nil, values: refreshing?.snapshot),
                      registration: registration, decorator: -1)
        }
    }

    /// A context for decorator `decorator` of a registration, wrapping `inner`.
    init(container: Container, state: ResolutionState, arguments: Arguments, inner: Any, registration: Registration, decorator: Int) {
        let values = registration.decorators[decorator].refreshing?.snapshot
        self.init(container: container, extras: Extras(state: state, arguments: arguments, inner: inner, values: values),
                  registration: registration, decorator: decorator)
    }

    /// The resolution's state.
    @usableFromInline var state: ResolutionState { current.takeUnretainedValue() }

    /// This context for the same factory, in `state`, a state that continues this one's.
    func continued(in state: ResolutionState) -> FactoryContext {
        guard let extras else { return FactoryContext(container: container, state: state, registration: registration, decorator: decorator) }
        return FactoryContext(container: container,
                              extras: Extras(state: state, arguments: extras.arguments, inner: extras.inner, values: extras.values),
                              registration: registration, decorator: decorator)
    }

    private var extras: Extras? {
        if case .extended(let extras) = holder { return extras }
        return nil
    }

    /// The container resolving.
    @usableFromInline var container: Container { owner.takeUnretainedValue() }

    var arguments: Arguments { extras?.arguments ?? .none }
    var inner: Any? { extras?.inner }

    /// The key of the service being built (for a decorator, the decorator's key).
    public var serviceKey: String { decorator < 0 ? registration.key : registration.decorators[decorator].key }
    /// The key of the factory running (as registered in the ``FactoryRegistry``).
    public var factoryKey: String { decorator < 0 ? registration.factoryKey : registration.decorators[decorator].factoryKey }
    /// The named variant being built, if any.
    public var name: String? { decorator < 0 ? registration.name : nil }
    /// The service's static arguments (`args:`), with `${…}` and `$(…)` filled in.
    public var args: ManifestMap {
        if let values = extras?.values { return values.map }
        return decorator < 0 ? registration.args : registration.decorators[decorator].args
    }

    /// What the container decoded for a typed factory running, with the values this build reads.
    var decodedArguments: DecodedArguments? {
        if let values = extras?.values { return values.decoded }
        return decorator < 0 ? registration.typedArguments : registration.decorators[decorator].typedArguments
    }
    var location: SourceLocation { decorator < 0 ? registration.location : registration.decorators[decorator].location }

    /// The static argument `key`, read as `T`.
    /// - Throws: ``ResolutionError`` naming the manifest position when it is missing or of the
    ///   wrong kind.
    public func arg<T: ManifestDecodable>(_ key: String, as type: T.Type = T.self) throws(ResolutionError) -> T {
        guard let value = args[key] else {
            if let optional = T.self as? any OptionalManifestDecodable.Type { return optional.absent as! T }
            throw missingArgument(key)
        }
        if case .service = value.kind { throw referenceReadAsValue(key, value) }
        if case .tagged = value.kind { throw referenceReadAsValue(key, value) }
        do {
            return try value.decode(T.self)
        } catch {
            throw self.error(.staticArgument(error), "\(value.location): argument '\(key)' of service \(serviceKey): \(failure(error, reading: value, at: key))")
        }
    }

    /// What reading `value`, the argument `key`, as a type failed with. A value that is not
    /// shown (from the environment or a configuration source) is named by where it came from,
    /// as a typed argument's check names it: "expected an integer, found a string from
    /// configuration key 'http.port'".
    private func failure(_ error: ManifestError, reading value: ManifestValue, at key: String) -> String {
        let detail = error.diagnostics.first?.message ?? "cannot be read"
        guard value.isSecret || value.isInterpolated else { return detail }
        let source = decorator < 0 ? registration.source(ofArgument: key) : registration.decorators[decorator].source(ofArgument: key)
        guard let source else { return detail }
        let found = "found \(value.foundDescription())"
        guard detail.hasSuffix(found) else { return "\(detail) (the value of \(source))" }
        return "\(detail.dropLast(found.count))found \(value.foundDescription(source: source))"
    }

    /// The static argument `key` read as `T`, or `fallback` when the manifest does not set it.
    public func arg<T: ManifestDecodable>(_ key: String, default fallback: T) throws(ResolutionError) -> T {
        args[key] == nil ? fallback : try arg(key, as: T.self)
    }

    /// The runtime argument at `index`, checked to be a `T`.
    /// - Throws: ``ResolutionError`` naming the expected and the given type, or the count.
    public func argument<T>(_ index: Int = 0, as type: T.Type = T.self) throws(ResolutionError) -> T {
        guard index >= 0, index < arguments.count else {
            throw error(.argument("missing"),
                        "service \(serviceKey) expects a runtime argument \(index) of type \(T.self), but \(arguments.count) \(arguments.count == 1 ? "was" : "were") passed")
        }
        let value = arguments.values[index]
        guard let typed = value as? T else {
            throw error(.argument("type"),
                        "runtime argument \(index) of service \(serviceKey) should be a \(T.self), but a \(Swift.type(of: value)) was passed")
        }
        return typed
    }

    /// Resolves a dependency within the same resolution (sharing `graph` instances).
    ///
    /// An async service that is not built yet cannot be resolved synchronously: make this
    /// factory async and `await` the resolve.
    // Always inlined into the factory, where `T` is known: a dependency then costs no call of
    // its own, no metadata accessor and no thunk of merged specializations (the "unique, 3
    // dependencies" row from 2,657 to 2,494 instructions).
    @inlinable @inline(__always)
    public func resolve<T>(_ type: T.Type = T.self, name: String? = nil) throws(ResolutionError) -> T {
        var instance = try dependency(type, name: name)
        if let typed = Container.cast(&instance, to: T.self) { return typed }
        throw typeMismatch(instance, expected: type, name: name)
    }

    /// The error for a dependency that is not of the type asked for.
    @usableFromInline
    func typeMismatch(_ instance: Any, expected: Any.Type, name: String?) -> ResolutionError {
        container.typeMismatch(instance, expected: expected, name: name, steps: state.readableSteps)
    }

    /// The instance of the dependency `type` (`name`), not yet cast: the generic caller casts
    /// it where `T` is known. One call from the factory's module, in which the container is
    /// borrowed, not counted.
    @usableFromInline
    func dependency(_ type: Any.Type, name: String?) throws(ResolutionError) -> Any {
        try current.borrowing { state throws(ResolutionError) in
            // In its own resolution only while that is the one building on this thread: a
            // context kept past its factory resolves through `continuing` instead.
            guard name == nil, state.isBuildingHere else { return try dependency(type, name: name, arguments: .none) }
            return try owner.borrowing { container throws(ResolutionError) in try container.resolveDependency(type, state: state) }
        }
    }

    /// The instance of the dependency `type` (`name`) built with `arguments`, not yet cast: in
    /// this resolution, or, below an async factory (whose state is frozen), in a state of its
    /// own that continues it.
    @usableFromInline
    func dependency(_ type: Any.Type, name: String?, arguments: Arguments) throws(ResolutionError) -> Any {
        try container.resolveInstance(type, name: name, arguments: arguments, continuing: state)
    }

    /// Resolves a dependency within the same resolution, passing runtime arguments to its factory.
    @inlinable
    public func resolve<T>(_ type: T.Type = T.self, name: String? = nil, arguments: any Sendable...) throws(ResolutionError) -> T {
        var instance = try dependency(type, name: name, arguments: Arguments(arguments))
        if let typed = Container.cast(&instance, to: T.self) { return typed }
        throw typeMismatch(instance, expected: type, name: name)
    }

    /// Resolves a dependency by service key within the same resolution.
    public func resolve(key: String, name: String? = nil) throws(ResolutionError) -> Any {
        let container = container
        return try container.continuing(state) { state throws(ResolutionError) in
            try container.resolve(key: key, name: name, arguments: .none, state: state)
        }
    }

    // MARK: - Awaiting dependencies

    /// Resolves a dependency within the same resolution, awaiting it when its factory (or one
    /// of its dependencies') is async. Cycles, scopes and `graph` sharing work as in the
    /// synchronous form; resolves from concurrent child tasks of one factory are safe.
    ///
    /// - Throws: ``ResolutionError``, or `CancellationError` when the task is cancelled while
    ///   waiting for an instance another task is building.
    // Inlined into the factory, where `T` is known: the cast is specialized (an async service
    // of three awaited class dependencies from 1.31 to 1.02 µs, `WiringBenchmarks async`).
    @inlinable
    public func resolve<T>(_ type: T.Type = T.self, name: String? = nil, arguments: any Sendable...) async throws -> T {
        var instance = try await container.resolveAsync(type, name: name, arguments: Arguments(arguments), from: state)
        if let typed = Container.cast(&instance, to: T.self) { return typed }
        throw typeMismatch(instance, expected: type, name: name)
    }

    /// Resolves a dependency by service key within the same resolution, awaiting it if needed.
    public func resolve(key: String, name: String? = nil) async throws -> Any {
        try await container.resolveAsync(key: key, name: name, arguments: .none, from: state)
    }

    /// A dependency, awaited if needed, or `nil` when no service is declared for `T`.
    public func optional<T>(_ type: T.Type = T.self, name: String? = nil) async throws -> T? {
        guard container.isDeclared(type) else { return nil }
        return try await resolve(type, name: name)
    }

    /// For a decorator's factory: the instance it wraps (the `await`-able form, for async
    /// decorators; the instance is already built).
    public func decorated<T>(_ type: T.Type = T.self) async throws -> T {
        try inner(as: type)
    }

    /// The error an async factory's synchronous stand-in throws.
    func awaitRequired() -> ResolutionError {
        container.awaitRequired(registration, state: state)
    }

    /// The error for a `seeded: true` service without a factory, resolved in a scope that was
    /// not given its instance.
    func notSeeded() -> ResolutionError {
        ResolutionError(.notSeeded(registration.key), message: "service \(registration.step) is seeded: give the scope its instance "
                        + "with scope.seed(_:) before anything resolves it", path: state.readableSteps)
    }

    /// A dependency, or `nil` when no service is declared for `T`.
    @inlinable
    public func optional<T>(_ type: T.Type = T.self, name: String? = nil) throws(ResolutionError) -> T? {
        guard container.isDeclared(type) else { return nil }
        return try resolve(type, name: name)
    }

    /// For a decorator's factory: the instance it wraps.
    /// - Throws: ``ResolutionError`` when this factory is not building a decorator, or the
    ///   inner instance is not a `T`.
    public func decorated<T>(_ type: T.Type = T.self) throws(ResolutionError) -> T {
        try inner(as: type)
    }

    private func inner<T>(as type: T.Type) throws(ResolutionError) -> T {
        guard let inner else {
            throw error(.notADecorator, "service \(serviceKey) asked for the instance it decorates, but it decorates nothing")
        }
        guard let typed = inner as? T else {
            throw error(.typeMismatch(produced: "\(Swift.type(of: inner))", expected: "\(T.self)"),
                        "service \(serviceKey) decorates a \(Swift.type(of: inner)), which is not a \(T.self)")
        }
        return typed
    }

    /// The error for a static argument the manifest does not set.
    func missingArgument(_ key: String) -> ResolutionError {
        let known = args.keys.isEmpty ? "it has none" : "it has " + args.keys.joined(separator: ", ")
        return error(.staticArgument(ManifestError("missing argument", at: args.location)),
                     "\(location): service \(serviceKey) has no argument '\(key)'\(Suggestion.hint(for: key, in: args.keys)) (\(known))")
    }

    func error(_ kind: ResolutionError.Kind, _ message: String) -> ResolutionError {
        ResolutionError(kind, message: message, path: state.readableSteps)
    }
}
