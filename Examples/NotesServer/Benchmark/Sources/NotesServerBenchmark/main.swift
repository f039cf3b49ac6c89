import Foundation

// `swift run -c release --package-path Examples/NotesServer/Benchmark [SECONDS] [--pin]`
// (`--in-process [--cool MiB]`: the container's work per request alone, without HTTP, hot and
// cold, with 1 MiB or `--cool` MiB read between requests)
//
// Serves `GET /notes/1` two ways and loads each with wrk on loopback:
// - wired: the notes server as it ships (context `test`: the in-memory store, warnings only),
//   where each request gets a Wiring scope and resolves NoteQueries, which needs the
//   singleton store and the scoped UnitOfWork and RequestLog;
// - by hand: the same server (request context, two middleware layers, router paths, handler)
//   with those services made in a middleware and the store and request counter held in
//   variables, so that the difference is the container's work alone.
// The server's CPU time per request is this process's CPU time over the requests wrk counted
// (wrk is another process); the container's share of a request is the difference over the
// wired figure. The two alternate, five rounds of 2 seconds each (20 seconds of load in all),
// so that drift of a noisy machine falls on both, and the best round of each counts.
//
// `--split` adds a third server, by hand with what the notes server's middleware does around
// the container (the task-local request for the request log's factory, and the gathered body),
// to tell that part of the share from the container's own; three rounds of each (18 seconds).

let options = Options(arguments: Array(CommandLine.arguments.dropFirst()))
if CommandLine.arguments.contains("--in-process") {
    // Off the main actor, as request handlers run.
    try await Task.detached { try await inProcess(coolingMiB: options.coolingMiB) }.value
    exit(0)
}

var wiredRuns: [Run] = [], handRuns: [Run] = [], extrasRuns: [Run] = []
for _ in 0..<options.rounds {
    handRuns.append(try await measure(byHand, options: options))
    if options.split { extrasRuns.append(try await measure(byHandWithMiddlewareExtras, options: options)) }
    wiredRuns.append(try await measure(wired, options: options))
}

func microseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
}
func line(_ label: String, _ runs: [Run]) -> String {
    let rates = runs.map { String(format: "%.0f", $0.requestsPerSecond) }.joined(separator: ", ")
    let cpu = runs.map { String(format: "%.1f", microseconds($0.cpuPerRequest)) }.joined(separator: ", ")
    return "\(label) \(rates) requests/s; server CPU per request \(cpu) µs"
}
// The best of each: noise on a shared machine only ever makes a run slower.
let bestWired = wiredRuns.map { microseconds($0.cpuPerRequest) }.min()!
let bestHand = handRuns.map { microseconds($0.cpuPerRequest) }.min()!
print("GET /notes/1, wrk -t1 -c\(options.connections)\(options.pinned ? " on CPU 0" : ""), \(options.rounds) rounds of \(options.seconds) s each")
print(line("by hand:", handRuns))
if options.split { print(line("by hand with the middleware's extras:", extrasRuns)) }
print(line("wired:  ", wiredRuns))
print(String(format: "container's share of a request: %.1f %% of the server's CPU (%.1f of %.1f µs), %.1f %% of the requests per second",
             (1 - bestHand / bestWired) * 100, bestWired - bestHand, bestWired,
             (1 - wiredRuns.map(\.requestsPerSecond).max()! / handRuns.map(\.requestsPerSecond).max()!) * 100))
if options.split {
    let bestExtras = extrasRuns.map { microseconds($0.cpuPerRequest) }.min()!
    print(String(format: "of which the middleware's extras %.1f %% (%.1f µs), the container's own work %.1f %% (%.1f µs)",
                 (bestExtras - bestHand) / bestWired * 100, bestExtras - bestHand, (bestWired - bestExtras) / bestWired * 100, bestWired - bestExtras))
}
