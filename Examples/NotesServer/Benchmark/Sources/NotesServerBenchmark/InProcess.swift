import Logging
import NotesServerApp
import Wiring

/// The container's work for one request, measured in this process without HTTP: a scope,
/// NoteQueries resolved in it (the store, a unit of work and a request log), the scope ended;
/// against the same services made by hand. Steadier than wrk on a shared machine, and it
/// says how much of the difference wrk sees is the container's own.
func inProcess(iterations: Int = 200_000) async throws {
    let container = try NotesServerApp.makeContainer(contexts: .explicit("test"), environment: ["PORT": "0"])
    try await container.start()
    var logger = Logger(label: "notes-server")
    logger.logLevel = .warning
    let request = (id: "1", logger: logger)
    let store = try await container.resolve((any NoteStore).self)

    func perCall(_ body: () async throws -> Void) async rethrows -> Double {
        var best = Double.infinity
        for _ in 0..<5 {
            let start = ContinuousClock.now
            for _ in 0..<iterations { try await body() }
            let elapsed = (ContinuousClock.now - start) / iterations
            best = min(best, Double(elapsed.components.attoseconds) / 1e12 + Double(elapsed.components.seconds) * 1e6)
        }
        return best
    }
    let wired = try await CurrentRequest.$info.withValue(request) {
        try await perCall {
            let scope = container.makeScope()
            _ = try await scope.resolve(NoteQueries.self)
            try await scope.end()
        }
    }
    let byHand = await perCall {
        let log = RequestLog(requestID: request.id, logger: request.logger)
        let unit = UnitOfWork(log: log)
        _ = NoteQueries(store: store, unit: unit, log: log)
        unit.end()
    }
    print(String(format: "in process, per request: wired %.2f µs, by hand %.2f µs (best of 5 × %d)", wired, byHand, iterations))
    try await container.shutdown()
}
