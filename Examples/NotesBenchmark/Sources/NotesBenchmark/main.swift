import Foundation

// `swift run -c release --package-path Examples/NotesBenchmark [SECONDS] [--pin] [--vapor]`
// (`--in-process [--cool MiB]`: the container's work per request alone, without HTTP, hot and
// cold, with 1 MiB or `--cool` MiB read between requests, and through WiringVapor's middleware)
//
// Serves `GET /notes/1` two ways, each in a process of its own, and loads both at the same
// time on loopback, each with its own wrk (the Hummingbird server; with `--vapor`, the Vapor
// one, whose by-hand server has the same middleware, routes and handler):
// - wired: the notes server as it ships (context `test`: the in-memory store, warnings only),
//   where each request gets a Wiring scope and resolves NoteQueries, which needs the
//   singleton store, the scoped UnitOfWork and the RequestLog the middleware seeds the scope with;
// - by hand: the same server (request context, two middleware layers, router paths, handler)
//   with those services made in a middleware and the store and request counter held in
//   variables, so that the difference is the container's work alone.
// A server's CPU time per request is its process's CPU time over the requests wrk counted;
// the container's share of a request is the difference over the wired figure. Ten rounds of
// 2 seconds (20 seconds of load in all); the share is the median of the rounds' shares. Side
// by side, what other tenants of a shared machine take in a round falls on both servers.
//
// `--pin` runs the wrks on CPU 0: with `taskset -c 1`, the servers share CPU 1.

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "--serve" {
    guard let arm = arguments.dropFirst().first.flatMap(Arm.init(rawValue:)) else {
        FileHandle.standardError.write(Data("error: --serve needs one of \(Arm.allCases.map(\.rawValue))\n".utf8))
        exit(2)
    }
    try await ServerProcess.serve(arm)
    exit(0)
}
let options = Options(arguments: arguments)
if arguments.contains("--in-process") {
    // Off the main actor, as request handlers run.
    try await Task.detached {
        try await inProcess(coolingMiB: options.coolingMiB)
        try await vaporInProcess(coolingMiB: options.coolingMiB)
    }.value
    exit(0)
}

let arms: [Arm] = options.vapor ? [.vaporHand, .vaporWired] : [.hand, .wired]
let servers = try arms.map { try ServerProcess($0) }
var runs: [[Run]] = []  // runs[round][arm]
for _ in 0..<options.rounds { runs.append(try round(servers, options: options)) }
for server in servers { server.stop() }

func microseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
}
func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return (sorted[(sorted.count - 1) / 2] + sorted[sorted.count / 2]) / 2
}
/// The CPU time per request of `arm` in each round, in µs.
@MainActor func cpu(_ arm: Arm) -> [Double] {
    let index = arms.firstIndex(of: arm)!
    return runs.map { microseconds($0[index].cpuPerRequest) }
}
print("\(options.vapor ? "Vapor" : "Hummingbird"): GET /notes/1, \(arms.count) servers side by side, each loaded by wrk -t1 -c\(options.connections)"
      + "\(options.pinned ? " on CPU 0" : ""), \(options.rounds) rounds of \(options.seconds) s")
for (index, arm) in arms.enumerated() {
    let rates = runs.map { String(format: "%.0f", $0[index].requestsPerSecond) }.joined(separator: ", ")
    let cpus = cpu(arm).map { String(format: "%.1f", $0) }.joined(separator: ", ")
    print("\(arm.label) \(rates) requests/s; server CPU per request \(cpus) µs")
}
/// Per round, what `arm` costs a request beyond `base`, as a share of the wired server's request.
@MainActor func shares(of arm: Arm, over base: Arm) -> [Double] {
    zip(zip(cpu(arm), cpu(base)), cpu(arms[1])).map { ($0.0 - $0.1) / $1 * 100 }
}
let wiredShares = shares(of: arms[1], over: arms[0])
print(String(format: "container's share of a request: %.1f %% of the server's CPU, the median of the rounds (%.1f to %.1f %%); %.1f of %.1f µs",
             median(wiredShares), wiredShares.min()!, wiredShares.max()!,
             median(cpu(arms[1])) - median(cpu(arms[0])), median(cpu(arms[1]))))
