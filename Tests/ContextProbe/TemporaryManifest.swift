import Foundation

/// A manifest of `services` (a `services:` block and what follows), written to a file of its own
/// in the temporary folder; its path.
func temporaryManifest(_ services: String) -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("probe-\(UUID().uuidString).yaml").path
    try! ("wiring: 1\n" + services).write(toFile: path, atomically: true, encoding: .utf8)
    return path
}
