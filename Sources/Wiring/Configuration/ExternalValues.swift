/// What `${name}` reads: the environment, or a container's ``ConfigurationSource`` when it has
/// one (then every `${name}` is a configuration key, and the environment is read only through
/// the source's providers).
package struct ExternalValues: Sendable {
    package let environment: [String: String]
    package let configuration: (any ConfigurationSource)?

    package init(environment: [String: String], configuration: (any ConfigurationSource)? = nil) {
        self.environment = environment
        self.configuration = configuration
    }

    /// What looking a name up found.
    package enum Lookup: Sendable {
        case set(ConfigurationValue)
        case unset
        /// The source has the key but could not read it: its message.
        case failed(String)
    }

    /// The value of `name`: an empty string counts as unset when the reference has a default
    /// (`${NAME:-default}`), as a shell's `:-` does.
    package func lookup(_ name: String, hasDefault: Bool) -> Lookup {
        let found: Lookup
        if let configuration {
            do {
                found = try configuration.value(forKey: name).map(Lookup.set) ?? .unset
            } catch {
                found = .failed("\(error)")
            }
        } else {
            found = environment[name].map { .set(.string($0)) } ?? .unset
        }
        if hasDefault, case .set(.string(let text)) = found, text.isEmpty { return .unset }
        return found
    }

    /// Whether `name` has a value (a failed read counts as none).
    package func isSet(_ name: String) -> Bool {
        if case .set = lookup(name, hasDefault: false) { return true }
        return false
    }

    /// What messages call a name: "environment variable 'PORT'", "configuration key 'http.port'".
    package func describe(_ name: String) -> String {
        "\(noun) '\(name)'"
    }

    /// "environment variable" or "configuration key".
    package var noun: String { configuration == nil ? "environment variable" : "configuration key" }
}
