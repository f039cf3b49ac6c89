import Hummingbird
import Logging
import NotesCore
import NotesServerApp
import Wiring

/// The container's work for one request, measured in this process without HTTP: a scope,
/// seeded with a request log, NoteQueries resolved in it (the store, a unit of work and the log),
/// the scope ended;
/// against the same services made by hand. Steadier than wrk on a shared machine, and it
/// says how much of the difference wrk sees is the container's own.
///
/// Twice: back to back (hot: code and data stay in the core's caches), then with 1 MiB read
/// between requests (cold: what a loaded server's request finds, after the network stack,
/// Hummingbird and other requests ran since the last one). `coolingMiB` reads more than 1 MiB,
/// for a colder request: more of what it touches then comes from memory.
func inProcess(coolingMiB: Int) async throws {
    let container = try Notes.makeContainer(contexts: .explicit("test"), environment: ["HTTP_PORT": "0"])
    try await container.start()
    var logger = Logger(label: "notes-server")
    logger.logLevel = .warning
    let request = (id: "1", logger: logger)
    let store = try await container.resolve((any NoteStore).self)
    let between = CacheCooler(bytes: coolingMiB << 20)

    for (cool, iterations) in [(false, 200_000), (true, max(20_000 / coolingMiB, 2_000))] {
        let wired = try await perCall(iterations, cooling: cool ? between : nil) {
            let scope = container.makeScope()
            try scope.seed(RequestLog(requestID: request.id, logger: request.logger))
            _ = try await scope.resolve(NoteQueries.self)
            try await scope.end()
        }
        let byHand = await perCall(iterations, cooling: cool ? between : nil) {
            let log = RequestLog(requestID: request.id, logger: request.logger)
            let unit = UnitOfWork(log: log)
            _ = NoteQueries(store: store, unit: unit, log: log)
            unit.end()
        }
        print(String(format: "Hummingbird's scope work in process, %@: wired %.2f µs, by hand %.2f µs per request; the container's work %.2f µs "
                     + "(best of 5 × %d)",
                     cool ? "\(coolingMiB) MiB read between requests" : "back to back", wired, byHand, wired - byHand, iterations))
    }
    if between.checksum == 1 { print("") }
    try await container.shutdown()
}

/// Microseconds per call of `body`, the best of 5 rounds of `iterations`, `cooling` caches
/// before each call when given.
func perCall(_ iterations: Int, cooling: CacheCooler?, _ body: () async throws -> Void) async rethrows -> Double {
    var best = Double.infinity
    for _ in 0..<5 {
        let start = ContinuousClock.now
        for _ in 0..<iterations {
            cooling?.cool()
            try await body()
        }
        let elapsed = (ContinuousClock.now - start) / iterations
        best = min(best, Double(elapsed.components.attoseconds) / 1e12 + Double(elapsed.components.seconds) * 1e6)
    }
    return best
}

/// Evicts most of a core's L1 and L2 caches by reading a buffer a cache line at a time.
final class CacheCooler {
    private let words: UnsafeMutableBufferPointer<UInt64>
    /// What the reads added up: tested, so that they are not optimized away.
    private(set) var checksum: UInt64 = 0

    init(bytes: Int) {
        words = .allocate(capacity: bytes / 8)
        words.initialize(repeating: 1)
    }

    deinit { words.deallocate() }

    func cool() {
        var index = 0
        while index < words.count {
            checksum &+= words[index]
            index += 8
        }
    }
}
