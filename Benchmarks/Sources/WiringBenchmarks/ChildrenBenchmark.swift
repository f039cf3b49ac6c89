import Foundation
import Wiring

/// Child containers: what making one costs against loading its parent, and what resolving
/// through one costs against resolving through its parent.
enum ChildrenBenchmark {
    /// Three overrides, as a test writes them.
    static func overrides(_ overrides: Wiring.Container.Overrides) {
        overrides.override(key: "Service1") { _ in Shared() }
        overrides.override(key: "Service2") { _ in Shared() }
        overrides.override(key: "Service3", name: "replica") { _ in Shared() }
    }

    static func run(sizes: [Int], repetitions: Int, iterations: Int) throws {
        var rows: [[String]] = []
        let children = 1_000
        for size in sizes {
            let files = try GeneratedFiles(services: size)
            defer { files.remove() }
            let registry = ArgumentsBenchmark.registry(typed: false)
            func load() throws -> Wiring.Container {
                try Wiring.Container(manifest: files.path, registry: registry, contexts: .none, options: .init(environment: [:]))
            }
            let parent = try load()
            let (measured, _) = try interleaved(repetitions: repetitions, [
                ("load", { try load() }),
                ("\(children) children", { for _ in 0..<children { _ = try parent.child(overrides) }; return 0 }),
            ])
            let child = measured[1].median / Double(children)
            rows.append(["\(size)", formatTime(measured[0].median), formatTime(child),
                         String(format: "%.3f %%", 100 * child / measured[0].median)])
        }
        printTable(["services", "load + build", "child, 3 overrides", "child/load"], rows)
        print("(a child made and dropped; ratio of medians)")
        print()
        try resolution(repetitions: repetitions, iterations: iterations)
    }

    /// The resolution benchmark's graph, through its container and through a child of it whose
    /// three overrides replace services the measured resolves do not reach.
    static func resolution(repetitions: Int, iterations: Int) throws {
        let parent = try ResolutionBenchmark.wiringContainer()
        let child = try parent.child { overrides in
            overrides.override(PerThread0.self) { _ in PerThread0() }
            overrides.override(PerThread1.self) { _ in PerThread1() }
            overrides.override(Shared.self, name: "replica") { _ in Shared() }
        }
        let operations: [(String, (Wiring.Container) throws -> Any)] = [
            ("singleton, warm", { try $0.resolve(Shared.self) }),
            ("singleton by implements type", { try $0.resolve((any Reading).self) }),
            // Overridden in the child: its slot is the child's own (a block of ChildSlots).
            ("named singleton", { try $0.resolve(Shared.self, name: "replica") }),
            ("unique, 3 dependencies in code", { try $0.resolve(Composite.self) }),
            ("unique, 3 !service dependencies", { try $0.resolve(DeclaredComposite.self) }),
            ("graph diamond", { try $0.resolve(Top.self) }),
            ("by key", { try $0.resolve(key: "Composite") }),
        ]
        var rows: [[String]] = []
        for (name, resolve) in operations {
            rows.append(try comparedRow(name, repetitions: repetitions, iterations: iterations,
                                        ("parent", { _ = try resolve(parent) }), ("child", { _ = try resolve(child) })))
        }
        printTable(["resolve", "parent", "child", "child/parent"], rows)
    }
}
