#if Hummingbird
public import Hummingbird
public import Wiring

/// A Hummingbird request context that carries the request's Wiring scope, which
/// ``RequestScopeMiddleware`` sets. Conform your own context to it, or use
/// ``BasicWiringRequestContext``.
///
/// ```swift
/// struct AppRequestContext: WiringRequestContext {
///     var coreContext: CoreRequestContextStorage
///     var scope: ContainerScope?
///     init(source: Source) {
///         coreContext = .init(source: source)
///         scope = nil
///     }
/// }
/// ```
public protocol WiringRequestContext: RequestContext {
    /// The request's scope; `nil` until ``RequestScopeMiddleware`` sets it.
    var scope: ContainerScope? { get set }
}

extension WiringRequestContext {
    /// The request's scope.
    ///
    /// - Throws: `HTTPError(.internalServerError)` when the route runs outside
    ///   ``RequestScopeMiddleware``: a wiring mistake of the app, answered as a server error, not
    ///   a crash.
    public func requestScope() throws -> ContainerScope {
        guard let scope else {
            throw HTTPError(.internalServerError, message: "no request scope: the route runs outside RequestScopeMiddleware")
        }
        return scope
    }

    /// Resolves `T` (with `name`, a named variant) in the request's scope, awaiting it if needed.
    ///
    /// - Throws: What ``requestScope()`` throws, or what resolving throws.
    public func resolve<T>(_ type: T.Type = T.self, name: String? = nil) async throws -> T {
        try await requestScope().resolve(type, name: name)
    }
}

/// A request context with a Wiring scope and nothing else: Hummingbird's basic one, plus
/// ``scope``.
public struct BasicWiringRequestContext: WiringRequestContext {
    /// Hummingbird's storage for the request (its logger, parameters, …).
    public var coreContext: CoreRequestContextStorage
    /// The request's scope, which ``RequestScopeMiddleware`` sets.
    public var scope: ContainerScope?

    /// A context for a request Hummingbird's server received, with no scope yet.
    public init(source: Source) {
        coreContext = .init(source: source)
        scope = nil
    }
}
#endif
