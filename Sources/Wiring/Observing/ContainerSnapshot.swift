#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// What a container is now, for a person or a tool to read: the contexts applied and why,
/// each service with its scope and factory, whether an instance is kept, the configuration
/// keys and environment variables the manifest reads (never their values), and the last
/// refresh and reload. ``Container/snapshot()`` takes one; the server products can serve it as
/// JSON.
///
/// It holds no text an app wrote: a failure of a refresh or a reload is a ``ReportedFailure``
/// (its kind, service, error type and position), and positions are relative to the root
/// manifest's folder, so that it shows no path of the machine it runs on.
///
/// ``json()`` writes it with stable keys, sorted, and dates in ISO 8601:
///
/// ```json
/// {
///   "configuration" : [ { "name" : "DATABASE_URL", "readAt" : [ "services.yaml:4:10" ], "source" : "environment" } ],
///   "contexts" : [ { "name" : "development", "reason" : "WIRING_CONTEXT" } ],
///   "services" : [ { "builds" : 1, "factory" : "sql-store", "implements" : [ "NoteStore" ],
///                    "kept" : true, "key" : "SQLNoteStore", "location" : "services.yaml:3:3", "scope" : "singleton" } ],
///   "takenAt" : "2026-11-28T10:00:00Z"
/// }
/// ```
///
/// `lastRefresh` and `lastReload` appear once there was one; `name` once a service is a named
/// variant; `builds` only for services the container keeps (`singleton`, `cached`, `shared`,
/// custom scopes): a `scoped` service is built per scope, a `unique` or `graph` one per resolve.
public struct ContainerSnapshot: Sendable, Codable, Hashable {
    /// A context applied, and what chose it.
    public struct Context: Sendable, Codable, Hashable {
        /// The context's name.
        public let name: String
        /// What chose it: `automatic` (tests), `code`, an environment variable's name, or
        /// `launch argument --wiring-context`.
        public let reason: String
    }

    /// A service or one of its named variants.
    public struct Service: Sendable, Codable, Hashable {
        /// The service key.
        public let key: String
        /// The named variant, if the entry is one.
        public let name: String?
        /// Its scope.
        public let scope: String
        /// The key of the factory that builds it.
        public let factory: String
        /// Where it was declared, `file:line:col`, the file relative to the root manifest's folder.
        public let location: String
        /// The types it is resolved as besides its key (`implements:`), `Type` or `Type[name]`.
        public let implements: [String]
        /// Whether the container keeps an instance of it now.
        public let kept: Bool
        /// How many times the container built an instance to keep; `nil` for a service it does
        /// not keep itself.
        public let builds: Int?
    }

    /// A configuration key or an environment variable the manifest reads (`${NAME}`).
    public struct ExternalRead: Sendable, Codable, Hashable {
        /// The key or variable.
        public let name: String
        /// Where its value comes from: `configuration` (the container's configuration source)
        /// or `environment`.
        public let source: String
        /// Where the manifest reads it, `file:line:col` relative to the root manifest's folder, in
        /// manifest order.
        public let readAt: [String]
    }

    /// When the snapshot was taken.
    public var takenAt: Date
    /// The contexts applied, in order.
    public var contexts: [Context]
    /// Every service and named variant, in manifest order.
    public var services: [Service]
    /// The names the manifest reads, in the order first read.
    public var configuration: [ExternalRead]
    /// The last refresh that changed something, if any.
    public var lastRefresh: RefreshEvent?
    /// The last reload, for a ``ReloadingContainer``'s snapshot.
    public var lastReload: ReloadEvent?

    /// The snapshot as JSON: keys sorted, dates in ISO 8601, pretty-printed.
    /// - Throws: `EncodingError`, which strings, whole numbers, booleans and dates never raise.
    public func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return try encoder.encode(self)
    }
}
