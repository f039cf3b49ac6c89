import Foundation
import Swinject
import Synchronization
import Wiring

// The graph both containers resolve.
final class Leaf1: Sendable {}
final class Leaf2: Sendable {}
final class Leaf3: Sendable {}
final class Composite: Sendable {
    let a: Leaf1, b: Leaf2, c: Leaf3
    init(a: Leaf1, b: Leaf2, c: Leaf3) { (self.a, self.b, self.c) = (a, b, c) }
}
final class Shared: Sendable {}

/// Resolution: Wiring against Swinject and two floors, per operation, interleaved by round.
enum ResolutionBenchmark {
    static let manifest = """
        wiring: 1
        services:
          Shared: { factory: shared, scope: singleton }
          Leaf1: { factory: leaf1, scope: unique }
          Leaf2: { factory: leaf2, scope: unique }
          Leaf3: { factory: leaf3, scope: unique }
          Composite: { factory: composite, scope: unique }
        """

    static func wiringContainer() throws -> Wiring.Container {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("wiring-bench-resolve-\(UUID().uuidString).yaml").path
        try manifest.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let registry = FactoryRegistry()
        registry.factory("shared") { _ in Shared() }
        registry.factory("leaf1") { _ in Leaf1() }
        registry.factory("leaf2") { _ in Leaf2() }
        registry.factory("leaf3") { _ in Leaf3() }
        registry.factory("composite") { r in
            Composite(a: try r.resolve(Leaf1.self), b: try r.resolve(Leaf2.self), c: try r.resolve(Leaf3.self))
        }
        return try Wiring.Container(manifest: path, registry: registry)
    }

    static func swinjectContainer() -> Swinject.Container {
        let container = Swinject.Container()
        container.register(Shared.self) { _ in Shared() }.inObjectScope(.container)
        container.register(Leaf1.self) { _ in Leaf1() }.inObjectScope(.transient)
        container.register(Leaf2.self) { _ in Leaf2() }.inObjectScope(.transient)
        container.register(Leaf3.self) { _ in Leaf3() }.inObjectScope(.transient)
        container.register(Composite.self) { r in
            Composite(a: r.resolve(Leaf1.self)!, b: r.resolve(Leaf2.self)!, c: r.resolve(Leaf3.self)!)
        }.inObjectScope(.transient)
        return container
    }

    /// Times `iterations` calls of `body`, returning one closure per operation for `interleaved`.
    static func loop(_ iterations: Int, _ body: @escaping () throws -> AnyObject) -> () throws -> Any {
        {
            var last: AnyObject?
            for _ in 0..<iterations { last = try body() }
            return last as Any
        }
    }

    static func run(repetitions: Int, iterations: Int) throws {
        let wiring = try wiringContainer()
        let swinject = swinjectContainer()
        let shared = Shared()
        let floor = Mutex<[ObjectIdentifier: Any]>([ObjectIdentifier(Shared.self): shared])

        let singletonOps: [(name: String, body: () throws -> Any)] = [
            ("floor: Mutex dictionary", loop(iterations) { floor.withLock { $0[ObjectIdentifier(Shared.self)] } as! Shared }),
            ("wiring", loop(iterations) { try wiring.resolve(Shared.self) }),
            ("swinject", loop(iterations) { swinject.resolve(Shared.self)! }),
        ]
        let (singleton, singletonRatios) = try interleaved(repetitions: repetitions, singletonOps)

        let uniqueOps: [(name: String, body: () throws -> Any)] = [
            ("floor: direct init", loop(iterations) { Composite(a: Leaf1(), b: Leaf2(), c: Leaf3()) }),
            ("wiring", loop(iterations) { try wiring.resolve(Composite.self) }),
            ("swinject", loop(iterations) { swinject.resolve(Composite.self)! }),
        ]
        let (unique, uniqueRatios) = try interleaved(repetitions: repetitions, uniqueOps)

        func perOp(_ m: Measurement) -> String { formatTime(m.median / Double(iterations)) }
        printTable(
            ["operation", "wiring", "swinject", "floor", "wiring/floor", "swinject/wiring"],
            [
                ["singleton resolve", perOp(singleton[1]), perOp(singleton[2]), perOp(singleton[0]),
                 String(format: "%.2f×", singletonRatios[1]), String(format: "%.1f×", singletonRatios[2] / singletonRatios[1])],
                ["unique, 3 dependencies", perOp(unique[1]), perOp(unique[2]), perOp(unique[0]),
                 String(format: "%.2f×", uniqueRatios[1]), String(format: "%.1f×", uniqueRatios[2] / uniqueRatios[1])],
            ])
    }
}
