#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

extension URL: ManifestDecodable {
    /// "a URL".
    public static var manifestTypeDescription: String { "a URL" }

    /// Reads a URL from text (`${API_URL}` included).
    /// - Throws: ``ManifestError`` at the value when it is not text or not a URL.
    public init(manifestValue value: ManifestValue) throws(ManifestError) {
        guard case .string(let text) = value.kind, !text.isEmpty, let url = URL(string: text) else { throw value.mismatch(Self.self) }
        self = url
    }
}
