import Foundation
import Synchronization
import Wiring

/// A source the benchmark changes, reporting each change to the watching container and
/// telling when the container has applied it.
final class BenchmarkSource: WatchableConfigurationSource {
    private struct State {
        var values: [String: ConfigurationValue]
        var version = 0
        var watcher: AsyncStream<Int>.Continuation?
        var applied: CheckedContinuation<Void, Never>?
    }

    private let state: Mutex<State>

    init(_ values: [String: ConfigurationValue]) { state = Mutex(State(values: values)) }

    struct Snapshot: ConfigurationSource {
        let values: [String: ConfigurationValue]
        func value(forKey key: String) -> ConfigurationValue? { values[key] }
    }

    func value(forKey key: String) -> ConfigurationValue? { state.withLock { $0.values[key] } }

    var isWatched: Bool { state.withLock { $0.watcher != nil } }

    func watch(_ update: @concurrent @Sendable (_ current: any ConfigurationSource) async -> Void) async throws {
        let (versions, continuation) = AsyncStream.makeStream(of: Int.self, bufferingPolicy: .bufferingNewest(1))
        state.withLock { $0.watcher = continuation }
        for await _ in versions {
            await update(Snapshot(values: state.withLock { $0.values }))
            state.withLock { $0.applied.take() }?.resume()
        }
    }

    /// Sets `key` and waits until the container applied it.
    func change(_ key: String, to value: ConfigurationValue) async {
        await withCheckedContinuation { (applied: CheckedContinuation<Void, Never>) in
            let watcher = state.withLock { state in
                state.values[key] = value
                state.version += 1
                state.applied = applied
                return (state.watcher, state.version)
            }
            watcher.0?.yield(watcher.1)
        }
    }
}

final class Pooled: Sendable {
    let size: Int
    init(size: Int) { self.size = size }
}

/// Live configuration: what a reader attached costs a warm `cached` resolve when nothing
/// changes, and what a change costs at two container sizes.
enum RefreshBenchmark {
    static func manifest(services: Int) -> String {
        var text = "wiring: 1\nservices:\n  Pooled: { factory: pooled, scope: cached, args: { size: \"${pool.size}\" } }\n"
        for index in 0..<services - 1 { text += "  S\(index): { factory: pooled, scope: cached, implements: [], args: { size: \(index) } }\n" }
        return text
    }

    static func container(services: Int, source: (any ConfigurationSource)?) throws -> Wiring.Container {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("wiring-bench-refresh-\(UUID().uuidString).yaml").path
        try manifest(services: services).write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let registry = FactoryRegistry()
        registry.factory("pooled") { r in Pooled(size: try r.arg("size", as: Int.self)) }
        return try Wiring.Container(manifest: path, registry: registry, contexts: .none,
                                    options: .init(environment: ["pool.size": "4"], configuration: source))
    }

    /// A synchronous resolve, as the warm comparison measures.
    static func pooled(_ container: Wiring.Container) throws -> Pooled { try container.resolve(Pooled.self) }

    static func run(repetitions: Int, iterations: Int) async throws {
        // The same manifest, its `${pool.size}` read from the environment or through a watched source.
        let plain = try container(services: 500, source: nil)
        let source = BenchmarkSource(["pool.size": .int(4)])
        let watched = try container(services: 500, source: source)
        try await plain.start()
        try await watched.start()
        while !source.isWatched { try await Task.sleep(for: .milliseconds(1)) }
        let row = try comparedRow("cached, warm", repetitions: repetitions, iterations: iterations,
                                  ("environment", { _ = try plain.resolve(Pooled.self) }),
                                  ("watched source", { _ = try watched.resolve(Pooled.self) }))
        printTable(["resolve (500 services)", "environment", "watched source", "watched/environment"], [row])
        print()

        var rows: [[String]] = []
        let changes = 2_000
        for size in [500, 10_000] {
            let source = BenchmarkSource(["pool.size": .int(0)])
            let container = try container(services: size, source: source)
            try await container.start()
            while !source.isWatched { try await Task.sleep(for: .milliseconds(1)) }
            var samples: [Double] = []
            var value = 0
            for _ in 0..<repetitions {
                let start = ContinuousClock.now
                for _ in 0..<changes {
                    value += 1
                    _ = try pooled(container)
                    await source.change("pool.size", to: .int(value))
                }
                let elapsed = ContinuousClock.now - start
                samples.append((Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18) / Double(changes))
            }
            guard try pooled(container).size == value else { throw CancellationError() }
            try await container.shutdown()
            rows.append(["\(size)", formatTime(samples.sorted()[samples.count / 2])])
        }
        printTable(["services", "change applied (a resolve, a change, its refresh)"], rows)
    }
}
