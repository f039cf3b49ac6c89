/// Resolves its value when the enclosing instance is created.
///
/// ```swift
/// final class NoteEditor {
///     @Injected var store: any NoteWriting
///     @Injected(name: "archive") var archive: NoteStore
///     @Injected(container: testContainer) var clock: Clock
/// }
/// ```
///
/// It resolves from `container`, else from ``Container/current``. Made while a factory builds
/// with that container (the owner is the instance being built, or part of it), it resolves in
/// that factory's resolution: it shares its `graph` instances, its scope and its cycle checks,
/// as `r.resolve` in the factory would. Made elsewhere, it is a top-level resolve.
///
/// A property wrapper cannot throw, so a failure stops the program with the
/// ``ResolutionError``'s message; check at launch with `Container.bootstrap(…, checking:
/// .instantiate)` (or `validate --instantiate` in CI) to meet such failures as thrown errors
/// instead.
@propertyWrapper
public struct Injected<T> {
    /// The resolved value.
    public let wrappedValue: T

    /// Resolves `T`, or its variant `name`, now.
    @inlinable
    public init(name: String? = nil, container: Container? = nil) {
        wrappedValue = Container.resolveForWrapper(T.self, name: name, container: container)
    }
}

extension Injected: Sendable where T: Sendable {}

/// Resolves its value the first time it is read, then keeps it.
///
/// ```swift
/// final class ReportScreen {
///     @LazyInjected var exporter: ReportExporter   // built only if a report is exported
/// }
/// ```
///
/// It resolves from the container that built its owner (its `container:`, else the one current
/// when the owner was made: see ``InjectionSettings/container``), whichever task reads it. It
/// holds that container weakly, so that a kept instance does not keep its container alive: read
/// it while the container is.
///
/// The first read resolves exactly once, however many threads or tasks read it at that moment:
/// the others wait for that one value, or each get its error (a later read tries again). It
/// resolves in the resolution under way on its thread when there is one with that container
/// (a factory reading the property), sharing its `graph` instances and its path, else in one of
/// its own: it does not resume the resolution that built the owner (Swinject's `Lazy` does),
/// which has ended by the time a lazy value is usually wanted, so a `graph` service read lazily
/// then is a new instance. A cycle through lazy reads, on one thread or across threads, is a
/// circular-dependency error, not a deadlock. Once resolved, a read is one atomic load.
@propertyWrapper
public struct LazyInjected<T> {
    @usableFromInline let injection: LazyInjection<T>

    /// Prepares to resolve `T`, or its variant `name`, on first read.
    @inlinable
    public init(name: String? = nil, container: Container? = nil) {
        injection = LazyInjection(name: name, container: container) { container, name, state throws(ResolutionError) in
            try container.resolve(T.self, name: name, in: state)
        }
    }

    /// The value, resolved on first read.
    @inlinable
    public var wrappedValue: T { injection.value }

    /// The name and container it resolves with, settable before the first read:
    /// `$store.name = "archive"`.
    @inlinable
    public var projectedValue: InjectionSettings { injection.settings }
}

/// Resolves its value the first time it is read and holds it weakly: `nil` once nothing else
/// holds it. For services in the `shared` scope, or to break a reference cycle.
///
/// ```swift
/// final class Session {
///     @WeakLazyInjected var delegate: SessionDelegate?
/// }
/// ```
@propertyWrapper
public struct WeakLazyInjected<T> {
    @usableFromInline let injection: LazyInjection<WeakReference>

    /// Prepares to resolve `T`, or its variant `name`, on first read.
    @inlinable
    public init(name: String? = nil, container: Container? = nil) {
        injection = LazyInjection(name: name, container: container) { container, name, state throws(ResolutionError) in
            WeakReference(try container.resolve(T.self, name: name, in: state) as AnyObject)
        }
    }

    /// The value while something else holds it, else `nil`.
    @inlinable
    public var wrappedValue: T? { injection.value.object as? T }

    /// The name and container it resolves with, settable before the first read:
    /// `$delegate.name = "fred"`.
    @inlinable
    public var projectedValue: InjectionSettings { injection.settings }
}

/// A weak reference, for ``WeakLazyInjected``.
@usableFromInline
final class WeakReference: @unchecked Sendable {
    @usableFromInline weak var object: AnyObject?
    @usableFromInline init(_ object: AnyObject) { self.object = object }
}

/// Resolves its value when the enclosing instance is created, or `nil` when no service is
/// declared for `T` (a failing factory still stops the program, as with ``Injected``).
///
/// ```swift
/// final class Checkout {
///     @OptionalInjected var analytics: AnalyticsSink?
/// }
/// ```
@propertyWrapper
public struct OptionalInjected<T> {
    /// The resolved value, or `nil`.
    public let wrappedValue: T?

    /// Resolves `T`, or its variant `name`, now.
    @inlinable
    public init(name: String? = nil, container: Container? = nil) {
        wrappedValue = Container.optionalForWrapper(T.self, name: name, container: container)
    }
}

extension OptionalInjected: Sendable where T: Sendable {}
