import CLibYAML
import Foundation
import Wiring
import Yams

/// Loading: Wiring's bytes-to-validated-model against a bare libyaml event parse of the same
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

    static func run(sizes: [Int], repetitions: Int, includeYams: Bool) throws {
        var rows: [[String]] = []
        for size in sizes {
            let path = try ManifestGenerator.write(services: size)
            let folder = (path as NSString).deletingLastPathComponent
            let rootBytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            let sharedBytes = Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/shared.yaml")))
            let bytes = rootBytes + sharedBytes
            let loader = ManifestLoader(environment: [:])

            let check = loader.validate(path)
            guard check.succeeded, check.manifest?.services.count == size else {
                throw BenchmarkError(
                    "the generated manifest of \(size) services (\(path)) loads \(check.manifest?.services.count ?? 0) services:\n"
                        + check.diagnostics.prefix(5).map(\.description).joined(separator: "\n"))
            }
            let rootText = String(decoding: rootBytes, as: UTF8.self)
            let sharedText = String(decoding: sharedBytes, as: UTF8.self)
            var operations: [(name: String, body: () throws -> Any)] = [
                ("bare libyaml", { bareParse(rootBytes) + bareParse(sharedBytes) }),
                ("wiring", { try loader.load(path) }),
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
            rows.append([
                "\(size)", "\(bytes.count / 1024) KB",
                formatTime(wiring.median) + String(format: " ±%.0f%%", wiring.spread * 50),
                formatTime(floor.median) + String(format: " ±%.0f%%", floor.spread * 50),
                String(format: "%.2f×", ratios[1]),
                yamsCell, yamsRatio,
                formatTime(wiring.median / Double(size)),
            ])
            try? FileManager.default.removeItem(atPath: folder)
        }
        printTable(
            ["services", "size", "wiring load", "bare libyaml", "wiring/libyaml", "Yams.compose", "Yams/wiring", "per service"],
            rows)
    }
}

/// A benchmark that cannot run as set up.
struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
