import Foundation
import Wiring

/// An observer that does nothing: what the container pays to call one.
struct SilentObserver: ContainerObserver {}

/// What an observer costs on the resolve path: the same operations on a container with no
/// observer and on one with a silent observer, interleaved.
enum ObservingBenchmark {
    static func run(repetitions: Int, iterations: Int) throws {
        var observed = Wiring.Container.Options()
        observed.observers = [SilentObserver()]
        let plain = try ResolutionBenchmark.wiringContainer(), watched = try ResolutionBenchmark.wiringContainer(options: observed)
        let plainRequests = try AsyncBenchmark.wiringContainer(), watchedRequests = try AsyncBenchmark.wiringContainer(options: observed)
        let requests = max(iterations / 20, 1)
        func request(_ container: Wiring.Container) -> () throws -> Void {
            {
                _ = try AsyncBenchmark.blocking { () async throws -> Int in
                    for _ in 0..<requests {
                        _ = try await container.withScope { scope in try await scope.resolve(RequestUnit.self) }
                    }
                    return requests
                }
            }
        }
        let rows = [
            try comparedRow("singleton resolve", repetitions: repetitions, iterations: iterations,
                            ("no observer", { _ = try plain.resolve(Shared.self) }), ("one observer", { _ = try watched.resolve(Shared.self) })),
            try comparedRow("unique, 3 dependencies", repetitions: repetitions, iterations: iterations,
                            ("no observer", { _ = try plain.resolve(Composite.self) }), ("one observer", { _ = try watched.resolve(Composite.self) })),
            try comparedRow("request: scope, scoped + 2 deps, end (\(requests) per round)", repetitions: repetitions, iterations: 1,
                            ("no observer", request(plainRequests)), ("one observer", request(watchedRequests))),
        ]
        printTable(["operation", "no observer", "one observer", "ratio"], rows)
    }
}
