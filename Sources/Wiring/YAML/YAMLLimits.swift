/// Bounds on what the YAML reader accepts, so that no input can exhaust time or memory.
///
/// The defaults fit manifests of several hundred thousand entries; lower them for untrusted
/// input. Each limit that is hit stops reading with a positioned error.
public struct YAMLLimits: Sendable, Hashable {
    /// The largest file, in bytes. Default: 32 MiB.
    public var maxFileSize: Int
    /// The deepest nesting of sequences and mappings. Default: 128.
    public var maxDepth: Int
    /// How many nodes aliases (`*name`) may produce in all, counting every node of each copied
    /// anchor. A "billion laughs" file fails fast against this. Default: 1,000,000.
    public var maxAliasExpansion: Int

    /// Creates limits; every argument defaults to the value described on its property.
    public init(maxFileSize: Int = 32 << 20, maxDepth: Int = 128, maxAliasExpansion: Int = 1_000_000) {
        self.maxFileSize = maxFileSize
        self.maxDepth = maxDepth
        self.maxAliasExpansion = maxAliasExpansion
    }

    /// The default limits.
    public static let `default` = YAMLLimits()
}
