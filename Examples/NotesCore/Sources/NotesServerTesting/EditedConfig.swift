import Foundation
import NotesCore
import Testing

/// A copy of the real `config/` in a folder of its own, with `original` replaced by
/// `replacement` in `services.yaml`; the file's path, and the 1-based line and column where
/// `original` was.
public struct EditedConfig: Sendable {
    public let folder: URL
    public let services: URL
    public let line: Int
    public let column: Int

    public init(replacing original: String, with replacement: String) throws {
        folder = try FileManager.default.temporaryFolder("notes-config")
        for file in try FileManager.default.contentsOfDirectory(atPath: Notes.defaultConfig) {
            try FileManager.default.copyItem(atPath: Notes.defaultConfig + "/" + file,
                                             toPath: folder.appendingPathComponent(file).path)
        }
        services = folder.appendingPathComponent("services.yaml")
        let text = try String(contentsOf: services, encoding: .utf8)
        try text.replacingOccurrences(of: original, with: replacement).write(to: services, atomically: true, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let index = try #require(lines.firstIndex { $0.contains(original) })
        line = index + 1
        column = lines[index].distance(from: lines[index].startIndex, to: lines[index].range(of: original)!.lowerBound) + 1
    }

    /// Replaces `original` with `replacement` in the copy's `services.yaml`, as an editor saves
    /// it: a server watching the folder sees a new modification time.
    public func edit(replacing original: String, with replacement: String) throws {
        let text = try String(contentsOf: services, encoding: .utf8)
        let previous = try FileManager.default.attributesOfItem(atPath: services.path)[.modificationDate] as? Date ?? Date()
        try text.replacingOccurrences(of: original, with: replacement).write(to: services, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.modificationDate: previous.addingTimeInterval(2)], ofItemAtPath: services.path)
    }
}

/// Holds callers until `count` of them have arrived, then lets everyone through, later
/// callers too.
public actor AsyncGate {
    private let count: Int
    private var arrived = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    public init(count: Int) { self.count = count }

    public func arrive() async {
        arrived += 1
        guard arrived < count else {
            for continuation in waiting { continuation.resume() }
            waiting = []
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }
}
