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
        /// The service has no variant with this name.
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
    }

    /// One service on the resolution path.
    public struct Step: Sendable, CustomStringConvertible {
        /// The service key.
        public let service: String
        /// The named variant, if any.
        public let name: String?
        /// Where the service was declared.
        public let location: SourceLocation?

        /// `Key (file:line:col)` or `Key[name] (file:line:col)`.
        public var description: String {
            let shown = name.map { "\(service)[\($0)]" } ?? service
            return location.map { "\(shown) (\($0))" } ?? shown
        }
    }

    /// What went wrong.
    public let kind: Kind
    /// The services being resolved, outermost first; the last is the one that failed.
    public let path: [Step]
    /// The message, without the path.
    public let message: String

    package init(_ kind: Kind, message: String, path: [Step]) {
        self.kind = kind
        self.message = message
        self.path = path
    }

    /// The message, then the path when it has more than one step.
    public var description: String {
        if case .circularDependency = kind { return message }
        guard path.count > 1 else { return message }
        return message + "\n  resolving " + path.map(\.description).joined(separator: " → ")
    }
}
