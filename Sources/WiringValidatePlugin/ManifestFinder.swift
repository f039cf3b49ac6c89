import Foundation

/// Finds a target's manifests. Shared by both plugins (the command plugin's copy is a link to
/// this file): plugins cannot depend on a library.
enum ManifestFinder {
    /// The `.yaml` and `.yml` files under `folder` that start with `wiring:`, sorted.
    static func manifests(under folder: URL) -> [URL] {
        guard let walker = FileManager.default.enumerator(
            at: folder, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
        else { return [] }
        var found: [URL] = []
        for case let url as URL in walker where ["yaml", "yml"].contains(url.pathExtension) && startsWithWiring(url) {
            found.append(url.standardizedFileURL)
        }
        return found.sorted { $0.path < $1.path }
    }

    /// Whether the file's first line that is neither blank nor a comment starts with `wiring:`.
    /// Reads at most the first 64 KiB, of a regular file only: opening a named pipe would block
    /// the build until something writes to it.
    ///
    /// A file whose kind or text cannot be read is not taken for a manifest: nothing tells
    /// that it is one. A manifest the tool must check whatever happens is one
    /// `wiring-plugin.json` lists: the tool reads those and reports any it cannot read.
    static func startsWithWiring(_ url: URL) -> Bool {
        guard (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true,
              let handle = try? FileHandle(forReadingFrom: url) else { return false }
        defer { try? handle.close() }
        let head = String(decoding: (try? handle.read(upToCount: 65_536)) ?? Data(), as: UTF8.self)
        for line in head.split(whereSeparator: \.isNewline) {
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.isEmpty || text.hasPrefix("#") || text == "---" { continue }
            return text.hasPrefix("wiring:")
        }
        return false
    }

    /// The manifests `wiring-plugin.json` lists, relative to it; the tool reports a file it
    /// cannot read.
    static func listed(in config: URL) -> [URL] {
        (read(config)?.manifests ?? []).map { URL(fileURLWithPath: $0, relativeTo: config.deletingLastPathComponent()).standardizedFileURL }
    }

    /// The factory catalog `wiring-plugin.json` names, relative to it, if it names one.
    static func catalog(in config: URL) -> URL? {
        read(config)?.catalog.map { URL(fileURLWithPath: $0, relativeTo: config.deletingLastPathComponent()).standardizedFileURL }
    }

    private struct Listed: Decodable {
        var manifests: [String]?
        var catalog: String?
    }

    private static func read(_ config: URL) -> Listed? {
        guard let data = try? Data(contentsOf: config) else { return nil }
        return try? JSONDecoder().decode(Listed.self, from: data)
    }
}
