import Foundation

// Usage: WiringBenchmarks [loading] [--sizes 1000,10000] [--repetitions N] [--no-yams]
let arguments = CommandLine.arguments.dropFirst()
func option(_ name: String) -> String? {
    guard let index = arguments.firstIndex(of: name), arguments.index(after: index) < arguments.endIndex else { return nil }
    return arguments[arguments.index(after: index)]
}
let sizes = option("--sizes")?.split(separator: ",").compactMap { Int($0) } ?? [1_000, 10_000, 100_000]
let repetitions = option("--repetitions").flatMap(Int.init) ?? 7

print("Loading (release build, median of \(repetitions) runs, ± half the min–max spread)")
try LoadingBenchmark.run(sizes: sizes, repetitions: repetitions, includeYams: !arguments.contains("--no-yams"))
