/// What `${name}` reads: the environment, or a container's ``ConfigurationSource`` when it has
/// one (then every `${name}` is a configuration key, and the environment is read only through
/// the source's providers).
///
/// Copies share what they have read: loading a manifest, checking its files and binding it ask
/// the source for each key once, as the type ``types`` gives it (the first lookup's type).
package struct ExternalValues: Sendable {
    package let environment: [String: String]
    package let configuration: (any ConfigurationSource)?
    /// The type the manifest needs of each configuration key a typed argument reads whole
    /// (``Manifest/configurationTypes(schemas:)``): the source is asked for that type only.
    package var types: [String: ConfigurationType] = [:]
    /// What each key read so far gave, shared by every copy.
    private let read = Locked<[String: Lookup]>([:])

    package init(environment: [String: String], configuration: (any ConfigurationSource)? = nil) {
        self.environment = environment
        self.configuration = configuration
    }

    /// What looking a name up found.
    package enum Lookup: Sendable, Equatable {
        case set(ConfigurationValue)
        case unset
        /// The source has the key but could not read it: its message.
        case failed(String)
    }

    /// The value of `name`, as the environment or the source has it (``ValueResolver`` caches
    /// it, and counts an empty string as unset where the reference has a default).
    package func lookup(_ name: String) -> Lookup {
        guard let configuration else { return environment[name].map { .set(.string($0)) } ?? .unset }
        if let known = read.withLock({ $0[name] }) { return known }
        let found: Lookup
        do {
            found = try configuration.value(forKey: name, as: types[name]).map(Lookup.set) ?? .unset
        } catch {
            found = .failed("\(error)")
        }
        read.withLock { $0[name] = found }
        return found
    }

    /// What a reference to `name` with no default reports when `found` cannot fill it in;
    /// `nil` when it can.
    package func problem(reading name: String, found: Lookup) -> String? {
        switch found {
        case .set: nil
        case .unset: "\(describe(name)) is not set and has no default"
        case .failed(let message): "\(describe(name)): \(message)"
        }
    }

    /// Whether `name` is dotted (`http.port`): a configuration key, read through the reader a
    /// container is given, never an environment variable's name.
    package static func isConfigurationKey(_ name: String) -> Bool {
        name.utf8.contains(UInt8(ascii: "."))
    }

    /// What messages call a name: "environment variable 'PORT'", "configuration key 'http.port'".
    package func describe(_ name: String) -> String {
        "\(noun) '\(name)'"
    }

    /// What messages call the names a value read, instead of showing the value:
    /// "configuration key 'http.port'", "environment variables 'HOST', 'PORT'"; `nil` for none.
    package func describe(_ names: [String]) -> String? {
        guard !names.isEmpty else { return nil }
        return noun + (names.count == 1 ? " " : "s ") + names.map { "'\($0)'" }.joined(separator: ", ")
    }

    /// "environment variable" or "configuration key".
    package var noun: String { configuration == nil ? "environment variable" : "configuration key" }
}
