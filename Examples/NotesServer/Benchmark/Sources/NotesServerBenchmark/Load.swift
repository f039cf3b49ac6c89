import Foundation
import ServiceLifecycle

/// How the benchmark runs: `[SECONDS] [--pin] [--split] [--in-process [--cool MiB]]`.
struct Options {
    var seconds = 2
    var rounds = 5
    var connections = 16
    /// wrk runs on CPU 0 (start the benchmark with `taskset -c 1` to give the server CPU 1).
    var pinned = false
    /// What `--in-process` reads between requests for its cold row, in MiB.
    var coolingMiB = 1
    /// `--split`: a third server, by hand with the middleware's extras.
    var split = false

    init(arguments: [String]) {
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--pin": pinned = true
            case "--split":
                split = true
                rounds = 3
            case "--cool":
                guard let megabytes = rest.popFirst().flatMap({ Int($0) }), megabytes > 0 else {
                    FileHandle.standardError.write(Data("error: --cool needs a number of MiB greater than 0\n".utf8))
                    exit(2)
                }
                coolingMiB = megabytes
            default: if let seconds = Int(argument) { self.seconds = seconds }
            }
        }
    }
}

/// One wrk run: requests per second, and this process's CPU time per request (the server's:
/// wrk is another process).
struct Run {
    var requestsPerSecond: Double
    var cpuPerRequest: Duration
}

/// CPU time this process has used, on every thread.
func processCPUTime() -> Duration {
    var now = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now)
    return .seconds(now.tv_sec) + .nanoseconds(now.tv_nsec)
}

/// What `wrk` measured on one run.
func load(port: Int, options: Options) async throws -> Run {
    let cpuBefore = processCPUTime()
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    let wrk = ["wrk", "-t1", "-c\(options.connections)", "-d\(options.seconds)s", "http://127.0.0.1:\(port)/notes/1"]
    process.arguments = options.pinned ? ["taskset", "-c", "0"] + wrk : wrk
    let output = Pipe()
    process.standardOutput = output
    // Waiting without holding one of the few threads that serve the requests.
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        process.terminationHandler = { _ in done.resume() }
        do { try process.run() } catch { done.resume() }
    }
    let cpu = processCPUTime() - cpuBefore
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    guard process.terminationStatus == 0,
          let line = text.split(separator: "\n").first(where: { $0.hasPrefix("Requests/sec:") }),
          let rate = Double(line.split(separator: " ").last ?? ""),
          !text.contains("Non-2xx") else {
        throw BenchmarkError("wrk failed (is it installed? apt-get install wrk):\n\(text)")
    }
    return Run(requestsPerSecond: rate, cpuPerRequest: cpu / (rate * Double(options.seconds)))
}

/// Starts the server `makeGroup` makes, loads it with wrk, and stops it.
func measure(_ makeGroup: (@escaping @Sendable (Int) async -> Void) async throws -> ServiceGroup, options: Options) async throws -> Run {
    let (ports, listening) = AsyncStream<Int>.makeStream()
    let group = try await makeGroup { port in listening.yield(port) }
    let running = Task { try await group.run() }
    var iterator = ports.makeAsyncIterator()
    guard let port = await iterator.next() else { throw BenchmarkError("the server did not start") }
    let result = try await load(port: port, options: options)
    await group.triggerGracefulShutdown()
    try await running.value
    return result
}


struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
