
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
/// Registering a key twice is an error, reported with both places when a ``Container`` is
/// built, unless the second registration says `overriding: true`.
public final class FactoryRegistry: Sendable {
    /// A registered factory: its closure and where the code registered it.
    package struct Entry: Sendable {
        package let make: @Sendable (FactoryContext) throws -> Any
        package let location: SourceLocation
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var order: [String] = []
        var duplicates: [(key: String, first: SourceLocation, again: SourceLocation)] = []
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
    ///   - make: Builds an instance; it reads its arguments and dependencies from the context.
    public func factory<T>(
        _ key: String, overriding: Bool = false,
        fileID: String = #fileID, line: Int = #line,
        _ make: @escaping @Sendable (FactoryContext) throws -> T
    ) {
        let entry = Entry(make: { try make($0) }, location: SourceLocation(file: fileID, line: line, column: 1))
        state.withLock { state in
            if let first = state.entries[key] {
                if !overriding { state.duplicates.append((key, first.location, entry.location)) }
            } else {
                state.order.append(key)
            }
            state.entries[key] = entry
        }
    }

    /// The registered keys, in registration order.
    public var keys: [String] { state.withLock { $0.order } }

    /// Whether `key` is registered.
    public func contains(_ key: String) -> Bool { state.withLock { $0.entries[key] != nil } }

    /// The factory registered under `key`.
    package func entry(_ key: String) -> Entry? { state.withLock { $0.entries[key] } }

    /// Every registered key in registration order, with its factory, read under one lock.
    package var snapshot: (keys: [String], entries: [String: Entry]) {
        state.withLock { ($0.order, $0.entries) }
    }

    /// Registrations of a key that was already registered, without `overriding: true`.
    package var duplicateDiagnostics: [Diagnostic] {
        state.withLock { state in
            state.duplicates.map {
                .error("factory '\($0.key)' is registered twice; pass overriding: true to replace it on purpose",
                       at: $0.again, notes: [Diagnostic.Note("first registered here", at: $0.first)])
            }
        }
    }
}
