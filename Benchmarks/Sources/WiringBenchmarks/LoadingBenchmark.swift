import CLibYAML
import Foundation
import Wiring
import Yams

/// Loading: Wiring's bytes-to-ready-container against a bare libyaml event parse of the same
/// bytes (the floor) and against `Yams.compose` (a peer's document API).
enum LoadingBenchmark {
    /// Parses every event and drops it: the least any libyaml-based loader must do.
    static func bareParse(_ bytes: [UInt8]) -> Int {
        var parser = yaml_parser_t()
        yaml_parser_initialize(&parser)
        defer { yaml_parser_delete(&parser) }
        var events = 0
        bytes.withUnsafeBufferPointer { buffer in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            var event = yaml_event_t()
            while yaml_parser_parse(&parser, &event) == 1 {
                let done = event.type == YAML_STREAM_END_EVENT
                yaml_event_delete(&event)
                events += 1
                if done { break }
            }
        }
        return events
    }

    /// A registry with every factory the generated manifests use.
    static let registry: FactoryRegistry = {
        let registry = FactoryRegistry()
        for index in 0..<ManifestGenerator.factories { registry.factory("factory-\(index)") { _ in Shared() } }
        for index in 0..<ManifestGenerator.mocks { registry.factory("mock-\(index)") { _ in Shared() } }
        return registry
    }()

    /// What the loader sees: no `API_BASE_URL`, so the default applies.
    static let environment: [String: String] = [:]

    /// From the manifest's path to a container ready to resolve.
    static func container(_ path: String, contexts: ContextSelection = .none) throws -> Wiring.Container {
        try Wiring.Container(manifest: path, registry: registry, contexts: contexts, options: .init(environment: environment))
    }

    /// From a manifest already loaded to a container ready to resolve, with `contexts` applied.
    static func container(_ manifest: Manifest, contexts: ContextSelection) throws -> Wiring.Container {
        try Wiring.Container(manifest: manifest, registry: registry, contexts: contexts, options: .init(environment: environment))
    }

    /// Loads a generated manifest `loads` times and nothing else: a clean run for a profiler.
    static func profile(services: Int, loads: Int) throws {
        let files = try GeneratedFiles(services: services)
        defer { files.remove() }
        for _ in 0..<loads { _ = try container(files.path) }
    }

    /// Loads a generated manifest once, then builds `builds` containers from it with the `test`
    /// context: the contexts table's path, for a profiler.
    static func profileContexts(services: Int, builds: Int) throws {
        let files = try GeneratedFiles(services: services)
        defer { files.remove() }
        let manifest = try container(files.path).manifest
        for _ in 0..<builds {
            _ = try container(manifest, contexts: .explicit("test"))
        }
    }

    /// Parses the same generated files `parses` times with bare libyaml: the floor, for a profiler.
    static func profileBare(services: Int, parses: Int) throws {
        let files = try GeneratedFiles(services: services)
        defer { files.remove() }
        for _ in 0..<parses { _ = bareParse(files.rootBytes) + bareParse(files.sharedBytes) }
    }

    static func run(sizes: [Int], repetitions: Int, includeYams: Bool) throws {
        var rows: [[String]] = []
        var contextRows: [[String]] = []
        var probes: [MemoryProbe.Figures] = []
        for size in sizes {
            let files = try GeneratedFiles(services: size)
            defer { files.remove() }
            let (path, rootBytes, sharedBytes) = (files.path, files.rootBytes, files.sharedBytes)
            let bytes = rootBytes + sharedBytes

            let check = try container(path)
            guard check.manifest.serviceKeys.count == size else {
                throw BenchmarkError("the generated manifest of \(size) services (\(path)) loads \(check.manifest.serviceKeys.count) services")
            }
            let rootText = String(decoding: rootBytes, as: UTF8.self)
            let sharedText = String(decoding: sharedBytes, as: UTF8.self)
            var operations: [(name: String, body: () throws -> Any)] = [
                ("bare libyaml", { bareParse(rootBytes) + bareParse(sharedBytes) }),
                ("wiring", { try container(path) }),
            ]
            if includeYams {
                operations.append(("Yams.compose", { (try Yams.compose(yaml: rootText), try Yams.compose(yaml: sharedText)) }))
            }
            let (measured, ratios) = try interleaved(repetitions: repetitions, operations)
            let (floor, wiring) = (measured[0], measured[1])
            var yamsCell = "-", yamsRatio = "-"
            if includeYams {
                yamsCell = formatTime(measured[2].median)
                yamsRatio = String(format: "%.1f×", ratios[2] / ratios[1])
            }
            let memory = try MemoryProbe.measure(path: path)
            probes.append(memory)
            rows.append([
                "\(size)", "\(bytes.count / 1024) KB",
                formatTime(wiring.median) + String(format: " ±%.0f%%", wiring.spread * 50),
                formatTime(floor.median) + String(format: " ±%.0f%%", floor.spread * 50),
                String(format: "%.2f×", ratios[1]),
                yamsCell, yamsRatio,
                formatTime(wiring.median / Double(size)),
                formatBytes(memory.peak / size), formatBytes(memory.retained / size), formatBytes(memory.manifest / size),
            ])

            // Another set of contexts from the manifest already in memory: no file is read again.
            let manifest = check.manifest
            let (switched, _) = try interleaved(repetitions: repetitions, [
                ("none", { try container(manifest, contexts: .none) }),
                ("test", { try container(manifest, contexts: .explicit("test")) }),
                ("test, staging", { try container(manifest, contexts: .explicit("test", "staging")) }),
            ])
            contextRows.append([
                "\(size)",
                formatTime(switched[0].median) + String(format: " ±%.0f%%", switched[0].spread * 50),
                formatTime(switched[1].median) + String(format: " ±%.0f%%", switched[1].spread * 50),
                formatTime(switched[2].median) + String(format: " ±%.0f%%", switched[2].spread * 50),
                String(format: "%.0f%%", 100 * switched[1].median / wiring.median),
            ])
        }
        printTable(
            ["services", "size", "wiring: bytes → container", "bare libyaml", "wiring/libyaml", "Yams.compose", "Yams/wiring",
             "per service", "peak RSS/service", "kept RSS/service", "of which manifest"],
            rows)
        if let first = probes.map(\.firstPeak).max(), let code = probes.map(\.code).max() {
            print("Memory counts what a load allocates. It is measured after a first load of \(MemoryProbe.warmUpServices) services "
                + "in the same process (runtime data and code, paid once: up to \(formatBytes(first)) at its peak), "
                + "and without code pages the measured load paged in itself (up to \(formatBytes(code))).")
        }
        print()
        print("Container for other contexts, from the manifest already loaded (median of \(repetitions))")
        printTable(["services", "no contexts", "test", "test, staging", "test / full load"], contextRows)
    }
}

/// A generated manifest written to a folder of its own (see ``ManifestGenerator``), and the
/// bytes of its two files, which the floor and the peer parse.
struct GeneratedFiles {
    /// The root manifest, which imports `shared.yaml` beside it.
    let path: String
    let rootBytes: [UInt8]
    let sharedBytes: [UInt8]

    init(services: Int) throws {
        let path = try ManifestGenerator.write(services: services)
        let folder = (path as NSString).deletingLastPathComponent
        do {
            rootBytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            sharedBytes = Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/shared.yaml")))
        } catch {
            try? FileManager.default.removeItem(atPath: folder)
            throw error
        }
        self.path = path
    }

    /// Removes the folder the files are in.
    func remove() {
        try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent)
    }
}

/// Resident memory of one loaded container, measured in a child process of its own so that
/// nothing this process did before counts: the peak (`VmHWM`, see ``maxResidentBytes()``) and
/// what stays resident once loading is over (`/proc/self/statm`), each minus the same figure
/// before loading.
///
/// What is counted is what a load allocates. The child first loads a manifest of
/// ``warmUpServices`` services and measures from there: a process's first load builds the
/// runtime's type data and pages in the loader's code, which a process pays once, whatever
/// it loads. Code pages the measured load pages in on its own (paths a small manifest does
/// not take) are taken out too. Both are reported beside, so they stay in view.
enum MemoryProbe {
    static let argument = "--memory-probe"

    /// The size of the manifest the child loads before the one it measures.
    static let warmUpServices = 10

    /// What one child measured, in bytes.
    struct Figures {
        /// The peak and what stays resident after, of the measured load, without code pages.
        let peak: Int, retained: Int
        /// Of `retained`, the manifest's part (the rest is the container's).
        let manifest: Int
        /// Code the measured load paged in, which `peak` and `retained` leave out.
        let code: Int
        /// The peak of the process's first load, of ``warmUpServices`` services, code included.
        let firstPeak: Int
    }

    /// Runs this executable again as `--memory-probe <path>` and reads its answer.
    static func measure(path: String) throws -> Figures {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
        if !FileManager.default.isExecutableFile(atPath: process.executableURL!.path) {
            process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        }
        process.arguments = [argument, path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let numbers = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        guard process.terminationStatus == 0, numbers.count == 5 else {
            throw BenchmarkError("the memory probe of \(path) failed (status \(process.terminationStatus))")
        }
        return Figures(peak: numbers[0], retained: numbers[1], manifest: numbers[2], code: numbers[3], firstPeak: numbers[4])
    }

    /// In the child: loads a small generated manifest, then `path`, and prints the second load's
    /// peak and retained growth in bytes without code, how much of what it retains is the
    /// manifest's, the code it paged in, and the first load's peak with code.
    static func probe(path: String) throws {
        _ = LoadingBenchmark.registry
        let warmUp = try GeneratedFiles(services: warmUpServices)
        defer { warmUp.remove() }
        // The first container stays, so that the second load cannot reuse its memory.
        let first = try load(warmUp.path)
        let measured = try withExtendedLifetime(first.container) { try load(path) }
        withExtendedLifetime(measured.container) {}
        print(measured.peak - measured.code, measured.retained - measured.code, measured.manifest, measured.code,
              first.peak)
    }

    /// Loads `path` into a container and measures what that added: the peak and what stays
    /// resident, both with code, the manifest's part without code, and the code paged in.
    private static func load(_ path: String) throws -> (container: Wiring.Container, peak: Int, retained: Int, manifest: Int, code: Int) {
        let peakBefore = maxResidentBytes(), before = residentBytes()
        let manifest = try ManifestLoader(environment: LoadingBenchmark.environment).load(path)
        let loaded = residentBytes()
        let container = try LoadingBenchmark.container(manifest, contexts: .none)
        let peakAfter = maxResidentBytes(), after = residentBytes()
        return (container, peakAfter - peakBefore, after.total - before.total,
                (loaded.total - loaded.fileBacked) - (before.total - before.fileBacked), after.fileBacked - before.fileBacked)
    }
}

/// A benchmark that cannot run as set up.
struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
