import Foundation

/// The folder this process writes its manifests in, removed when the process exits.
private let manifestFolder: URL = {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("probe-\(UUID().uuidString)")
    try! FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    atexit {
        // Best effort at exit: a folder left behind in the temporary directory harms nothing.
        try? FileManager.default.removeItem(at: manifestFolder)
    }
    return folder
}()

/// A manifest of `services` (a `services:` block and what follows), written to a file of its own
/// in this process's temporary folder; its path.
func temporaryManifest(_ services: String) -> String {
    let path = manifestFolder.appendingPathComponent("\(UUID().uuidString).yaml").path
    try! ("wiring: 1\n" + services).write(toFile: path, atomically: true, encoding: .utf8)
    return path
}
