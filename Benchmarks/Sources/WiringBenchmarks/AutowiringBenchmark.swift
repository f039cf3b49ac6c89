import Foundation
import Wiring

/// Autowired factories against the closures they replace, at start-up: registering N of
/// them, and building a container of N services whose factories they are (the autowired
/// ones' parameters are edges the reference checks walk). The resolve of one is a row of the
/// resolution table ("unique, 3 autowired dependencies").
enum AutowiringBenchmark {
    /// A manifest of `count` services, each built by the factory `f<i>` from the three leaves.
    static func manifest(_ count: Int) -> String {
        var text = "wiring: 1\nservices:\n  Leaf1: { factory: leaf1 }\n  Leaf2: { factory: leaf2 }\n  Leaf3: { factory: leaf3 }\n"
        for index in 0..<count { text += "  S\(index): { factory: f\(index), scope: unique }\n" }
        return text
    }

    static func registry(_ count: Int, autowired: Bool) -> FactoryRegistry {
        let registry = FactoryRegistry()
        registry.factory("leaf1") { _ in Leaf1() }
        registry.factory("leaf2") { _ in Leaf2() }
        registry.factory("leaf3") { _ in Leaf3() }
        for index in 0..<count {
            if autowired {
                registry.autowire("f\(index)", AutowiredComposite.init)
            } else {
                registry.factory("f\(index)") { r in
                    AutowiredComposite(a: try r.resolve(Leaf1.self), b: try r.resolve(Leaf2.self), c: try r.resolve(Leaf3.self))
                }
            }
        }
        return registry
    }

    static func run(sizes: [Int], repetitions: Int) throws {
        var rows: [[String]] = []
        for size in sizes {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("wiring-bench-autowire-\(UUID().uuidString).yaml").path
            try manifest(size).write(toFile: path, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(atPath: path) }
            let loaded = try ManifestLoader().load(path)
            let (registering, registerRatios) = try interleaved(repetitions: repetitions, [
                ("closures", { registry(size, autowired: false) }),
                ("autowired", { registry(size, autowired: true) }),
            ])
            let closures = registry(size, autowired: false), autowired = registry(size, autowired: true)
            let (building, buildRatios) = try interleaved(repetitions: repetitions, [
                ("closures", { try Container(manifest: loaded, registry: closures, contexts: .none) }),
                ("autowired", { try Container(manifest: loaded, registry: autowired, contexts: .none) }),
            ])
            rows.append(["register \(size) factories", formatTime(registering[0].median), formatTime(registering[1].median),
                         String(format: "%.2f×", registerRatios[1])])
            rows.append(["build a container of \(size)", formatTime(building[0].median), formatTime(building[1].median),
                         String(format: "%.2f×", buildRatios[1])])
        }
        printTable(["operation", "closures", "autowired", "autowired/closures"], rows)
    }
}
