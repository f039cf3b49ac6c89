import Foundation
import Synchronization
import Wiring

/// A service of the start benchmark: each but the first depends on another, a tree.
final class StartNode: Sendable {
    let parent: StartNode?
    init(parent: StartNode?) { self.parent = parent }
}

/// `start()` of a container of eager singletons: what recording the startup report adds.
enum StartBenchmark {
    /// `count` eager singletons, `S0` … : `S(i)` depends on `S(i / 2)` through a `!service`
    /// argument, so that start builds some before others and some as dependencies.
    static func manifest(_ count: Int) -> String {
        var text = "wiring: 1\nservices:\n  S0: { factory: root, scope: singleton, eager: true }\n"
        for index in 1..<count {
            text += "  S\(index): { factory: node, scope: singleton, eager: true, args: { parent: !service S\(index / 2) } }\n"
        }
        return text
    }

    static func containers(_ count: Int, services: Int, options: Wiring.Container.Options = .init()) throws -> [Wiring.Container] {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("wiring-bench-start-\(UUID().uuidString).yaml").path
        try manifest(services).write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let registry = FactoryRegistry()
        registry.factory("root") { _ in StartNode(parent: nil) }
        registry.factory("node") { r in StartNode(parent: try r.arg("parent", as: StartNode.self)) }
        let loaded = try ManifestLoader().load(path)
        return try (0..<count).map { _ in try Wiring.Container(manifest: loaded, registry: registry, contexts: .none, options: options) }
    }

    /// `--profile-start N [build]`: only N starts of 500 eager services (the containers built
    /// first), for a profiler; `build`: only the containers built, to take from the former.
    static func profile(_ count: Int, services: Int = 500, buildOnly: Bool = false) throws {
        let all = try containers(count, services: services)
        if buildOnly { return }
        _ = try AsyncBenchmark.blocking { () async throws -> Int in
            for container in all { try await container.start() }
            return all.count
        }
    }

    /// The time of one `start()` of `services` eager services, median of `repetitions`.
    static func run(repetitions: Int, services: Int = 500) throws {
        let all = Mutex(try containers(repetitions + 1, services: services))
        let measured = try Measurement.run("start", repetitions: repetitions) { () throws -> Int in
            guard let container = all.withLock({ $0.popLast() }) else { return 0 }
            return try AsyncBenchmark.blocking { () async throws -> Int in
                try await container.start()
                return 1
            }
        }
        printTable(["operation", "wiring"], [["start(), \(services) eager services", formatTime(measured.median) + String(format: " ±%.0f%%", measured.spread * 50)]])
    }
}
