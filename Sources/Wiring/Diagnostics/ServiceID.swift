/// A service as the container names it: its key and, for one of its named variants, the name.
/// Shown as `Key` or `Key[name]`, as paths, messages, reports and spans show a service.
///
/// A string literal names one too, as it is shown: `"NoteStore"`, `"NoteStore[archive]"`.
public struct ServiceID: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The service key.
    public let key: String
    /// The named variant, if any.
    public let name: String?

    /// The service under `key`, or its variant `name`.
    public init(_ key: String, name: String? = nil) {
        self.key = key
        self.name = name
    }

    /// The service a literal shows: `Key`, or `Key[name]` for a named variant.
    public init(stringLiteral shown: String) {
        if shown.hasSuffix("]"), let open = shown.firstIndex(of: "[") {
            self.init(String(shown[..<open]), name: String(shown[shown.index(after: open)..<shown.index(before: shown.endIndex)]))
        } else {
            self.init(shown)
        }
    }

    /// `Key` or `Key[name]`.
    public var description: String { shownService(key, name: name) }
}
