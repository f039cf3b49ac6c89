
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
/// It resolves from `container`, else from ``Container/current``. A property wrapper cannot
/// throw, so a failure stops the program with the ``ResolutionError``'s message; check at
/// launch with `Container.bootstrap(…, checking: .instantiate)` (or `validate --instantiate`
/// in CI) to meet such failures as thrown errors instead.
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

/// What a lazy wrapper resolves from, settable until its first read: the projected value of
/// ``LazyInjected`` and ``WeakLazyInjected``.
///
/// ```swift
/// final class Report {
///     @LazyInjected var store: NoteStore
///     init(archived: Bool) { if archived { $store.name = "archive" } }
/// }
/// ```
///
/// Setting `name` or `container` after the first read would change nothing, since the value is
/// kept: it stops the program with a message saying so, as a failed injection does.
public final class InjectionSettings: @unchecked Sendable {
    private struct State {
        var name: String?
        var container: Container?
        var isResolved = false
    }

    private let state: Locked<State>

    @usableFromInline
    init(name: String?, container: Container?) {
        state = Locked(State(name: name, container: container))
    }

    /// The named variant to resolve.
    public var name: String? {
        get { state.withLock { $0.name } }
        set { change("name") { $0.name = newValue } }
    }

    /// The container to resolve from. Unless set, the container current when the wrapper was
    /// made (the one building its owner, else the task's, else the shared one), so that a read
    /// long after, from another task, resolves where the owner was built; `nil` when there was
    /// none then, and the first read resolves from ``Container/current``.
    public var container: Container? {
        get { state.withLock { $0.container } }
        set { change("container") { $0.container = newValue } }
    }

    /// Whether the wrapper has resolved its value.
    public var isResolved: Bool { state.withLock { $0.isResolved } }

    private func change(_ setting: String, _ update: (inout State) -> Void) {
        let refused = state.withLock { state -> Bool in
            guard !state.isResolved else { return true }
            update(&state)
            return false
        }
        if refused {
            preconditionFailure("Wiring: '\(setting)' of a lazily injected property was set after its first read; set it before the property is read (in init)")
        }
    }

    /// The settings to resolve with; from now on they are fixed.
    func fix() -> (name: String?, container: Container?) {
        state.withLock { state in
            state.isResolved = true
            return (state.name, state.container)
        }
    }
}

/// Holds a value resolved on first use, for the lazy wrappers; thread-safe.
@usableFromInline
final class LazyInjection<T>: @unchecked Sendable {
    /// The value, boxed to cross the lock (the wrapper hands it to whoever reads it).
    private struct Box: @unchecked Sendable { let value: T }
    private let state = Locked<Box?>(nil)
    @usableFromInline let settings: InjectionSettings
    private let resolve: (_ name: String?, _ container: Container?) -> T

    @usableFromInline
    init(name: String?, container: Container?, _ resolve: @escaping (_ name: String?, _ container: Container?) -> T) {
        settings = InjectionSettings(name: name, container: container ?? Container.current)
        self.resolve = resolve
    }

    @usableFromInline
    var value: T {
        // Resolving runs outside the lock: a factory may use other wrappers.
        if let box = state.withLock({ $0 }) { return box.value }
        let (name, container) = settings.fix()
        let resolved = Box(value: resolve(name, container))
        return state.withLock { current in
            if let current { return current.value }
            current = resolved
            return resolved.value
        }
    }
}

/// Resolves its value the first time it is read, then keeps it.
///
/// ```swift
/// final class ReportScreen {
///     @LazyInjected var exporter: ReportExporter   // built only if a report is exported
/// }
/// ```
///
/// It resolves from the container that built its owner (its `container:`, else the one current
/// when the owner was made: see ``InjectionSettings/container``), whichever task reads it. A
/// first read is a resolution of its own: it does not join the `graph` of the resolution that
/// built the owner (Swinject's `Lazy` resumes it), since that resolution has ended by the time a
/// lazy value is wanted and its `graph` instances are no longer held; a `graph` service read
/// lazily is a new instance, not the one the owner's factory got.
@propertyWrapper
public struct LazyInjected<T> {
    @usableFromInline let injection: LazyInjection<T>

    /// Prepares to resolve `T`, or its variant `name`, on first read.
    @inlinable
    public init(name: String? = nil, container: Container? = nil) {
        injection = LazyInjection(name: name, container: container) { name, container in
            Container.resolveForWrapper(T.self, name: name, container: container)
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
        injection = LazyInjection(name: name, container: container) { name, container in
            WeakReference(Container.resolveForWrapper(T.self, name: name, container: container) as AnyObject)
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
