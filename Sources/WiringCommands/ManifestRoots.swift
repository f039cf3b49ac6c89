import Foundation
import Wiring

/// Among manifests found by looking at files (a build plugin's, a command plugin's), the roots:
/// a file another one imports, or an overlay file `name.context.yaml` beside `name.yaml`, is
/// checked as part of that one, not alone.
enum ManifestRoots {
    /// The roots among `paths`, in order, each once.
    static func roots(among paths: [String], loader: ManifestLoader) -> [String] {
        var seen: Set<String> = []
        let candidates = paths.filter { seen.insert(standard($0)).inserted }
        let all = Set(candidates.map(standard))
        var pulledIn: Set<String> = []
        for path in candidates {
            if let overlaid = overlaidManifest(of: standard(path)), all.contains(overlaid) { pulledIn.insert(standard(path)) }
            // Also what a manifest with errors imports: those files are not roots either.
            let files = loader.validate(path, options: ValidationOptions(eachContext: false)).assembled.files
            for file in files.map(standard) where file != standard(path) { pulledIn.insert(file) }
        }
        return candidates.filter { !pulledIn.contains(standard($0)) }
    }

    private static func standard(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }

    /// For `folder/name.context.yaml`, `folder/name.yaml`: the manifest it would be the overlay of.
    private static func overlaidManifest(of path: String) -> String? {
        let url = URL(fileURLWithPath: path)
        let parts = url.deletingPathExtension().lastPathComponent.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 2 else { return nil }
        let name = parts.dropLast().joined(separator: ".") + "." + url.pathExtension
        return url.deletingLastPathComponent().appendingPathComponent(name).path
    }
}
