/// A problem a refresh or a reload met, as ``RefreshEvent``, ``ReloadEvent`` and the
/// ``ContainerSnapshot`` carry it: what failed, where, and the type of the error the app's code
/// threw, never that error's text.
///
/// An app's error may quote what it was given (`could not connect to
/// postgres://app:S3CRET@db`), and the snapshot is served over HTTP: so the events keep the
/// error's type name only, and a ``message`` only where the library wrote it (its messages never
/// show a value read from the environment, a configuration source or a `!secret`). The whole
/// error goes to the container's logger (see <doc:Observing>).
///
/// ```json
/// { "errorType" : "PostgresError", "kind" : "rebuildFailed", "location" : "services.yaml:3:3", "service" : "Pool" }
/// ```
public struct ReportedFailure: Sendable, Codable, Hashable, CustomStringConvertible {
    /// What failed.
    public enum Kind: String, Sendable, Codable, Hashable {
        /// A refreshed value the service's arguments could not use: it keeps its earlier values.
        case valueRejected
        /// A shutdown hook threw or ran past its timeout: of an instance a refresh dropped.
        case shutdownHookFailed
        /// An eager service whose instance a refresh dropped could not be built again.
        case rebuildFailed
        /// The edited manifest has an error: the reload put nothing in force.
        case manifestError
        /// The container built from the edited manifest did not start.
        case startFailed
    }

    /// What failed.
    public let kind: Kind
    /// The service (`Key` or `Key[name]`), when one failed.
    public let service: String?
    /// The type name of the error the app's code threw (`PostgresError`), when one did.
    public let errorType: String?
    /// The library's own message, when it wrote one.
    public let message: String?
    /// Where in the manifest, relative to the root manifest's folder (`services.yaml:3:3`).
    public let location: String?

    /// `rebuildFailed Pool (services.yaml:3:3): PostgresError`.
    public var description: String {
        var text = kind.rawValue
        if let service { text += " \(service)" }
        if let location { text += " (\(location))" }
        let detail = [errorType, message].compactMap(\.self).joined(separator: ": ")
        return detail.isEmpty ? text : "\(text): \(detail)"
    }

    init(_ kind: Kind, service: String? = nil, errorType: String? = nil, message: String? = nil, location: String? = nil) {
        (self.kind, self.service, self.errorType, self.message, self.location) = (kind, service, errorType, message, location)
    }

    /// `error`, thrown while doing what `kind` names to `service` (declared at `location`),
    /// without its text: a ``ResolutionError`` gives the type of what a factory threw (or its
    /// own message, which the library wrote) and, without `service`, the service that failed;
    /// anything else, its type name.
    init(_ kind: Kind, error: any Error, service: String? = nil, at location: SourceLocation? = nil, root: ManifestRoot) {
        switch error {
        case let error as ResolutionError:
            let step = error.path.last
            let failing = service ?? step?.service.description
            let location = (service == nil ? step?.location : location).map(root.relative)
            if case .factoryFailed(let underlying) = error.kind {
                self.init(kind, service: failing, errorType: Self.typeName(of: underlying), location: location)
            } else {
                self.init(kind, service: failing, errorType: "ResolutionError", message: Self.summary(of: error.kind), location: location)
            }
        default:
            self.init(kind, service: service, errorType: Self.typeName(of: error), location: location.map(root.relative))
        }
    }

    /// A shutdown hook's failure: its service and where it is declared; the library's message
    /// for a timeout, the type name of what the hook threw otherwise.
    init(_ failure: ShutdownError.Failure, root: ManifestRoot) {
        let location = root.relative(failure.location)
        let service = failure.service.description
        if let timedOut = failure.error as? ShutdownError.TimedOut {
            self.init(.shutdownHookFailed, service: service, message: timedOut.description, location: location)
        } else {
            self.init(.shutdownHookFailed, service: service, errorType: Self.typeName(of: failure.error), location: location)
        }
    }

    /// What went wrong, in the library's words only: a resolution error's message may quote
    /// what a type's `init(from:)` said, and names files by their full path.
    static func summary(of kind: ResolutionError.Kind) -> String {
        switch kind {
        case .unknownService(let name): "no service is declared for '\(name)'"
        case .unknownName("", let service): "'\(service)' resolves only by name"
        // `service` is a service's key or a type that several services list under names.
        case .unknownName(let name, let service): "nothing is named '\(name)' for '\(service)'"
        case .typeMismatch(let produced, let expected): "the factory built a \(produced), not a \(expected)"
        case .argument: "a runtime argument is missing or of another type"
        case .staticArgument: "its arguments cannot be read"
        case .factoryFailed(let error): "its factory threw \(typeName(of: error))"
        case .circularDependency: "circular dependency"
        case .notADecorator: "asked for the decorated instance outside a decorator"
        case .awaitRequired: "an async service resolved without await"
        case .scopeRequired: "a scoped service resolved without a scope"
        case .shutDown: "the container is shut down"
        case .seedRefused: "the scope cannot take this instance"
        case .notSeeded: "a seeded service resolved in a scope not given its instance"
        }
    }

    /// The error's type as Swift spells it, without its module.
    static func typeName(of error: any Error) -> String {
        String(describing: type(of: error))
    }
}

/// The folder of a container's root manifest: what the positions a snapshot and its events
/// show are relative to, so that they do not show where the app was built or deployed.
struct ManifestRoot: Sendable {
    /// The folder, ending with `/`; empty when the manifest has no file.
    let folder: String

    /// The root of the manifest whose first file is `path`.
    init(manifest path: String?) {
        guard let path, let slash = path.lastIndex(of: "/") else {
            folder = ""
            return
        }
        folder = String(path[...slash])
    }

    /// `file:line:col`, the file relative to the root's folder when it is inside it (an
    /// import from elsewhere keeps its name only).
    func relative(_ location: SourceLocation) -> String {
        let file = location.file
        let shown: Substring = if !folder.isEmpty, file.hasPrefix(folder) {
            file.dropFirst(folder.count)
        } else {
            file.split(separator: "/").last ?? Substring(file)
        }
        return "\(shown):\(location.line):\(location.column)"
    }
}
