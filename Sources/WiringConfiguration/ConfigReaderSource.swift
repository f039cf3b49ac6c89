#if Configuration
public import Configuration
public import Wiring

/// A swift-configuration `ConfigReader` as the place a container's `${key}` references read.
///
/// A key a typed argument's field reads whole (`port: "${http.port}"` for an `Int` field) is
/// asked for once, as that type, so that an `AccessReporter` sees one access per key and read
/// (a key missing, or of another type, is then read as any other is, for the message).
/// Any other whole `${key}` keeps the type the reader's providers give the value: a string (the
/// environment's, a JSON string), an integer, a number, a boolean, or a list of them. It is
/// asked for as a string first, then as each other type in turn, so that a provider holding
/// text (environment variables, command-line arguments) gives text, which typed arguments parse
/// as they parse `${VAR}` (`"8080"` read as an `Int`). A key no provider has, whose value is of
/// another type (bytes), or whose provider fails to read it (the reader's errors do not tell a
/// failed read from a missing key) is unset.
///
/// Wiring reads every value as a secret (`isSecret: true`), so the reader's access reporting
/// never shows what it read, and Wiring's own messages name the key, never the value.
public struct ConfigReaderSource: WatchableConfigurationSource {
    /// The reader values are read through.
    public let reader: ConfigReader

    /// A source reading through `reader`.
    public init(_ reader: ConfigReader) {
        self.reader = reader
    }

    /// The value of `key` (`"http.port"`) with the type its provider gives it; `nil` when no
    /// provider has it.
    public func value(forKey key: String) -> ConfigurationValue? {
        SnapshotSource(reader.snapshot()).value(forKey: key)
    }

    /// The value of `key` read as `type` (one access of the reader), or as
    /// ``value(forKey:)`` reads it when `type` is `nil`.
    public func value(forKey key: String, as type: ConfigurationType?) -> ConfigurationValue? {
        SnapshotSource(reader.snapshot()).value(forKey: key, as: type)
    }

    /// Watches the reader's providers until the task is cancelled, calling `update` with each
    /// snapshot they report (swift-configuration keeps the newest one while `update` runs, so a
    /// burst of changes leaves the last).
    public func watch(_ update: @Sendable (_ current: any ConfigurationSource) async -> Void) async throws {
        try await reader.watchSnapshot { snapshots in
            for await snapshot in snapshots {
                await update(SnapshotSource(snapshot))
            }
        }
    }
}

/// One snapshot of a reader's values, read as ``ConfigReaderSource`` reads the reader.
private struct SnapshotSource: ConfigurationSource {
    let snapshot: ConfigSnapshotReader

    init(_ snapshot: ConfigSnapshotReader) {
        self.snapshot = snapshot
    }

    func value(forKey key: String) -> ConfigurationValue? {
        value(forKey: key, as: nil)
    }

    /// With `type`, one access of that type; without, each type in turn until one reads. A
    /// typed access that finds nothing is followed by the untyped reads: the reader answers a
    /// missing key and one of another type alike, and only a value found lets the message say
    /// what it was ("expected an integer, found a string from configuration key 'http.port'").
    func value(forKey key: String, as type: ConfigurationType?) -> ConfigurationValue? {
        let key = ConfigKey(key)
        if let type, let typed = value(forKey: key, as: type) { return typed }
        if let text = snapshot.string(forKey: key, isSecret: true) { return .string(text) }
        if let number = snapshot.int(forKey: key, isSecret: true) { return .int(number) }
        if let number = snapshot.double(forKey: key, isSecret: true) { return .double(number) }
        if let flag = snapshot.bool(forKey: key, isSecret: true) { return .bool(flag) }
        if let texts = snapshot.stringArray(forKey: key, isSecret: true) { return .list(texts.map(ConfigurationValue.string)) }
        if let numbers = snapshot.intArray(forKey: key, isSecret: true) { return .list(numbers.map(ConfigurationValue.int)) }
        if let numbers = snapshot.doubleArray(forKey: key, isSecret: true) { return .list(numbers.map(ConfigurationValue.double)) }
        if let flags = snapshot.boolArray(forKey: key, isSecret: true) { return .list(flags.map(ConfigurationValue.bool)) }
        return nil
    }

    /// One access of `key` as `type`.
    private func value(forKey key: ConfigKey, as type: ConfigurationType) -> ConfigurationValue? {
        switch type {
        case .string: snapshot.string(forKey: key, isSecret: true).map(ConfigurationValue.string)
        case .int: snapshot.int(forKey: key, isSecret: true).map(ConfigurationValue.int)
        case .double: snapshot.double(forKey: key, isSecret: true).map(ConfigurationValue.double)
        case .bool: snapshot.bool(forKey: key, isSecret: true).map(ConfigurationValue.bool)
        case .stringList: snapshot.stringArray(forKey: key, isSecret: true).map { .list($0.map(ConfigurationValue.string)) }
        case .intList: snapshot.intArray(forKey: key, isSecret: true).map { .list($0.map(ConfigurationValue.int)) }
        case .doubleList: snapshot.doubleArray(forKey: key, isSecret: true).map { .list($0.map(ConfigurationValue.double)) }
        case .boolList: snapshot.boolArray(forKey: key, isSecret: true).map { .list($0.map(ConfigurationValue.bool)) }
        }
    }
}

extension Container {
    /// Loads the manifest at `path` and builds a container whose `${key}` references read
    /// through `configuration` instead of the process's environment (which reaches them through
    /// the reader's environment-variable provider, as it maps keys: `http.port` from
    /// `HTTP_PORT`).
    ///
    /// ```swift
    /// let config = ConfigReader(providers: [EnvironmentVariablesProvider(),
    ///                                       try await FileProvider<JSONSnapshot>(filePath: "config.json")])
    /// let container = try Container(manifest: "config/services.yaml", registry: registry,
    ///                               contexts: .launch(), configuration: config)
    /// ```
    ///
    /// - Throws: ``Wiring/ManifestError`` with every problem, a key no provider has (and no
    ///   default) at the value that reads it.
    public convenience init(
        manifest path: String, registry: FactoryRegistry, contexts: ContextSelection = .launch(),
        options: Options = Options(), configuration: ConfigReader
    ) throws(ManifestError) {
        var options = options
        options.configuration = ConfigReaderSource(configuration)
        try self.init(manifest: path, registry: registry, contexts: contexts, options: options)
    }
}
#endif
