/// Where `${key}` reads its values when a container is given one, instead of the process's
/// environment: the `WiringConfiguration` product makes one of a swift-configuration
/// `ConfigReader` (`Container(manifest:registry:contexts:configuration:)`).
///
/// A key is dotted (`${http.port}`), as the source's providers map it: swift-configuration's
/// environment-variable provider reads `http.port` from `HTTP_PORT`. Values read from a source
/// are never printed (errors, `explain`, logs name the key instead), as values read from the
/// environment are not.
public protocol ConfigurationSource: Sendable {
    /// The value of `key` with the type its provider gives it, or `nil` when no provider has
    /// the key.
    ///
    /// - Throws: When a provider has the key but cannot read it; the message is shown with the
    ///   key, at the value that reads it.
    func value(forKey key: String) throws -> ConfigurationValue?

    /// The value of `key` read as `type`, the type the manifest needs there (a typed
    /// argument's field reads the whole `${key}`), or as ``value(forKey:)`` reads it when
    /// `type` is `nil`. A source over a reader that reports each access (swift-configuration's
    /// `AccessReporter`) asks once, for that type. The default reads ``value(forKey:)``.
    ///
    /// - Throws: As ``value(forKey:)``.
    func value(forKey key: String, as type: ConfigurationType?) throws -> ConfigurationValue?
}

extension ConfigurationSource {
    /// Reads ``value(forKey:)``, whatever type the manifest needs.
    public func value(forKey key: String, as type: ConfigurationType?) throws -> ConfigurationValue? {
        try value(forKey: key)
    }
}

/// The type a manifest needs of a configuration key: what the typed argument field reading the
/// whole `${key}` holds.
public enum ConfigurationType: Sendable, Hashable {
    /// Text: a `String`, `URL` or enumeration field.
    case string
    /// An integer field, of any width.
    case int
    /// A `Double` or `Float` field.
    case double
    /// A `Bool` field.
    case bool
    /// A list of text.
    case stringList
    /// A list of integers.
    case intList
    /// A list of numbers.
    case doubleList
    /// A list of booleans.
    case boolList
}

/// A ``ConfigurationSource`` whose values change while the app runs (swift-configuration's
/// reader over reloading files or mutable providers, in the `WiringConfiguration` product): a
/// started container watches it and rebuilds the services whose arguments read a key that
/// changed (see ``Container/start()``).
public protocol WatchableConfigurationSource: ConfigurationSource {
    /// Watches the source until the calling task is cancelled, calling `update` after each
    /// change of its values with a source that reads them as they are then (one snapshot, so
    /// that keys read together agree). A started container runs this in one task, from
    /// ``Container/start()`` to ``Container/shutdown()``.
    ///
    /// A source may skip intermediate states: a burst of changes may come as one update with
    /// the last values. Returning ends the watch: the source's values no longer change.
    ///
    /// `update` is `@concurrent`, as an async closure is by default: a conformance in a module
    /// with `NonisolatedNonsendingByDefault` spells it so too.
    func watch(_ update: @concurrent @Sendable (_ current: any ConfigurationSource) async -> Void) async throws
}

/// A value a ``ConfigurationSource`` gives: a whole `${key}` keeps its type (an integer stays
/// an integer, as a whole `$(param)` keeps its parameter's), and one inside a longer string is
/// written as text.
public enum ConfigurationValue: Sendable, Hashable {
    /// Text; typed reads parse it (`"8080"` read as an `Int`), as they parse `${VAR}`.
    case string(String)
    /// An integer.
    case int(Int)
    /// A number.
    case double(Double)
    /// A boolean.
    case bool(Bool)
    /// A list of values (swift-configuration's string, integer, number and boolean arrays).
    case list([ConfigurationValue])

    /// The value as a manifest value read at `location`: secret (never shown), and, for a
    /// string, one typed reads may parse (`"8080"` read as an `Int`), as a whole `${VAR}`
    /// from the environment is.
    func manifestValue(at location: SourceLocation) -> ManifestValue {
        let kind: ManifestValue.Kind = switch self {
        case .string(let text): .string(text)
        case .int(let number): .int(number)
        case .double(let number): .double(number)
        case .bool(let flag): .bool(flag)
        case .list(let values): .list(values.map { $0.manifestValue(at: location) })
        }
        return ManifestValue(kind, at: location, isSecret: true, isInterpolated: true)
    }

    /// The value written inside a longer string; `nil` for a list, which cannot be.
    var text: String? {
        switch self {
        case .string(let text): text
        case .int(let number): String(number)
        case .double(let number): String(number)
        case .bool(let flag): String(flag)
        case .list: nil
        }
    }
}
