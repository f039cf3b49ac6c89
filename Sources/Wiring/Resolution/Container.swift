#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
public import Logging

/// The container: a manifest bound to a registry's factories, resolving services by type,
/// name or key, in their scopes.
///
/// ```swift
/// let registry = FactoryRegistry()
/// registry.factory("console-logger") { r in ConsoleLogger(level: try r.arg("level")) }
/// let container = try Container(manifest: "config/services.yaml", registry: registry)
///
/// let logger: Logger = try container.resolve()
/// let replica = try container.resolve(UserStore.self, name: "replica")
/// ```
///
/// Building a container checks that every service's factory is registered and that every
/// environment variable a value reads is set, and throws ``ManifestError`` with every problem
/// at its manifest position. Resolving throws ``ResolutionError``; nothing a user writes makes
/// the container stop the process. Resolving from many threads at once is safe, and a kept
/// instance is built exactly once.
public final class Container: Sendable {
    /// Settings of a container that are not in the manifest.
    public struct Options: Sendable {
        /// The environment `${NAME}` references read; the process's when `nil`.
        public var environment: [String: String]?
        /// The clock time-to-live is measured on; inject one in tests.
        public var now: @Sendable () -> ContinuousClock.Instant
        /// Where the container logs: the active contexts at info level, failed resolves of the
        /// property wrappers and of `bootstrap` at error level, and every resolution (service,
        /// scope, kept or built, time) at trace level. Nothing is logged when `nil`.
        public var logger: Logger?

        /// Creates options.
        public init(environment: [String: String]? = nil,
                    now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now },
                    logger: Logger? = nil) {
            self.environment = environment
            self.now = now
            self.logger = logger
        }
    }

    /// The manifest the container was built from, with its active contexts applied.
    public let manifest: Manifest
    /// The contexts applied, in order, each with where its name came from.
    public let activeContexts: [ActiveContext]
    /// Remarks from building the container: factories no service uses (info), warnings.
    public let diagnostics: [Diagnostic]

    let targets: TargetMap
    /// Every registration: each service's, then its named variants', in manifest order.
    let registrations: [Registration]
    let now: @Sendable () -> ContinuousClock.Instant
    /// The logger, when one was given.
    let logger: Logger?
    /// The logger when it logs at trace level: the resolve path checks only this.
    let traceLogger: Logger?
    /// What each Swift type resolves to, found once per type and read without a lock.
    private let targetTable = TargetTable()
    /// For a kept instance that never expires, the instance itself, by the type it was resolved
    /// as, so that resolving it again is one lookup under this thread's stripe.
    private let typeCache = ReadMostly(TypeCache())

    struct TypeCache {
        /// Kept instances that never expire, by the type they were resolved as.
        var instances = TypeTable<InstanceBox>()
        /// Bumped by every reset, so a build that raced a reset does not cache its instance.
        var generation = 0
    }

    /// Loads the manifest at `path` (with its imports and overlay files) and builds a container
    /// from it with the chosen contexts applied, on the caller's thread.
    ///
    /// - Throws: ``ManifestError`` with every problem of the manifest, of the contexts or of
    ///   binding it.
    public convenience init(
        manifest path: String, registry: FactoryRegistry, contexts: ContextSelection = .launch(),
        options: Options = Options()
    ) throws(ManifestError) {
        let environment = options.environment ?? ProcessInfo.processInfo.environment
        let loader = ManifestLoader(environment: environment)
        let validation = loader.finishCheck(loader.read(path), eachContext: false)
        guard let manifest = validation.manifest else { throw ManifestError(validation.diagnostics) }
        try self.init(manifest: manifest, registry: registry, contexts: contexts, options: options)
    }

    /// A manifest bound to a registry with its contexts applied: what a container is made of.
    struct Bound: Sendable {
        var manifest: Manifest
        let activeContexts: [ActiveContext]
        let diagnostics: [Diagnostic]
        let targets: TargetMap
        let registrations: [Registration]

        /// Applies `contexts` to `loaded` and binds it.
        init(
            _ loaded: Manifest, registry: FactoryRegistry, contexts: ContextSelection, environment: [String: String]
        ) throws(ManifestError) {
            let active = try contexts.resolve(for: loaded)
            manifest = try loaded.applying(contexts: active.map(\.name))
            var binder = Binder(manifest: manifest, registry: registry, environment: environment)
            let table = binder.bind()
            if binder.diagnostics.containsErrors {
                throw ManifestError(binder.diagnostics.filter { $0.severity != .info })
            }
            activeContexts = active
            diagnostics = binder.diagnostics
            targets = table.targets
            registrations = table.registrations
        }
    }

    /// Builds a container from a loaded manifest and a registry, on the caller's thread.
    ///
    /// - Throws: ``ManifestError`` listing, each at its position, every factory key that is not
    ///   registered (with a did-you-mean), every environment variable that is unset with no
    ///   default, and every factory registered twice.
    ///
    /// The contexts are applied once, here: the container is a plain table, so resolving costs
    /// the same with contexts as without. To switch contexts, build another container.
    public convenience init(
        manifest loaded: Manifest, registry: FactoryRegistry, contexts: ContextSelection = .launch(),
        options: Options = Options()
    ) throws(ManifestError) {
        let environment = options.environment ?? ProcessInfo.processInfo.environment
        self.init(bound: try Bound(loaded, registry: registry, contexts: contexts, environment: environment), options: options)
    }

    init(bound: Bound, options: Options) {
        self.manifest = bound.manifest
        self.activeContexts = bound.activeContexts
        self.diagnostics = bound.diagnostics
        self.targets = bound.targets
        self.registrations = bound.registrations
        self.now = options.now
        logger = options.logger
        traceLogger = options.logger.flatMap { $0.logLevel <= .trace ? $0 : nil }
        options.logger?.info("\(contextSummary)")
    }

    /// `contexts: staging (WIRING_CONTEXT), test (automatic)`, or `contexts: none`.
    public var contextSummary: String {
        "contexts: " + (activeContexts.isEmpty ? "none" : activeContexts.map(\.description).joined(separator: ", "))
    }

    // MARK: - Resolving

    /// Resolves the service declared for `T` (its type name, or a type it `implements`).
    ///
    /// - Parameters:
    ///   - type: The type to resolve; a service key or `implements` entry names it.
    ///   - name: A named variant; an unknown name is an error listing the defined ones.
    ///   - arguments: Runtime arguments the factory reads with ``FactoryContext/argument(_:as:)``.
    /// - Throws: ``ResolutionError``.
    @inlinable
    public func resolve<T>(_ type: T.Type = T.self, name: String? = nil, arguments: any Sendable...) throws(ResolutionError) -> T {
        if name == nil, arguments.isEmpty, var kept = keptInstance(type), let typed = Self.cast(&kept, to: T.self) { return typed }
        var instance = try resolveInstance(type, name: name, arguments: Arguments(arguments), state: nil)
        guard let typed = Self.cast(&instance, to: T.self) else { throw typeMismatch(instance, expected: type, name: name, state: nil) }
        return typed
    }

    /// Resolves a service by its key, as written in the manifest.
    /// - Throws: ``ResolutionError``.
    public func resolve(key: String, name: String? = nil, arguments: any Sendable...) throws(ResolutionError) -> Any {
        try resolve(key: key, name: name, arguments: Arguments(arguments), state: nil)
    }

    /// Resolves the service declared for `T`, or returns `nil` when none is declared.
    ///
    /// Only "nothing declared" gives `nil`: an unknown name, a failing factory or a cycle still
    /// throws.
    @inlinable
    public func optional<T>(_ type: T.Type = T.self, name: String? = nil) throws(ResolutionError) -> T? {
        guard isDeclared(type) else { return nil }
        return try resolve(type, name: name)
    }

    /// The kept instance already resolved as `type`, if any: the whole of a warm singleton resolve.
    @usableFromInline
    func keptInstance(_ type: Any.Type) -> Any? {
        let id = ObjectIdentifier(type)
        // Only a kept instance that never expires is cached: other types skip the cache's lock.
        if let registration = knownUnnamedRegistration(id), !registration._withUnsafeGuaranteedRef({ $0.isCachedByType }) {
            return nil
        }
        let instance = typeCache.read { $0.pointee.instances[id]?.value }
        if let traceLogger, instance != nil { traceLogger.trace("resolve \(type): kept") }
        return instance
    }

    /// Logs a failed resolve at error level.
    func logFailure(_ error: ResolutionError) {
        logger?.error("\(error)")
    }

    /// Whether a service is declared for `type`.
    @usableFromInline
    func isDeclared(_ type: Any.Type) -> Bool { target(for: type) != nil }

    /// The instance for `type`, not yet cast: generic callers cast it in their own module, where
    /// the type is known, so no generic metadata is looked up at run time.
    @usableFromInline
    func resolveInstance(_ type: Any.Type, name: String?, arguments: Arguments, state: ResolutionState?) throws(ResolutionError) -> Any {
        try registration(for: type, name: name, state: state).borrowing { registration throws(ResolutionError) in
            try resolveInstance(type, of: registration, name: name, arguments: arguments, state: state)
        }
    }

    private func resolveInstance(
        _ type: Any.Type, of registration: Registration, name: String?, arguments: Arguments, state: ResolutionState?
    ) throws(ResolutionError) -> Any {
        let id = ObjectIdentifier(type)
        // A kept instance that never expires is cached by the type it is resolved as.
        var cachesInstance = false
        var generation = 0
        if name == nil, registration.isCachedByType {
            cachesInstance = true
            var kept: InstanceBox?
            typeCache.read { cache in
                kept = cache.pointee.instances[id]
                generation = cache.pointee.generation
            }
            if let kept { return kept.value }
        }
        let built: Any
        if let traceLogger {
            built = try traced(registration, arguments: arguments, state: state, logger: traceLogger)
        } else {
            built = try self.instance(of: registration, arguments: arguments, state: state)
        }
        if cachesInstance {
            typeCache.write { cache in
                if cache.generation == generation { cache.instances[id] = InstanceBox(value: built) }
            }
        }
        return built
    }

    /// A dependency a factory of this container asks for with no name and no runtime arguments:
    /// the most common resolve of all. A unique or graph service with no decorators is built in
    /// one step, with no reference counted but the context's state: the thread is already
    /// building with this container, and the container holds the registration.
    @usableFromInline
    static func resolveDependency(_ type: Any.Type, of container: Unmanaged<Container>, state: ResolutionState) throws(ResolutionError) -> Any {
        try container.borrowing { container throws(ResolutionError) in try container.resolveDependency(type, state: state) }
    }

    private func resolveDependency(_ type: Any.Type, state: ResolutionState) throws(ResolutionError) -> Any {
        if traceLogger == nil, !state.path.isEmpty, let registration = knownUnnamedRegistration(ObjectIdentifier(type)) {
            // Borrowed for the build, so that the path, the context and the call count nothing.
            let built = try registration.borrowing { registration throws(ResolutionError) in
                try buildDependency(registration, state: state)
            }
            if let built { return built }
        }
        return try resolveInstance(type, name: nil, arguments: .none, state: state)
    }

    /// `resolveDependency`'s one step, or `nil` when the registration needs the general path: it
    /// has decorators or keeps its instance.
    private func buildDependency(_ registration: Registration, state: ResolutionState) throws(ResolutionError) -> Any? {
        guard registration.decorators.isEmpty else { return nil }
        switch registration.keeping {
        case .unique:
            return try produceNested(registration, state: state)
        case .graph:
            let key = ObjectIdentifier(registration)
            if let instance = state.graph[key] { return instance }
            let instance = try produceNested(registration, state: state)
            state.graph[key] = instance
            return instance
        case .kept:
            return nil
        }
    }

    /// `instance` as a `T`, taken out of it when it can be, so that the cast counts no reference.
    ///
    /// A class instance stored as exactly `T`, the common case (a factory builds the class it
    /// is resolved as), is moved out, and `instance` is left holding `()`. This reads the
    /// existential's layout, which Swift's ABI fixes: three words of inline buffer, where a
    /// class reference is stored in the first, then the stored type's metadata. A value stored
    /// as exactly `T` is copied out of the opened existential, which costs a fraction of a
    /// dynamic cast; anything else (protocols, superclasses) is a dynamic cast. `instance` is
    /// unchanged when the cast fails, for the error message.
    @inlinable @inline(__always)
    static func cast<T>(_ instance: inout Any, to type: T.Type) -> T? {
        if T.self is AnyObject.Type, MemoryLayout<Any>.size == 4 * MemoryLayout<Int>.size {
            let taken = withUnsafeMutablePointer(to: &instance) { pointer -> T? in
                let words = UnsafeMutableRawPointer(pointer)
                guard words.load(fromByteOffset: 3 * MemoryLayout<Int>.size, as: Any.Type.self) == T.self else { return nil }
                let value = words.assumingMemoryBound(to: T.self).move()
                pointer.initialize(to: ())
                return value
            }
            if let taken { return taken }
        }
        func open<Stored>(_ stored: Stored) -> T? {
            Stored.self == T.self ? unsafeBitCast(stored, to: T.self) : stored as? T
        }
        return _openExistential(instance, do: open)
    }

    /// The error for an instance that is not of the type asked for.
    @usableFromInline
    func typeMismatch(_ instance: Any, expected: Any.Type, name: String?, state: ResolutionState?) -> ResolutionError {
        let registration = target(for: expected).flatMap { target in name.map { target.named[$0] } ?? target.unnamed }
        let service = registration.map { "service \($0.key) (\($0.location))" } ?? "service"
        return ResolutionError(
            .typeMismatch(produced: "\(Swift.type(of: instance))", expected: "\(expected)"),
            message: "\(service) produced \(Swift.type(of: instance)), which is not a \(expected)",
            path: (state?.steps ?? []) + (registration.map { [$0.step] } ?? []))
    }

    /// Resolves with a trace line: service, scope, whether the instance was kept or built, time.
    private func traced(_ registration: Registration, arguments: Arguments, state: ResolutionState?, logger: Logger) throws(ResolutionError) -> Any {
        var kept = false
        if case .kept(let timeToLive, _, let slot) = registration.keeping {
            kept = slot.current(now: timeToLive == nil ? nil : now()) != nil
        }
        let start = ContinuousClock.now
        let instance = try self.instance(of: registration, arguments: arguments, state: state)
        let elapsed = ContinuousClock.now - start
        let name = registration.name.map { "[\($0)]" } ?? ""
        logger.trace("resolve \(registration.key)\(name) (\(registration.scope)): \(kept ? "kept" : "built") in \(elapsed)")
        return instance
    }

    func resolve(key: String, name: String?, arguments: Arguments, state: ResolutionState?) throws(ResolutionError) -> Any {
        guard let target = targets[key] else { throw unknownService(key, state: state) }
        let registration = try registration(in: target, name: name, state: state)
        return try instance(of: registration, arguments: arguments, state: state)
    }

    /// The registration `type` (and `name`) resolves to, not counted: the container holds every
    /// registration. Reads the target without counting it either.
    private func registration(for type: Any.Type, name: String?, state: ResolutionState?) throws(ResolutionError) -> Unmanaged<Registration> {
        let id = ObjectIdentifier(type)
        if let name {
            if case .target(let target) = targetTable.lookup(id), let named = target._withUnsafeGuaranteedRef({ $0.named[name] }) {
                return Unmanaged.passUnretained(named)
            }
        } else if let unnamed = knownUnnamedRegistration(id) {
            return unnamed
        }
        guard let target = target(for: type) else {
            throw unknownService(String(describing: type), state: state)
        }
        return Unmanaged.passUnretained(try registration(in: target, name: name, state: state))
    }

    /// The registration an unnamed resolve of the type `id` reaches, once the type has been
    /// looked up: read without a lock and without counting a reference.
    @inline(__always)
    private func knownUnnamedRegistration(_ id: ObjectIdentifier) -> Unmanaged<Registration>? {
        guard case .target(let target) = targetTable.lookup(id) else { return nil }
        return target._withUnsafeGuaranteedRef { $0.unnamedReference }
    }

    /// The target a type resolves to: its qualified name, then its plain name. Computed once
    /// per type.
    func target(for type: Any.Type) -> ResolutionTarget? {
        let id = ObjectIdentifier(type)
        switch targetTable.lookup(id) {
        case .target(let target): return target.takeUnretainedValue()
        case .undeclared: return nil
        case .unknown: break
        }
        let found = targets[String(reflecting: type)] ?? targets[String(describing: type)]
        targetTable.insert(id, found)
        return found
    }

    private func registration(in target: ResolutionTarget, name: String?, state: ResolutionState?) throws(ResolutionError) -> Registration {
        if let name {
            if let variant = target.named[name] { return variant }
            let defined = target.named.keys.sorted()
            let list = defined.isEmpty ? "it has no named variants" : "its names: " + defined.joined(separator: ", ")
            throw ResolutionError(
                .unknownName(name, service: target.serviceKey),
                message: "service \(target.serviceKey) has no variant named '\(name)'\(Suggestion.hint(for: name, in: defined)) (\(list))",
                path: state?.steps ?? [])
        }
        guard let registration = target.unnamed else {
            let names = target.named.keys.sorted().joined(separator: ", ")
            throw ResolutionError(
                .unknownName("", service: target.serviceKey),
                message: "'\(target.serviceKey)' resolves only by name (\(names))",
                path: state?.steps ?? [])
        }
        return registration
    }

    private func unknownService(_ name: String, state: ResolutionState?) -> ResolutionError {
        if let off = manifest.switchedOff[name] {
            return ResolutionError(
                .unknownService(name),
                message: "service \(name) is switched off in context '\(off.value)' (\(off.location))",
                path: state?.steps ?? [])
        }
        let declared = manifest.services.map(\.key)
        let shown = declared.prefix(12).joined(separator: ", ") + (declared.count > 12 ? ", and \(declared.count - 12) more" : "")
        let hint = Suggestion.hint(for: name, in: targets.keys)
        return ResolutionError(
            .unknownService(name),
            message: "no service is declared for '\(name)'\(hint) (declared: \(shown.isEmpty ? "none" : shown))",
            path: state?.steps ?? [])
    }

    // MARK: - Scopes

    func instance(of registration: Registration, arguments: Arguments, state: ResolutionState?) throws(ResolutionError) -> Any {
        if let state { return try instance(of: registration, arguments: arguments, in: state) }
        if case .kept(let timeToLive, _, let slot) = registration.keeping,
           let instance = slot.current(now: timeToLive == nil ? nil : now()) {
            return instance
        }
        let state = ResolutionState.acquire()
        defer { ResolutionState.recycle(state, container: self) }
        return try instance(of: registration, arguments: arguments, in: state)
    }

    private func instance(of registration: Registration, arguments: Arguments, in state: ResolutionState) throws(ResolutionError) -> Any {
        switch registration.keeping {
        case .kept(let timeToLive, let weakly, let slot):
            if let instance = slot.current(now: timeToLive == nil ? nil : now()) { return instance }
            return try buildKept(registration, in: slot, timeToLive: timeToLive, weakly: weakly,
                                 arguments: arguments, state: state)
        case .graph:
            let id = ObjectIdentifier(registration)
            if let instance = state.graph[id] { return instance }
            let instance = try produce(registration, arguments: arguments, state: state)
            state.graph[id] = instance
            return instance
        case .unique:
            return try produce(registration, arguments: arguments, state: state)
        }
    }

    private func buildKept(
        _ registration: Registration, in slot: InstanceSlot, timeToLive: Duration?, weakly: Bool, arguments: Arguments, state: ResolutionState
    ) throws(ResolutionError) -> Any {
        try checkCycle(registration, state: state)
        while true {
            switch slot.lookup(token: state.token, now: timeToLive == nil ? nil : now()) {
            case .instance(let instance):
                return instance
            case .build:
                do {
                    let instance = try produce(registration, arguments: arguments, state: state)
                    slot.finish(instance, expires: timeToLive.map { now() + $0 }, weakly: weakly)
                    return instance
                } catch {
                    slot.abandon()
                    throw error
                }
            case .wait(let done, _):
                guard WaitGraph.beginWaiting(state.token, for: slot) else {
                    throw ResolutionError(
                        .circularDependency,
                        message: "circular dependency across threads: " + (state.steps + [registration.step]).map(\.description).joined(separator: " → ")
                            + " is being built by a resolution that waits for this one",
                        path: state.steps + [registration.step])
                }
                done.wait()
                WaitGraph.endWaiting(state.token)
            }
        }
    }

    private func checkCycle(_ registration: Registration, state: ResolutionState) throws(ResolutionError) {
        if let start = state.position(of: registration) {
            let cycle = state.path[start...].map(\.step) + [registration.step]
            throw ResolutionError(
                .circularDependency,
                message: "circular dependency: " + cycle.map(\.description).joined(separator: " → "),
                path: state.steps + [registration.step])
        }
        if state.path.count >= ResolutionState.maxDepth {
            throw ResolutionError(
                .circularDependency,
                message: "resolution is deeper than \(ResolutionState.maxDepth) services; is there a cycle through named variants or arguments?",
                path: state.steps + [registration.step])
        }
        // Checked at every level: under AddressSanitizer or in a debug build, a few levels of
        // frames can already take more than the guard's margin.
        if !state.hasStackRoom {
            throw ResolutionError(
                .circularDependency,
                message: "resolution is too deep for this thread's stack (\(state.path.count) services); is there a cycle through named variants or arguments?",
                path: state.steps + [registration.step])
        }
    }

    /// Runs the factory and the decorators around it, with `registration` on the path.
    private func produce(_ registration: Registration, arguments: Arguments, state: ResolutionState) throws(ResolutionError) -> Any {
        try checkCycle(registration, state: state)
        state.path.append(PathEntry(registration: registration, decorator: -1))
        defer { state.path.removeLast() }
        var instance = try run(registration.make, factoryKey: registration.factoryKey, context: FactoryContext(
            container: self, state: state, arguments: arguments, registration: registration))
        for index in registration.decorators.indices {
            state.path.append(PathEntry(registration: registration, decorator: index))
            defer { state.path.removeLast() }
            instance = try run(registration.decorators[index].make, factoryKey: registration.decorators[index].factoryKey,
                               context: FactoryContext(container: self, state: state, arguments: arguments, inner: instance,
                                                       registration: registration, decorator: index))
        }
        return instance
    }

    /// `produce` for the nested fast path: no decorators, no runtime arguments, and the thread
    /// already building with this container.
    private func produceNested(_ registration: Registration, state: ResolutionState) throws(ResolutionError) -> Any {
        try checkCycle(registration, state: state)
        state.path.append(PathEntry(registration: registration, decorator: -1))
        defer { state.path.removeLast() }
        let context = FactoryContext(container: self, state: state, registration: registration)
        do {
            return try registration.make(context)
        } catch {
            throw factoryError(error, factoryKey: registration.factoryKey, context: context)
        }
    }

    private func run(
        _ make: @Sendable (FactoryContext) throws -> Any, factoryKey: String, context: FactoryContext
    ) throws(ResolutionError) -> Any {
        do {
            return try asCurrent { try make(context) }
        } catch {
            throw factoryError(error, factoryKey: factoryKey, context: context)
        }
    }

    /// What a factory threw, as a ``ResolutionError``: its own resolution errors pass through,
    /// anything else is wrapped with the factory and the path.
    private func factoryError(_ error: any Error, factoryKey: String, context: FactoryContext) -> ResolutionError {
        if let error = error as? ResolutionError { return error }
        let steps = context.state.steps
        let at = steps.last?.location.map { " (\($0))" } ?? ""
        return ResolutionError(
            .factoryFailed(error),
            message: "factory '\(factoryKey)' of service \(context.serviceKey)\(at) threw: \(error)",
            path: steps)
    }

    // MARK: - Resets

    /// Drops every kept instance: the next resolves build anew.
    public func reset() {
        reset { _ in true }
    }

    /// Drops the instances kept by one scope (a built-in one, or a custom scope by name).
    public func reset(scope: Scope) {
        reset { $0.scope == scope }
    }

    /// Drops the kept instances of one service (and its named variants), by key.
    public func reset(service key: String) {
        reset { $0.key == key }
    }

    /// Slots first, then the type cache: a resolve that read an old instance from a slot began
    /// before the generation moved on, so it cannot cache that instance again.
    private func reset(where matches: (Registration) -> Bool) {
        for registration in registrations where matches(registration) {
            if case .kept(_, _, let slot) = registration.keeping { slot.reset() }
        }
        typeCache.write { cache in
            cache.generation += 1
            for id in cache.instances.identifiers {
                if case .target(let target) = targetTable.lookup(id), let registration = target.takeUnretainedValue().unnamed,
                   matches(registration) {
                    cache.instances[id] = nil
                }
            }
        }
    }

    /// Drops the kept instances of the service declared for `T`.
    public func reset<T>(_ type: T.Type) {
        guard let target = target(for: type) else { return }
        reset(service: target.serviceKey)
    }
}
