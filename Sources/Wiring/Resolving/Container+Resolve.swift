internal import Logging

/// Resolving: by type, name or key, through the type table and the kept-instance cache.
extension Container {
    /// Resolves the service declared for `T` (its type name, or a type it `implements`).
    ///
    /// - Parameters:
    ///   - type: The type to resolve; a service key or `implements` entry names it.
    ///   - name: A named variant; an unknown name is an error listing the defined ones.
    ///   - arguments: Runtime arguments the factory reads with ``FactoryContext/argument(_:as:)``.
    /// - Throws: ``ResolutionError``.
    @inlinable
    public func resolve<T>(_ type: T.Type = T.self, name: String? = nil, arguments: any Sendable...) throws(ResolutionError) -> T {
        var instance = name == nil && arguments.isEmpty
            ? try resolveUnnamed(type)
            : try resolveInstance(type, name: name, arguments: Arguments(arguments), state: nil)
        guard let typed = Self.cast(&instance, to: T.self) else { throw typeMismatch(instance, expected: type, name: name) }
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

    /// The instance for `type` with no name and no runtime arguments, the commonest top-level
    /// resolve: a kept instance already resolved as `type` (the whole of a warm singleton
    /// resolve), else ``build(_:of:)``; the type looked up once for both.
    @usableFromInline
    func resolveUnnamed(_ type: Any.Type) throws(ResolutionError) -> Any {
        let id = ObjectIdentifier(type)
        guard let found = knownUnnamedRegistration(id) else { return try resolveFirst(type) }
        if found._withUnsafeGuaranteedRef({ $0.isCachedByType }), let instance = cachedInstance(id, resolvedAs: type) { return instance }
        return try build(type, of: found)
    }

    /// The first unnamed resolve of `type`: looked up, then as ``build(_:of:)`` resolves it. An
    /// undeclared type, or one declared only with names, takes the general path, which says so.
    @inline(never)
    private func resolveFirst(_ type: Any.Type) throws(ResolutionError) -> Any {
        guard let found = target(for: type)?.unnamedReference else {
            return try resolveInstance(type, name: nil, arguments: .none, state: nil)
        }
        return try build(type, of: found)
    }

    /// `registration`, the unnamed one of `type`, resolved at the top level with no runtime
    /// arguments: a plain `unique` service in one step (see ``buildsInOneStep(_:)``), else the
    /// general path. Out of line, so that a warm singleton resolve keeps a small frame.
    @inline(never)
    private func build(_ type: Any.Type, of registration: Unmanaged<Registration>) throws(ResolutionError) -> Any {
        try registration.borrowing { registration throws(ResolutionError) in
            if buildsInOneStep(registration) { return try resolveInOneStep(registration) }
            return try resolveInstance(type, of: registration, name: nil, arguments: .none, state: nil)
        }
    }

    /// The kept instance already resolved as `type`, if any: the whole of a warm singleton
    /// resolve with `await` (``resolveUnnamed(_:)`` reads it for a synchronous one).
    @usableFromInline
    func keptInstance(_ type: Any.Type) -> Any? {
        let id = ObjectIdentifier(type)
        // Only a kept instance that never expires is cached: other types skip the cache's lock.
        if let registration = knownUnnamedRegistration(id), !registration._withUnsafeGuaranteedRef({ $0.isCachedByType }) {
            return nil
        }
        return cachedInstance(id, resolvedAs: type)
    }

    /// The instance cached for the type `id` (`type`, which the trace names), if any.
    @inline(__always)
    private func cachedInstance(_ id: ObjectIdentifier, resolvedAs type: Any.Type) -> Any? {
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

    func resolveInstance(
        _ type: Any.Type, of registration: Registration, name: String?, arguments: Arguments, state: ResolutionState?
    ) throws(ResolutionError) -> Any {
        if edgeRecorder != nil { recordEdge(to: registration, state: state) }
        // A plain scoped service in one step, as a scoped dependency is built, so that a
        // request runs one path for its service and their dependencies.
        if usesFastDependencyPath, registration.isPlain, case .scoped(let place) = registration.keeping,
           arguments.count == 0, let state, state.scope != nil {
            let built = try BuildingContainer.with(self, state: state) { () throws(ResolutionError) -> Any? in
                try buildScopedDependency(registration, at: place, state: state)
            }
            if let built { return built }
        }
        let id = ObjectIdentifier(type)
        // A kept instance that never expires is cached by the type it is resolved as (not while
        // edges are recorded: a cached resolve would not reach the recorder).
        var cachesInstance = false
        var generation = 0
        if name == nil, registration.isCachedByType, edgeRecorder == nil {
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
        // Not while hooks wait in the resolution: the instance may be one kept only once they ran.
        if cachesInstance, state?.waiting.isEmpty ?? true { cacheByType(built, as: id, of: registration, generation: generation) }
        return built
    }

    /// Caches `built`, the kept instance of `registration`, by the type `id` it was resolved
    /// as, unless a reset moved the cache's generation on since `generation` was read.
    func cacheByType(_ built: Any, as id: ObjectIdentifier, of registration: Registration, generation: Int) {
        typeCache.write { cache in
            guard cache.generation == generation else { return }
            cache.instances[id] = InstanceBox(value: built)
            if registration.readsConfiguration { configurationWatch?.noteCached(id, of: registration) }
        }
    }

    /// A dependency a factory of this container asks for with no name and no runtime arguments:
    /// the most common resolve of all. A unique or graph service with no decorators is built in
    /// one step, with no reference counted but the context's state: the thread is already
    /// building with this container, and the container holds the registration.
    @inline(__always)
    func resolveDependency(_ type: Any.Type, state: ResolutionState) throws(ResolutionError) -> Any {
        guard usesFastDependencyPath, !state.path.isEmpty, let found = knownUnnamedRegistration(ObjectIdentifier(type)) else {
            return try resolveInstance(type, name: nil, arguments: .none, state: state)
        }
        // Borrowed for the build, so that the path, the context and the call count nothing.
        return try found.borrowing { registration throws(ResolutionError) in
            if registration.isPlainUnique { return try produceNested(registration, state: state) }
            if let built = try buildDependency(registration, state: state) { return built }
            return try resolveInstance(type, of: registration, name: nil, arguments: .none, state: state)
        }
    }

    /// The instance of `registration`, a dependency of the registration being built in `state`.
    func dependency(_ registration: Registration, state: ResolutionState) throws(ResolutionError) -> Any {
        if traceLogger == nil, let built = try buildDependency(registration, state: state) { return built }
        return try instance(of: registration, arguments: .none, in: state)
    }

    /// `resolveDependency`'s one step, or `nil` when the registration needs the general path: it
    /// has decorators, the container keeps its instance and has not built it or lets it expire,
    /// or its scope's instance is being built by another resolution.
    func buildDependency(_ registration: Registration, state: ResolutionState) throws(ResolutionError) -> Any? {
        guard registration.isPlain else { return nil }
        switch registration.keeping {
        case .scoped(let place) where usesFastDependencyPath:
            return try buildScopedDependency(registration, at: place, state: state)
        case .kept(nil, false, let slot, let place):
            // A built singleton, read from its slot without the general path's frames: a
            // request's store.
            return current(in: slot, at: place, now: nil)
        case .unique:
            return try produceNested(registration, state: state)
        case .graph:
            let key = ObjectIdentifier(registration)
            if let instance = state.graph[key] { return instance }
            let instance = try produceNested(registration, state: state)
            state.graph[key] = instance
            return instance
        case .kept, .scoped:
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

    /// The type of what `instance` holds, read in place (the last of an `Any`'s four words):
    /// `type(of:)` asks the runtime.
    static func storedType(of instance: Any) -> Any.Type {
        withUnsafePointer(to: instance) { storedType(in: $0) }
    }

    /// The type of what `instance` points at, read in place without copying it.
    @inline(__always)
    static func storedType(in instance: UnsafePointer<Any>) -> Any.Type {
        guard MemoryLayout<Any>.size == 4 * MemoryLayout<Int>.size else { return type(of: instance.pointee) }
        return UnsafeRawPointer(instance).load(fromByteOffset: 3 * MemoryLayout<Int>.size, as: Any.Type.self)
    }

    /// The class instance `instance` holds, moved out as `T`, its stored type, and `instance`
    /// left empty. A pointer parameter rather than `withUnsafeMutablePointer`, whose closure
    /// unspecialized code (a parameter pack's expansion) calls rather than inlines.
    @inline(__always)
    static func move<T>(_ instance: UnsafeMutablePointer<Any>, as type: T.Type) -> T {
        let value = UnsafeMutableRawPointer(instance).assumingMemoryBound(to: T.self).move()
        instance.initialize(to: ())
        return value
    }

    /// The class instance `instance` holds, read in place: `instance` is of a class type. A
    /// cast to `AnyObject` would go through the runtime.
    static func object(in instance: Any) -> AnyObject {
        guard MemoryLayout<Any>.size == 4 * MemoryLayout<Int>.size else { return instance as AnyObject }
        return withUnsafePointer(to: instance) { UnsafeRawPointer($0).load(as: AnyObject.self) }
    }

    /// The error for an instance that is not of the type asked for.
    @usableFromInline
    func typeMismatch(_ instance: Any, expected: Any.Type, name: String?, steps: [ResolutionError.Step] = []) -> ResolutionError {
        let registration = target(for: expected).flatMap { target in name.map { target.named[$0] } ?? target.unnamed }
        let service = registration.map { "service \($0.key) (\($0.location))" } ?? "service"
        return ResolutionError(
            .typeMismatch(produced: "\(Swift.type(of: instance))", expected: "\(expected)"),
            message: "\(service) produced \(Swift.type(of: instance)), which is not a \(expected)",
            path: steps + (registration.map { [$0.step] } ?? []))
    }

    /// Resolves with a trace line: service, scope, whether the instance was kept or built, time.
    private func traced(_ registration: Registration, arguments: Arguments, state: ResolutionState?, logger: Logger) throws(ResolutionError) -> Any {
        var kept = false
        if case .kept(let timeToLive, _, let slot, let place) = registration.keeping {
            kept = current(in: slot, at: place, now: Expiry.now(now, expiring: timeToLive)) != nil
        }
        let start = ContinuousClock.now
        let instance = try self.instance(of: registration, arguments: arguments, state: state)
        let elapsed = ContinuousClock.now - start
        let name = registration.name.map { "[\($0)]" } ?? ""
        logger.trace("resolve \(registration.key)\(name) (\(registration.scope)): \(kept ? "kept" : "built") in \(elapsed)")
        return instance
    }

    func resolve(key: String, name: String?, arguments: Arguments, state: ResolutionState?) throws(ResolutionError) -> Any {
        guard let target = target(key: key) else { throw unknownService(key, state: state) }
        let registration = try registration(in: target, name: name, asked: key, state: state)
        if edgeRecorder != nil { recordEdge(to: registration, state: state) }
        return try instance(of: registration, arguments: arguments, state: state)
    }

    /// The registration `type` (and `name`) resolves to, not counted: the container holds every
    /// registration. Reads the target without counting it either.
    func registration(for type: Any.Type, name: String?, state: ResolutionState?) throws(ResolutionError) -> Unmanaged<Registration> {
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
        return Unmanaged.passUnretained(try registration(in: target, name: name, asked: String(describing: type), state: state))
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
        let found = target(key: String(reflecting: type)) ?? target(key: String(describing: type))
        targetTable.insert(id, found)
        return found
    }

    /// The registration `name` (or no name) reaches in `target`, which a resolve of `asked` (a
    /// key or a type's name, made only for an error's message) found.
    func registration(
        in target: ResolutionTarget, name: String?, asked: @autoclosure () -> String? = nil, state: ResolutionState?
    ) throws(ResolutionError) -> Registration {
        if let name {
            if let variant = target.named[name] { return variant }
            throw unknownName(name, in: target, asked: asked(), state: state)
        }
        guard let registration = target.unnamed else {
            let names = target.sortedNames.joined(separator: ", ")
            throw ResolutionError(
                .unknownName("", service: target.serviceKey),
                message: "'\(target.serviceKey)' resolves only by name (\(names))",
                path: state?.steps ?? [])
        }
        return registration
    }

    /// The error of a name `target` does not list. The names of one service are its variants;
    /// a type that several services implement under names lists each with its service.
    @inline(never)
    private func unknownName(_ name: String, in target: ResolutionTarget, asked: String?, state: ResolutionState?) -> ResolutionError {
        let defined = target.sortedNames
        let hint = Suggestion.hint(for: name, in: defined)
        guard target.named.values.contains(where: { $0.key != target.serviceKey }) else {
            let list = defined.isEmpty ? "it has no named variants" : "its names: " + defined.joined(separator: ", ")
            return ResolutionError(
                .unknownName(name, service: target.serviceKey),
                message: "service \(target.serviceKey) has no variant named '\(name)'\(hint) (\(list))",
                path: state?.steps ?? [])
        }
        let shown = asked ?? target.serviceKey
        let listed = target.named.sorted { $0.key < $1.key }.map { "\($0.key) (\($0.value.key))" }.joined(separator: ", ")
        return ResolutionError(
            .unknownName(name, service: shown),
            message: "no service is listed as \(shown) named '\(name)'\(hint) (its names: \(listed))",
            path: state?.steps ?? [])
    }

    func unknownService(_ name: String, state: ResolutionState?) -> ResolutionError {
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
}
