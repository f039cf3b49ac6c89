import Foundation
import ServiceLifecycle
import Vapor

/// One of the servers the benchmark compares: each framework's notes server as it ships
/// (wired), and the same server with the request's services made by hand.
enum Arm: String, CaseIterable {
    case hand = "by-hand"
    case wired
    case vaporHand = "vapor-by-hand"
    case vaporWired = "vapor-wired"

    var label: String {
        switch self {
        case .hand, .vaporHand: "by hand:"
        case .wired, .vaporWired: "wired:"
        }
    }

    /// Starts the server on an ephemeral port of 127.0.0.1.
    func start() async throws -> RunningServer {
        switch self {
        case .hand: try await RunningServer(group: byHand)
        case .wired: try await RunningServer(group: NotesBenchmark.wired)
        case .vaporHand: try await RunningServer(vapor: NotesBenchmark.vaporByHand())
        case .vaporWired: try await RunningServer(vapor: NotesBenchmark.vaporWired())
        }
    }
}

/// A server running in a process of its own (this executable with `--serve ARM`), so that
/// its CPU time is its own while another server is loaded at the same time.
///
/// The servers compared run side by side, each loaded by its own wrk, rather than one after
/// the other: on a shared machine, what other tenants take (CPU time, caches) changes from
/// second to second, and side by side it falls on every server alike.
final class ServerProcess {
    let arm: Arm
    let port: Int
    private let process = Process()
    private let commands = Pipe()
    private let replies = Pipe()

    /// Starts the server and waits until it listens.
    init(_ arm: Arm) throws {
        self.arm = arm
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = ["--serve", arm.rawValue]
        process.standardInput = commands
        process.standardOutput = replies
        try process.run()
        guard let line = readLine(from: replies.fileHandleForReading), line.hasPrefix("port "),
              let port = Int(line.dropFirst(5)) else {
            throw BenchmarkError("the \(arm.rawValue) server did not start")
        }
        self.port = port
    }

    /// The CPU time the server's process has used so far, on every thread.
    func cpuTime() throws -> Duration {
        commands.fileHandleForWriting.write(Data("cpu\n".utf8))
        guard let line = readLine(from: replies.fileHandleForReading), let nanoseconds = Int64(line) else {
            throw BenchmarkError("the \(arm.rawValue) server did not say its CPU time")
        }
        return .nanoseconds(nanoseconds)
    }

    /// Stops the server: the end of its input makes it shut down gracefully.
    func stop() {
        try? commands.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    /// The child's side: serves `arm` until its input ends, answering each line of input with
    /// its CPU time in nanoseconds.
    static func serve(_ arm: Arm) async throws {
        let server = try await arm.start()
        let port = server.port
        reply("port \(port)")
        // Blocking reads, on a thread of their own: not on one of the few that serve requests.
        await withCheckedContinuation { (inputEnded: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread {
                while readLine() != nil {
                    let cpu = processCPUTime()
                    reply("\(cpu.components.seconds * 1_000_000_000 + cpu.components.attoseconds / 1_000_000_000)")
                }
                inputEnded.resume()
            }
        }
        try await server.stop()
    }

    private static func reply(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}

/// CPU time this process has used, on every thread.
func processCPUTime() -> Duration {
    var now = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now)
    return .seconds(now.tv_sec) + .nanoseconds(now.tv_nsec)
}

/// One line from `handle`, without its newline; nil at the end of input.
private func readLine(from handle: FileHandle) -> String? {
    var bytes: [UInt8] = []
    while true {
        let data = handle.readData(ofLength: 1)
        guard let byte = data.first else { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
        if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
        bytes.append(byte)
    }
}

/// A server the child process runs: its port, and how it stops gracefully.
struct RunningServer {
    let port: Int
    let stop: () async throws -> Void

    /// A Hummingbird server in a service group, once it listens.
    init(group makeGroup: (@escaping @Sendable (Int) async -> Void) async throws -> ServiceGroup) async throws {
        let (ports, listening) = AsyncStream<Int>.makeStream()
        let group = try await makeGroup { port in listening.yield(port) }
        let running = Task { try await group.run() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw BenchmarkError("the server did not start") }
        self.port = port
        stop = {
            await group.triggerGracefulShutdown()
            try await running.value
        }
    }

    /// A Vapor application, booted and serving.
    init(vapor app: Application) async throws {
        app.http.server.configuration.hostname = "127.0.0.1"
        app.http.server.configuration.port = 0
        try await app.asyncBoot()
        try await app.server.start(address: nil)
        guard let port = app.http.server.shared.localAddress?.port else { throw BenchmarkError("the Vapor server did not start") }
        self.port = port
        stop = {
            await app.server.shutdown()
            try await app.asyncShutdown()
        }
    }
}
