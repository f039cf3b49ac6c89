/// Every shutdown hook that failed or overran its timeout, thrown by ``Container/shutdown()``
/// or ``ContainerScope/end()`` once all hooks ran.
///
/// ```text
/// 2 shutdown hooks failed:
///   Pool (services.yaml:3:3): timed out after 5.0 seconds
///   Cache (services.yaml:9:3): disk full
/// ```
public struct ShutdownError: Error, Sendable, CustomStringConvertible {
    /// One hook that failed.
    public struct Failure: Sendable, CustomStringConvertible {
        /// The service, `Key` or `Key[name]`.
        public let service: ServiceID
        /// Where the service was declared.
        public let location: SourceLocation
        /// What the hook threw, or ``TimedOut``.
        public let error: any Error

        /// `Pool[name] (services.yaml:3:3): what went wrong`.
        public var description: String {
            "\(service) (\(location)): \(error)"
        }
    }

    /// A hook that ran past its service's `shutdownTimeout:` (or the container's default).
    public struct TimedOut: Error, Sendable, CustomStringConvertible {
        /// The timeout it ran past.
        public let timeout: Duration
        /// `timed out after 30.0 seconds`.
        public var description: String { "timed out after \(timeout)" }
    }

    /// The failures, in the order the hooks ran.
    public let failures: [Failure]

    /// One line per failure under a count.
    public var description: String {
        let count = failures.count == 1 ? "1 shutdown hook failed" : "\(failures.count) shutdown hooks failed"
        return ([count + ":"] + failures.map { "  \($0)" }).joined(separator: "\n")
    }
}
