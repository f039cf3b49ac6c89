import Foundation
import InMemoryTracing
import Synchronization
import Tracing
import Wiring
import WiringObservability

/// What `ContainerTracing` costs, against no observer, interleaved: a start of 500 eager
/// services (a span per build, current while its factory runs, into an in-memory tracer that
/// keeps them, as an exporter's batch does), and resolves after start with no threshold.
enum TracingBenchmark {
    static func run(repetitions: Int, iterations: Int) throws {
        let tracer = InMemoryTracer()
        InstrumentationSystem.bootstrap(tracer)
        var traced = Wiring.Container.Options()
        traced.observers = [ContainerTracing()]
        let plain = Unstarted(try StartBenchmark.containers(repetitions + 1, services: 500))
        let watched = Unstarted(try StartBenchmark.containers(repetitions + 1, services: 500, options: traced))
        func start(_ containers: Unstarted) -> () throws -> Void {
            {
                guard let container = containers.next() else { return }
                _ = try AsyncBenchmark.blocking { () async throws -> Int in
                    try await container.start()
                    return 1
                }
                tracer.clearAll()
            }
        }
        let plainResolves = try ResolutionBenchmark.wiringContainer(), tracedResolves = try ResolutionBenchmark.wiringContainer(options: traced)
        let rows = [
            try comparedRow("start(), 500 eager services", repetitions: repetitions, iterations: 1,
                            ("no observer", start(plain)), ("ContainerTracing", start(watched))),
            try comparedRow("singleton resolve", repetitions: repetitions, iterations: iterations,
                            ("no observer", { _ = try plainResolves.resolve(Shared.self) }),
                            ("ContainerTracing", { _ = try tracedResolves.resolve(Shared.self) })),
            try comparedRow("unique, 3 dependencies", repetitions: repetitions, iterations: iterations,
                            ("no observer", { _ = try plainResolves.resolve(Composite.self) }),
                            ("ContainerTracing", { _ = try tracedResolves.resolve(Composite.self) })),
        ]
        printTable(["operation", "no observer", "ContainerTracing", "ratio"], rows)
    }
}

/// Containers not started yet, each taken once.
final class Unstarted: Sendable {
    private let containers: Mutex<[Wiring.Container]>
    init(_ containers: [Wiring.Container]) { self.containers = Mutex(containers) }
    func next() -> Wiring.Container? { containers.withLock { $0.popLast() } }
}
