import Foundation

// Usage: WiringBenchmarks [resolution] [async] [observing] [loading] [scaling] [arguments] [autowiring] [children] [refresh] [--sizes 1000,10000] [--repetitions N] [--iterations N] [--no-yams] [--only <operation>] [--profile-load N] [--profile-bare N] [--profile-contexts N] [--profile-validate PATH] [--profile-requests N [unique|served|byhand] [cold] [observed]] [--profile-resolve N [autowired|packed]] [--profile-start N]
let arguments = CommandLine.arguments.dropFirst()
func option(_ name: String) -> String? {
    guard let index = arguments.firstIndex(of: name), arguments.index(after: index) < arguments.endIndex else { return nil }
    return arguments[arguments.index(after: index)]
}

if let path = option(MemoryProbe.argument) {
    try MemoryProbe.probe(path: path)
    exit(0)
}

// `--profile-load N`: only load the manifest of the first size N times, for a profiler.
if let count = option("--profile-load").flatMap(Int.init) {
    let size = option("--sizes")?.split(separator: ",").compactMap { Int($0) }.first ?? 10_000
    try LoadingBenchmark.profile(services: size, loads: count)
    exit(0)
}
// `--profile-bare N`: only parse the same files with bare libyaml N times, to compare with the above.
if let count = option("--profile-bare").flatMap(Int.init) {
    let size = option("--sizes")?.split(separator: ",").compactMap { Int($0) }.first ?? 10_000
    try LoadingBenchmark.profileBare(services: size, parses: count)
    exit(0)
}

// `--profile-contexts N`: load the manifest once, then build N containers with the `test` context from it.
if let count = option("--profile-contexts").flatMap(Int.init) {
    let size = option("--sizes")?.split(separator: ",").compactMap { Int($0) }.first ?? 10_000
    try LoadingBenchmark.profileContexts(services: size, builds: count)
    exit(0)
}

// `--profile-validate PATH`: only validate the manifest at PATH once, for a profiler.
if let path = option("--profile-validate") {
    ScalingBenchmark.profileValidate(path)
    exit(0)
}

// `--profile-requests N [unique|served|byhand] [cold] [observed]`: only N requests through a request scope (or
// N unique resolves, N requests as the notes server example serves them, or its services made
// by hand), `cold`: with 4 MiB read before each (see `AsyncBenchmark.profileRequests`).
if let count = option("--profile-requests").flatMap(Int.init) {
    try AsyncBenchmark.profileRequests(count, unique: arguments.contains("unique"), served: arguments.contains("served"),
                                      cold: arguments.contains("cold"), byHand: arguments.contains("byhand"),
                                      observed: arguments.contains("observed"))
    exit(0)
}

// `--profile-resolve N [autowired|packed]`: only N resolves of the "unique, 3 dependencies" row's service
// (or of the autowired row's, or of the one autowired through the parameter pack), for a profiler.
if let count = option("--profile-resolve").flatMap(Int.init) {
    try ResolutionBenchmark.profileUnique(count, autowired: arguments.contains("autowired"), packed: arguments.contains("packed"))
    exit(0)
}

// `--profile-start N`: only N starts of 500 eager services (the containers built first).
if let count = option("--profile-start").flatMap(Int.init) {
    try StartBenchmark.profile(count, buildOnly: arguments.contains("build"))
    exit(0)
}

// `--profile-typed N`: load the manifest once, then build N containers from it whose factories read typed arguments.
if let count = option("--profile-typed").flatMap(Int.init) {
    let size = option("--sizes")?.split(separator: ",").compactMap { Int($0) }.first ?? 500
    try ArgumentsBenchmark.profile(services: size, builds: count)
    exit(0)
}

let sizes = option("--sizes")?.split(separator: ",").compactMap { Int($0) } ?? [1_000, 10_000, 100_000]
let repetitions = option("--repetitions").flatMap(Int.init) ?? 7

let sections = Set(arguments.filter { !$0.hasPrefix("--") && Int($0.split(separator: ",").first ?? "") == nil })
let all = sections.isEmpty

if all || sections.contains("resolution") {
    let iterations = option("--iterations").flatMap(Int.init) ?? 200_000
    print("Resolution (release build, time per operation: median of \(repetitions) rounds of \(iterations), ± half the min–max spread)")
    try ResolutionBenchmark.run(repetitions: repetitions, iterations: iterations, only: option("--only"))
    print()
}
if all || sections.contains("async") {
    let iterations = option("--iterations").flatMap(Int.init) ?? 200_000
    print("Async (release build, time per operation: median of \(repetitions) rounds, ± half the min–max spread)")
    try AsyncBenchmark.run(repetitions: repetitions, iterations: iterations)
    print()
}
if all || sections.contains("observing") {
    let iterations = option("--iterations").flatMap(Int.init) ?? 200_000
    print("Observing (release build, median of \(repetitions) rounds)")
    try StartBenchmark.run(repetitions: repetitions)
    try ObservingBenchmark.run(repetitions: repetitions, iterations: iterations)
    try TracingBenchmark.run(repetitions: repetitions, iterations: iterations)
    print()
}
if sections.contains("scaling") {
    print("Scaling (release build: validate with every context checked, then build a container; median of \(repetitions) runs)")
    try ScalingBenchmark.run(repetitions: repetitions, only: option("--only"))
    print()
}
if all || sections.contains("arguments") {
    let iterations = option("--iterations").flatMap(Int.init) ?? 200_000
    print("Typed arguments (release build, median of \(repetitions) rounds)")
    try ArgumentsBenchmark.run(sizes: option("--sizes") == nil ? [500, 10_000] : sizes, repetitions: repetitions, iterations: iterations)
    print()
}
if all || sections.contains("autowiring") {
    print("Autowiring (release build, median of \(repetitions) rounds): registering factories, and building a container of their services")
    try AutowiringBenchmark.run(sizes: option("--sizes") == nil ? [500, 10_000] : sizes, repetitions: repetitions)
    print()
}
if all || sections.contains("children") {
    let iterations = option("--iterations").flatMap(Int.init) ?? 200_000
    print("Child containers (release build, median of \(repetitions) rounds)")
    try ChildrenBenchmark.run(sizes: option("--sizes") == nil ? [500, 10_000] : sizes, repetitions: repetitions, iterations: iterations)
    print()
}
if all || sections.contains("refresh") {
    let iterations = option("--iterations").flatMap(Int.init) ?? 200_000
    print("Live configuration (release build, median of \(repetitions) rounds)")
    try await RefreshBenchmark.run(repetitions: repetitions, iterations: iterations)
    print()
}
if all || sections.contains("loading") {
    print("Loading (release build, median of \(repetitions) runs, ± half the min–max spread)")
    try LoadingBenchmark.run(sizes: sizes, repetitions: repetitions, includeYams: !arguments.contains("--no-yams"))
}
