/// Reading the services an argument refers to: `store: !service NoteStore`,
/// `archive: !service { service: NoteStore, name: archive }`, a list of references, or
/// `checks: !tagged health-check`.
///
/// ```swift
/// registry.factory("app") { r in
///     App(store: try r.arg("store", as: NoteStore.self),            // resolved now, in this resolution
///         checks: try r.arg("checks", as: [any HealthCheck].self))  // every tagged service, in order
/// }
/// registry.factory("sql-app") { r in
///     SQLApp(store: try await r.resolve(arg: "store", as: SQLStore.self))   // awaited
/// }
/// ```
///
/// A referenced service is resolved within the current resolution, exactly as `r.resolve`
/// would: same scopes, `graph` sharing, cycle detection, decorators, path in errors.
extension FactoryContext {
    /// The service (or list of services) the argument `key` refers to, resolved now.
    ///
    /// A type the manifest can hold as a value (`String`, `Int`, `Duration`, …) is read as a
    /// value by the other `arg(_:as:)`; any other type is read as a reference.
    /// - Throws: ``ResolutionError`` when the argument is missing, is not a reference, or its
    ///   service cannot be resolved or is not a `T`.
    @inlinable
    public func arg<T>(_ key: String, as type: T.Type = T.self) throws(ResolutionError) -> T {
        if var instance = try referencedInstance(key) {
            if let typed = Container.cast(&instance, to: T.self) { return typed }
            return try referencedArgument(key, as: type, resolved: instance)
        }
        return try referencedArgument(key, as: type, resolved: nil)
    }

    /// `arg(_:as:)` for what its fast path does not take: lists, tags, errors. `resolved` is
    /// what the fast path built, when its type was not `T`: not resolved a second time (a
    /// `unique` factory would run twice before the error).
    @usableFromInline
    func referencedArgument<T>(_ key: String, as type: T.Type, resolved: Any?) throws(ResolutionError) -> T {
        try referencedInstance(of: try referenceArgument(key), key: key, as: type, resolved: resolved)
    }

    /// The service (or list of services) `value`, the argument at `key`, refers to, resolved
    /// now, or `resolved`, when the caller already resolved its single reference.
    func referencedInstance<T>(of value: ManifestValue, key: String, as type: T.Type, resolved: Any? = nil) throws(ResolutionError) -> T {
        switch try references(in: value, key: key) {
        case .one(let reference):
            if let resolved { return try typed(resolved, as: type, key: key, reference: reference) }
            return try typed(try resolve(key: reference.service, name: reference.name), as: type, key: key, reference: reference)
        case .many(let references):
            var instances: [Any] = []
            for reference in references {
                instances.append(try resolve(key: reference.service, name: reference.name))
            }
            return try typedList(instances, as: type, key: key, value: value)
        }
    }

    /// The service (or list of services) the argument `key` refers to, awaited when a factory
    /// on the way is async.
    /// - Throws: ``ResolutionError``, or `CancellationError`.
    @inlinable
    public func resolve<T>(arg key: String, as type: T.Type = T.self) async throws -> T {
        // Each optional instance bound once, not copied: an `Any?` copied or destroyed in
        // place goes through its type's value witnesses (about 250 instructions a read).
        if var instance = try referencedInstanceWithoutAwaiting(key) {
            if let typed = Container.cast(&instance, to: T.self) { return typed }
            return try await referencedArgument(key, as: type, resolved: instance)
        }
        let instance = try await referencedInstanceAsync(key)
        if var instance, let typed = Container.cast(&instance, to: T.self) { return typed }
        return try await referencedArgument(key, as: type, resolved: instance)
    }

    /// The instance a single `!service` argument refers to, when getting it needs no `await`:
    /// it is built and kept, or its service is synchronous. `nil` when `key` is not such a
    /// reference, or its service is async and not built: ``referencedInstanceAsync(_:)`` then
    /// awaits it. Two async calls fewer per argument on the common path, each a frame the task
    /// allocates and a suspension point.
    @usableFromInline
    func referencedInstanceWithoutAwaiting(_ key: String) throws(ResolutionError) -> Any? {
        guard decorator < 0 else { return nil }
        // Borrowed, as `referencedInstance` borrows: the container holds both.
        return try owner.borrowing { container throws(ResolutionError) -> Any? in
            guard let target = registration.referencedRegistration(key, in: container) else { return nil }
            return try target.borrowing { target throws(ResolutionError) -> Any? in
                try container.dependencyWithoutAwaiting(target, from: state)
            }
        }
    }

    /// The instance a single `!service` argument refers to, awaited; `nil` when `key` is not
    /// one. The registration comes from the table looked up once per registration.
    ///
    /// `resolve(arg:as:)` is inlinable around this, as `arg(_:as:)` is, so that the app
    /// specializes it for `T`: unspecialized, each read would look up `Optional<T>`'s metadata
    /// at run time, about 500 instructions.
    @usableFromInline
    func referencedInstanceAsync(_ key: String) async throws -> Any? {
        guard decorator < 0, let target = registration.referencedRegistration(key, in: container) else { return nil }
        try container.checkOpen(kept: state)
        return try await container.dependencyAsync(target.takeUnretainedValue(), arguments: .none, from: state)
    }

    /// `resolve(arg:as:)` for what its fast path does not take: lists, tags, errors. `resolved`
    /// is what the fast path built, when its type was not `T`.
    @usableFromInline
    func referencedArgument<T>(_ key: String, as type: T.Type, resolved: Any?) async throws -> T {
        let value = try referenceArgument(key)
        switch try references(in: value, key: key) {
        case .one(let reference):
            if let resolved { return try typed(resolved, as: type, key: key, reference: reference) }
            return try typed(try await resolve(key: reference.service, name: reference.name), as: type, key: key, reference: reference)
        case .many(let references):
            var instances: [Any] = []
            for reference in references {
                instances.append(try await resolve(key: reference.service, name: reference.name))
            }
            return try typedList(instances, as: type, key: key, value: value)
        }
    }

    // MARK: - Reading references

    /// The instance the top-level argument `key` refers to with `!service`, built as a
    /// dependency resolved in code is; `nil` when it makes no such reference.
    @usableFromInline
    func referencedInstance(_ key: String) throws(ResolutionError) -> Any? {
        guard decorator < 0 else { return nil }
        // Borrowed, as `r.resolve`'s fast path borrows: the container holds both.
        return try owner.borrowing { container throws(ResolutionError) -> Any? in
            guard let target = registration.referencedRegistration(key, in: container) else { return nil }
            return try target.borrowing { target throws(ResolutionError) -> Any in
                // Called directly in the common case: through `continuing`'s closure, each
                // `!service` argument of a served request cost a retain and a release more.
                if state.isBuildingHere { return try container.dependency(target, state: state) }
                return try container.continuing(state) { state throws(ResolutionError) in try container.dependency(target, state: state) }
            }
        }
    }

    enum References {
        case one(ServiceReference)
        case many([ServiceReference])
    }

    private func referenceArgument(_ key: String) throws(ResolutionError) -> ManifestValue {
        guard let value = args[key] else { throw missingArgument(key) }
        return value
    }

    /// The references a value makes: one, a list of them, or a tag's services in manifest order.
    func references(in value: ManifestValue, key: String) throws(ResolutionError) -> References {
        switch value.kind {
        case .service(let reference):
            return .one(reference)
        case .tagged(let tag):
            return .many(container.tagged(tag).map { ServiceReference(service: $0.key, name: $0.name, at: value.location) })
        case .list(let values):
            var references: [ServiceReference] = []
            for element in values {
                guard case .service(let reference) = element.kind else {
                    throw error(.staticArgument(ManifestError("not a reference", at: element.location)),
                                "\(element.location): argument '\(key)' of service \(serviceKey) is a list with \(element.kindDescription); a list of services has a !service reference in each place")
                }
                references.append(reference)
            }
            return .many(references)
        default:
            throw error(.staticArgument(ManifestError("not a reference", at: value.location)),
                        "\(value.location): argument '\(key)' of service \(serviceKey) is \(value.kindDescription), not a !service reference; write it as !service Key, or read it as a value type")
        }
    }

    func typed<T>(_ instance: Any, as type: T.Type, key: String, reference: ServiceReference) throws(ResolutionError) -> T {
        var instance = instance
        if let typed = Container.cast(&instance, to: T.self) { return typed }
        throw error(.typeMismatch(produced: "\(Swift.type(of: instance))", expected: "\(T.self)"),
                    "argument '\(key)' of service \(serviceKey) refers to \(reference) (\(reference.location)), which produced \(Swift.type(of: instance)), not a \(T.self)")
    }

    func typedList<T>(_ instances: [Any], as type: T.Type, key: String, value: ManifestValue) throws(ResolutionError) -> T {
        if let list = T.self as? any InstanceList.Type {
            if let typed = list.make(from: instances) as? T { return typed }
            if let index = list.firstMismatch(in: instances) {
                let produced = "\(Swift.type(of: instances[index]))"
                throw error(.typeMismatch(produced: produced, expected: "\(list.elementType)"),
                            "argument '\(key)' of service \(serviceKey) is a list of \(list.elementType), but \(element(index, of: value)) produced \(produced), which is not a \(list.elementType)")
            }
        }
        let produced = instances.map { "\(Swift.type(of: $0))" }.joined(separator: ", ")
        throw error(.typeMismatch(produced: "[\(produced)]", expected: "\(T.self)"),
                    "argument '\(key)' of service \(serviceKey) refers to services that produced [\(produced)], which is not a \(T.self)")
    }

    /// The service in place `index` of a list of references, with where it is declared: for
    /// `!tagged`, the tagged service's declaration; for a list, the reference.
    private func element(_ index: Int, of value: ManifestValue) -> String {
        switch value.kind {
        case .tagged(let tag):
            let tagged = container.tagged(tag)
            return index < tagged.count ? "service \(tagged[index].step), tagged \(tag)," : "a service tagged \(tag)"
        case .list(let values):
            if index < values.count, case .service(let reference) = values[index].kind {
                return "\(reference) (\(reference.location))"
            }
            return "a service in the list"
        default:
            return "the service"
        }
    }

    /// The error for a reference read as a plain value.
    func referenceReadAsValue(_ key: String, _ value: ManifestValue) -> ResolutionError {
        error(.staticArgument(ManifestError("a reference", at: value.location)),
              "\(value.location): argument '\(key)' of service \(serviceKey) is \(value.kindDescription); read it as the service's type: r.arg(\"\(key)\", as: TheService.self)")
    }
}

/// A list of instances made from resolved services: `[any HealthCheck]`, `[NoteStore]`.
protocol InstanceList {
    /// The list, if every instance is an element.
    static func make(from instances: [Any]) -> Self?
    /// The place of the first instance that is not an element.
    static func firstMismatch(in instances: [Any]) -> Int?
    /// The type of the elements.
    static var elementType: Any.Type { get }
}

extension Array: InstanceList {
    static func firstMismatch(in instances: [Any]) -> Int? {
        instances.firstIndex { !($0 is Element) }
    }

    static var elementType: Any.Type { Element.self }

    static func make(from instances: [Any]) -> [Element]? {
        var list: [Element] = []
        list.reserveCapacity(instances.count)
        for instance in instances {
            guard let element = instance as? Element else { return nil }
            list.append(element)
        }
        return list
    }
}
