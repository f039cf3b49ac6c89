/// A service that could not be resolved, with the path that led to it.
///
/// Its description names what went wrong and where each service on the path was declared:
///
/// ```text
/// circular dependency: App (services.yaml:3:3) → UserStore (services.yaml:8:3) → App (services.yaml:3:3)
/// ```
///
/// A user's mistake never stops the process: every failure is thrown as one of these.
public struct ResolutionError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable {
        /// No service is declared for the type or key.
        case unknownService(String)
        /// The service has no variant with this name; with an empty name, the type (named)
        /// is one that services list only under names, resolved without one.
        case unknownName(String, service: String)
        /// The factory produced an instance of another type than the one asked for.
        case typeMismatch(produced: String, expected: String)
        /// A runtime argument was missing or of another type.
        case argument(String)
        /// A static argument (`args:`) was missing or of another kind.
        case staticArgument(ManifestError)
        /// The factory threw.
        case factoryFailed(any Error)
        /// The service depends on itself through the path.
        case circularDependency
        /// Asked for the decorated instance outside a decorator.
        case notADecorator
        /// A synchronous resolve of an async service (named) that is not built yet.
        case awaitRequired(String)
        /// A `scoped` service (named) resolved without a scope, or by an instance the
        /// container keeps.
        case scopeRequired(String)
        /// The container is shut down, or the scope has ended.
        case shutDown
        /// A scope was given an instance of a service (named) that it cannot take: one that is
        /// not `scoped`, or whose instance the scope already holds.
        case seedRefused(String)
        /// A service (named) declared `seeded: true` without a factory was resolved in a scope
        /// that was not given its instance.
        case notSeeded(String)
    }

    /// One service on the resolution path.
    public struct Step: Sendable, CustomStringConvertible {
        /// The service, `Key` or `Key[name]`.
        public let service: ServiceID
        /// Where the service was declared.
        public let location: SourceLocation?

        /// `Key (file:line:col)` or `Key[name] (file:line:col)`.
        public var description: String {
            location.map { "\(service) (\($0))" } ?? service.description
        }
    }

    /// What went wrong.
    public var kind: Kind { storage.kind }
    /// The services being resolved, outermost first; the last is the one that failed.
    public var path: [Step] { storage.path }
    /// The message, without the path.
    public var message: String { storage.message }

    /// The error's parts, behind one reference: every function on the resolve path throws this
    /// type, and a typed error is returned in a buffer its caller sets aside in its frame. A
    /// word there instead of 64 bytes keeps the frames a request's resolves stack up small: a
    /// request as the notes server serves one touches 479 cache lines with cold caches instead
    /// of 514 (`WiringBenchmarks --profile-requests N served cold` under cachegrind;
    /// Benchmarks/README.md).
    private final class Storage: Sendable {
        let kind: Kind
        let path: [Step]
        let message: String

        init(kind: Kind, path: [Step], message: String) {
            self.kind = kind
            self.path = path
            self.message = message
        }
    }

    private let storage: Storage

    package init(_ kind: Kind, message: String, path: [Step]) {
        storage = Storage(kind: kind, path: path, message: message)
    }

    /// The message, then the path when it has more than one step.
    public var description: String {
        if case .circularDependency = kind { return message }
        guard path.count > 1 else { return message }
        return message + "\n  resolving " + path.map(\.description).joined(separator: " → ")
    }
}
