#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
import Synchronization

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

        /// Creates options.
        public init(environment: [String: String]? = nil,
                    now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }) {
            self.environment = environment
            self.now = now
        }
    }

    /// The manifest the container was built from.
    public let manifest: Manifest
    /// Remarks from building the container: factories no service uses (info), warnings.
    public let diagnostics: [Diagnostic]

    let targets: [String: ResolutionTarget]
    let registrations: [Registration]
    let now: @Sendable () -> ContinuousClock.Instant
    private let typeCache = Mutex<[ObjectIdentifier: ResolutionTarget?]>([:])

    /// Loads the manifest at `path` and builds a container from it.
    ///
    /// - Throws: ``ManifestError`` with every problem of the manifest or of binding it.
    public convenience init(manifest path: String, registry: FactoryRegistry, options: Options = Options()) throws(ManifestError) {
        let environment = options.environment ?? ProcessInfo.processInfo.environment
        let manifest = try ManifestLoader(environment: environment).load(path)
        try self.init(manifest: manifest, registry: registry, options: options)
    }

    /// Builds a container from a loaded manifest and a registry.
    ///
    /// - Throws: ``ManifestError`` listing, each at its position, every factory key that is not
    ///   registered (with a did-you-mean), every environment variable that is unset with no
    ///   default, and every factory registered twice.
    public init(manifest: Manifest, registry: FactoryRegistry, options: Options = Options()) throws(ManifestError) {
        let environment = options.environment ?? ProcessInfo.processInfo.environment
        var binder = Binder(manifest: manifest, registry: registry, environment: environment)
        let table = binder.bind()
        if binder.diagnostics.containsErrors {
            throw ManifestError(binder.diagnostics.filter { $0.severity != .info })
        }
        self.manifest = manifest
        self.diagnostics = binder.diagnostics
        self.targets = table.targets
        self.registrations = table.registrations
        self.now = options.now
    }

    // MARK: - Resolving

    /// Resolves the service declared for `T` (its type name, or a type it `implements`).
    ///
    /// - Parameters:
    ///   - type: The type to resolve; a service key or `implements` entry names it.
    ///   - name: A named variant; an unknown name is an error listing the defined ones.
    ///   - arguments: Runtime arguments the factory reads with ``FactoryContext/argument(_:as:)``.
    /// - Throws: ``ResolutionError``.
    public func resolve<T>(_ type: T.Type = T.self, name: String? = nil, arguments: any Sendable...) throws(ResolutionError) -> T {
        try resolve(type, name: name, arguments: Arguments(arguments), state: nil)
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
    public func optional<T>(_ type: T.Type = T.self, name: String? = nil) throws(ResolutionError) -> T? {
        try optional(type, name: name, state: nil)
    }

    func optional<T>(_ type: T.Type, name: String?, state: ResolutionState?) throws(ResolutionError) -> T? {
        guard target(for: type) != nil else { return nil }
        return try resolve(type, name: name, arguments: .none, state: state)
    }

    func resolve<T>(_ type: T.Type, name: String?, arguments: Arguments, state: ResolutionState?) throws(ResolutionError) -> T {
        guard let target = target(for: type) else {
            throw unknownService(String(describing: type), state: state)
        }
        let registration = try registration(in: target, name: name, state: state)
        let instance = try instance(of: registration, arguments: arguments, state: state)
        guard let typed = instance as? T else {
            throw ResolutionError(
                .typeMismatch(produced: "\(Swift.type(of: instance))", expected: "\(T.self)"),
                message: "service \(registration.key) (\(registration.location)) produced \(Swift.type(of: instance)), which is not a \(T.self)",
                path: (state?.path ?? []) + [registration.step])
        }
        return typed
    }

    func resolve(key: String, name: String?, arguments: Arguments, state: ResolutionState?) throws(ResolutionError) -> Any {
        guard let target = targets[key] else { throw unknownService(key, state: state) }
        let registration = try registration(in: target, name: name, state: state)
        return try instance(of: registration, arguments: arguments, state: state)
    }

    /// The target a type resolves to: its qualified name, then its plain name. Computed once
    /// per type.
    func target(for type: Any.Type) -> ResolutionTarget? {
        let id = ObjectIdentifier(type)
        if let cached = typeCache.withLock({ $0[id] }) { return cached }
        let found = targets[String(reflecting: type)] ?? targets[String(describing: type)]
        typeCache.withLock { $0[id] = .some(found) }
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
                path: state?.path ?? [])
        }
        guard let registration = target.unnamed else {
            let names = target.named.keys.sorted().joined(separator: ", ")
            throw ResolutionError(
                .unknownName("", service: target.serviceKey),
                message: "'\(target.serviceKey)' resolves only by name (\(names))",
                path: state?.path ?? [])
        }
        return registration
    }

    private func unknownService(_ name: String, state: ResolutionState?) -> ResolutionError {
        let declared = manifest.services.map(\.key)
        let shown = declared.prefix(12).joined(separator: ", ") + (declared.count > 12 ? ", and \(declared.count - 12) more" : "")
        let hint = Suggestion.hint(for: name, in: targets.keys)
        return ResolutionError(
            .unknownService(name),
            message: "no service is declared for '\(name)'\(hint) (declared: \(shown.isEmpty ? "none" : shown))",
            path: state?.path ?? [])
    }

    // MARK: - Scopes

    func instance(of registration: Registration, arguments: Arguments, state: ResolutionState?) throws(ResolutionError) -> Any {
        switch registration.keeping {
        case .kept(let timeToLive, let weakly):
            if let instance = registration.slot.current(now: timeToLive == nil ? nil : now()) { return instance }
            return try buildKept(registration, timeToLive: timeToLive, weakly: weakly,
                                 arguments: arguments, state: state ?? ResolutionState())
        case .graph:
            let state = state ?? ResolutionState()
            let id = ObjectIdentifier(registration)
            if let instance = state.graph[id] { return instance }
            let instance = try produce(registration, arguments: arguments, state: state)
            state.graph[id] = instance
            return instance
        case .unique:
            return try produce(registration, arguments: arguments, state: state ?? ResolutionState())
        }
    }

    private func buildKept(
        _ registration: Registration, timeToLive: Duration?, weakly: Bool, arguments: Arguments, state: ResolutionState
    ) throws(ResolutionError) -> Any {
        try checkCycle(registration, state: state)
        while true {
            switch registration.slot.lookup(token: state.token, now: timeToLive == nil ? nil : now()) {
            case .instance(let instance):
                return instance
            case .build:
                do {
                    let instance = try produce(registration, arguments: arguments, state: state)
                    registration.slot.finish(instance, expires: timeToLive.map { now() + $0 }, weakly: weakly)
                    return instance
                } catch {
                    registration.slot.abandon()
                    throw error
                }
            case .wait(let done, _):
                guard WaitGraph.beginWaiting(state.token, for: registration.slot) else {
                    throw ResolutionError(
                        .circularDependency,
                        message: "circular dependency across threads: " + (state.path + [registration.step]).map(\.description).joined(separator: " → ")
                            + " is being built by a resolution that waits for this one",
                        path: state.path + [registration.step])
                }
                done.wait()
                WaitGraph.endWaiting(state.token)
            }
        }
    }

    private func checkCycle(_ registration: Registration, state: ResolutionState) throws(ResolutionError) {
        let id = ObjectIdentifier(registration)
        if let start = state.active.firstIndex(of: id) {
            let cycle = Array(state.path[start...]) + [registration.step]
            throw ResolutionError(
                .circularDependency,
                message: "circular dependency: " + cycle.map(\.description).joined(separator: " → "),
                path: state.path + [registration.step])
        }
        if state.path.count >= ResolutionState.maxDepth {
            throw ResolutionError(
                .circularDependency,
                message: "resolution is deeper than \(ResolutionState.maxDepth) services; is there a cycle through named variants or arguments?",
                path: state.path + [registration.step])
        }
    }

    /// Runs the factory and the decorators around it, with `registration` on the path.
    private func produce(_ registration: Registration, arguments: Arguments, state: ResolutionState) throws(ResolutionError) -> Any {
        try checkCycle(registration, state: state)
        state.active.append(ObjectIdentifier(registration))
        state.path.append(registration.step)
        defer {
            state.active.removeLast()
            state.path.removeLast()
        }
        var instance = try run(
            registration.make, factoryKey: registration.factoryKey, serviceKey: registration.key,
            context: FactoryContext(container: self, state: state, arguments: arguments, inner: nil,
                                    serviceKey: registration.key, name: registration.name,
                                    args: registration.args, location: registration.location),
            state: state)
        for decorator in registration.decorators {
            state.path.append(ResolutionError.Step(service: decorator.key, name: nil, location: decorator.location))
            defer { state.path.removeLast() }
            instance = try run(
                decorator.make, factoryKey: decorator.factoryKey, serviceKey: decorator.key,
                context: FactoryContext(container: self, state: state, arguments: arguments, inner: instance,
                                        serviceKey: decorator.key, name: nil,
                                        args: decorator.args, location: decorator.location),
                state: state)
        }
        return instance
    }

    private func run(
        _ make: @Sendable (FactoryContext) throws -> Any, factoryKey: String, serviceKey: String,
        context: FactoryContext, state: ResolutionState
    ) throws(ResolutionError) -> Any {
        do {
            return try make(context)
        } catch let error as ResolutionError {
            throw error
        } catch {
            let at = state.path.last?.location.map { " (\($0))" } ?? ""
            throw ResolutionError(
                .factoryFailed(error),
                message: "factory '\(factoryKey)' of service \(serviceKey)\(at) threw: \(error)",
                path: state.path)
        }
    }

    // MARK: - Resets

    /// Drops every kept instance: the next resolves build anew.
    public func reset() {
        for registration in registrations { registration.slot.reset() }
    }

    /// Drops the instances kept by one scope (a built-in one, or a custom scope by name).
    public func reset(scope: Scope) {
        for registration in registrations where registration.scope == scope { registration.slot.reset() }
    }

    /// Drops the kept instances of one service (and its named variants), by key.
    public func reset(service key: String) {
        for registration in registrations where registration.key == key { registration.slot.reset() }
    }

    /// Drops the kept instances of the service declared for `T`.
    public func reset<T>(_ type: T.Type) {
        guard let target = target(for: type) else { return }
        reset(service: target.serviceKey)
    }
}
