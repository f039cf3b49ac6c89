import Foundation
import Wiring

/// Among manifests found by looking at files (a build plugin's, a command plugin's), the roots:
/// a file another one imports, or an overlay file `name.context.yaml` beside `name.yaml`, is
/// checked as part of that one, not alone.
enum ManifestRoots {
    /// The roots among `paths`, in order, each once, with what `validate` found for each.
    /// Every path is validated once: what a manifest imports, even one with errors, is read
    /// from its validation.
    static func roots(among paths: [String], validate: (String) -> ManifestValidation) -> [(path: String, result: ManifestValidation)] {
        var seen: Set<String> = []
        let candidates = paths.filter { seen.insert(standard($0)).inserted }
        let all = Set(candidates.map(standard))
        var pulledIn: Set<String> = []
        var validated: [(path: String, result: ManifestValidation)] = []
        for path in candidates {
            if let overlaid = overlaidManifest(of: standard(path)), all.contains(overlaid) { pulledIn.insert(standard(path)) }
            let result = validate(path)
            for file in result.assembled.files.map(standard) where file != standard(path) { pulledIn.insert(file) }
            validated.append((path, result))
        }
        return validated.filter { !pulledIn.contains(standard($0.path)) }
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
