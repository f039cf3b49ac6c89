import Foundation
@testable import Wiring

/// The container a model program runs on, built from its manifest written to a folder of its
/// own (with the context's overlay file beside it), with its context active when it says so:
/// a ``Container``, or, for a program that reloads, a ``ReloadingContainer``, whose container
/// in force is the root.
final class ModelRoot {
    private let program: ModelProgram
    private let path: String
    private let plain: Container?
    private let reloading: ReloadingContainer?
    /// How many reloads were put in force: the labels of the manifest in force are marked with it.
    private var generation = 0

    init(_ program: ModelProgram, registry: FactoryRegistry, options: Container.Options) throws {
        self.program = program
        let folder = try TestSupport.temporaryFolder()
        path = folder.appendingPathComponent("services.yaml").path
        try program.yaml.write(toFile: path, atomically: true, encoding: .utf8)
        if let overlay = program.context?.overlay {
            try overlay.write(to: folder.appendingPathComponent("services.test.yaml"), atomically: true, encoding: .utf8)
        }
        let contexts: ContextSelection = program.context?.active == true ? .explicit("test") : .none
        let reloads = program.operations.contains { if case .reload = $0 { true } else { false } }
        if reloads {
            // Reloaded only by the program: its watch never polls in the program's time.
            reloading = try ReloadingContainer(manifest: path, registry: registry, contexts: contexts, options: options,
                                               pollInterval: .seconds(86_400))
            plain = nil
        } else {
            plain = try Container(manifest: path, registry: registry, contexts: contexts, options: options)
            reloading = nil
        }
    }

    /// The container in force.
    var container: Container { plain ?? reloading!.container }

    func makeScope() -> ContainerScope { plain?.makeScope() ?? reloading!.makeScope() }

    func start() async throws {
        if let plain { try await plain.start() } else { try await reloading!.start() }
    }

    func shutdown() async throws {
        if let plain { try await plain.shutdown() } else { try await reloading!.shutdown() }
    }

    /// Writes the manifest with the next generation's labels and reloads it, then waits for the
    /// retired container's shutdown (which the reload started): whether the new container was
    /// put in force, and what the retired one's shutdown threw.
    func reload() async -> (applied: Bool, failure: (any Error)?) {
        guard let reloading else { return (false, nil) }
        do {
            try program.yaml(generation: generation + 1).write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            return (false, error)
        }
        let retiring = reloading.container
        guard await reloading.reload() else { return (false, nil) }
        generation += 1
        do {
            try await retiring.shutdown()
        } catch {
            return (true, error)
        }
        return (true, nil)
    }
}

/// The configuration source a model program's labels read (`model.S3`, `~0` until a refresh),
/// watched by each started container: a change is reported to the watches running then; the
/// runner changes a value only once a watch runs (``watched()``), so that none is missed.
final class ModelConfiguration: WatchableConfigurationSource {
    private let values: Locked<[String: ConfigurationValue]>
    private let state = Locked<(version: Int, watchers: Int)>((0, 0))

    init(keys: [String]) {
        values = Locked(Dictionary(uniqueKeysWithValues: keys.map { ("model.\($0)", .string("~0")) }))
    }

    /// The values at one moment.
    struct Snapshot: ConfigurationSource {
        let values: [String: ConfigurationValue]
        func value(forKey key: String) throws -> ConfigurationValue? { values[key] }
    }

    func value(forKey key: String) throws -> ConfigurationValue? { values.withLock { $0[key] } }

    /// `model.<key>` becomes `~value`.
    func set(_ key: String, to value: Int) {
        values.withLock { $0["model.\(key)"] = .string("~\(value)") }
        state.withLock { $0.version += 1 }
    }

    /// Returns once a container watches the source.
    func watched() async {
        while state.withLock({ $0.watchers }) == 0 {
            // Cancelled only with the program's run, which the time limit leaves behind.
            try? await Task.sleep(for: .milliseconds(1))
        }
    }

    func watch(_ update: @concurrent @Sendable (any ConfigurationSource) async -> Void) async throws {
        var seen = state.withLock { state in
            state.watchers += 1
            return state.version
        }
        defer { state.withLock { $0.watchers -= 1 } }
        while true {
            let version = state.withLock { $0.version }
            guard version != seen else {
                try await Task.sleep(for: .milliseconds(1))
                continue
            }
            seen = version
            await update(Snapshot(values: values.withLock { $0 }))
        }
    }
}

/// Counts the refreshes a container reported: the runner waits for the one its change caused.
final class RefreshCounter: ContainerObserver {
    private let refreshes = Locked(0)
    var count: Int { refreshes.withLock { $0 } }
    func containerRefreshed(_ refresh: RefreshEvent) { refreshes.withLock { $0 += 1 } }
}
