import Foundation

/// How the benchmark runs: `[SECONDS] [--pin] [--vapor] [--in-process [--cool MiB]]`.
///
/// Load lasts `rounds × seconds`: 10 rounds of 2 s, 20 s in all, by default.
struct Options {
    var seconds = 2
    var rounds = 10
    var connections = 16
    /// The wrks run on CPU 0 (start the benchmark with `taskset -c 1` to give the servers CPU 1).
    var pinned = false
    /// The Vapor servers rather than the Hummingbird ones.
    var vapor = false
    /// What `--in-process` reads between requests for its cold row, in MiB.
    var coolingMiB = 1

    init(arguments: [String]) {
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--pin": pinned = true
            case "--vapor": vapor = true
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

/// One round of one server: requests per second, and the server's CPU time per request.
struct Run {
    var requestsPerSecond: Double
    var cpuPerRequest: Duration
}

/// wrk loading one server for a round.
private struct Load {
    let server: ServerProcess
    let process = Process()
    let output = Pipe()
    let cpuBefore: Duration

    init(_ server: ServerProcess, options: Options) throws {
        self.server = server
        cpuBefore = try server.cpuTime()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let wrk = ["wrk", "-t1", "-c\(options.connections)", "-d\(options.seconds)s", "http://127.0.0.1:\(server.port)/notes/1"]
        process.arguments = options.pinned ? ["taskset", "-c", "0"] + wrk : wrk
        process.standardOutput = output
        try process.run()
    }

    /// What wrk measured, once it has ended.
    func finish(options: Options) throws -> Run {
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let cpu = try server.cpuTime() - cpuBefore
        // "  52345 requests in 2.00s, 9.10MB read"
        guard process.terminationStatus == 0, !text.contains("Non-2xx"),
              let line = text.split(separator: "\n").first(where: { $0.contains(" requests in ") }),
              let requests = Double(line.split(separator: " ").first ?? ""), requests > 0 else {
            throw BenchmarkError("wrk failed (is it installed? apt-get install wrk):\n\(text)")
        }
        return Run(requestsPerSecond: requests / Double(options.seconds), cpuPerRequest: cpu / requests)
    }
}

/// One round: every server loaded at the same time, each by a wrk of its own.
func round(_ servers: [ServerProcess], options: Options) throws -> [Run] {
    let loads = try servers.map { try Load($0, options: options) }
    return try loads.map { try $0.finish(options: options) }
}

struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
