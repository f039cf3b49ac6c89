import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Hummingbird
import HummingbirdTesting
import NotesServerTesting
import Synchronization
import Testing

/// `notes-server` with `NOTES_OTLP=1`, exporting to a collector on a loopback port: the test's
/// own OTLP/HTTP receiver, which keeps what it is sent (OTLP's JSON encoding).
@Suite("notes-server exporting over OTLP")
struct OTLPExportTests {
    @Test func theStartsSpanAndItsBuildsChildrenAndTheContainersMetricsReachTheCollector() async throws {
        let received = Received()
        let router = Router()
        for signal in ["traces", "metrics"] {
            router.post("v1/\(signal)") { request, _ -> Response in
                let body = try await request.body.collect(upTo: 16 << 20)
                received.add(signal, Data(buffer: body), contentType: request.headers[.contentType])
                return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: "{}")))
            }
        }
        try await Application(router: router).test(.live) { collector in
            let server = try ServerProcess.start("notes-server", environment: [
                "APP_ENV": "test", "NOTES_OTLP": "1",
                "OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:\(collector.port!)", "OTEL_EXPORTER_OTLP_PROTOCOL": "http/json",
                "OTEL_BSP_SCHEDULE_DELAY": "100", "OTEL_METRIC_EXPORT_INTERVAL": "200",
            ])
            let port = try server.waitForPort()
            // A request: a scope opened and ended, counted by the meter.
            let (_, response) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(port)/notes")!)
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            server.process.terminate()  // SIGTERM: the exporter stops last, flushing what is left.
            let (status, output) = server.wait()
            #expect(status == 0, "\(output.stderr)")
        }
        #expect(received.contentTypes.allSatisfy { $0.hasPrefix("application/json") }, "\(received.contentTypes)")

        let spans = try received.bodies("traces").flatMap(Self.spans)
        let starts = spans.filter { $0.name == "wiring.start" }
        try #require(starts.count == 1, "\(spans.map(\.name))")
        let builds = spans.filter { $0.name == "wiring.build" && $0.parent == starts[0].id && $0.trace == starts[0].trace }
        // The test context's eager services, each built by start under its span.
        #expect(Set(builds.compactMap { $0.attributes["wiring.service"] }).isSuperset(of: ["NoteStore", "LogLevel"]),
                "\(spans.map { ($0.name, $0.attributes) })")
        #expect(builds.allSatisfy { $0.attributes["wiring.scope"] != nil })
        // A dependency's build is a child of the build that asked for it, in the same trace.
        let buildIDs = Set(builds.map(\.id))
        #expect(spans.contains { $0.name == "wiring.build" && buildIDs.contains($0.parent ?? "") })
        #expect(spans.contains { $0.name == "wiring.shutdown" })

        let metrics = Set(try received.bodies("metrics").flatMap(Self.metricNames))
        #expect(metrics.isSuperset(of: ["wiring.builds", "wiring.build.duration", "wiring.scopes.open"]), "\(metrics)")
    }

    @Test func theExportAndThePrintedSpansTogetherStopStartUpWithAnError() throws {
        let server = try ServerProcess.start("notes-server", environment: ["APP_ENV": "test", "NOTES_OTLP": "1", "NOTES_TRACING": "1"])
        let (status, output) = server.wait()
        #expect(status == 1)
        #expect(output.stderr.contains("notes-server: NOTES_OTLP=1 and NOTES_TRACING=1 both ask for the process's tracer: set one of them"),
                "\(output.stderr)")
    }

    /// A span of an OTLP/JSON export: its ids as the export spells them, and its string attributes.
    struct ExportedSpan {
        let name: String
        let trace: String
        let id: String
        let parent: String?
        let attributes: [String: String]
    }

    /// The spans of one `ExportTraceServiceRequest` in OTLP's JSON encoding.
    static func spans(_ body: Data) throws -> [ExportedSpan] {
        let request = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
        var spans: [ExportedSpan] = []
        for resource in request["resourceSpans"] as? [[String: Any]] ?? [] {
            for scope in resource["scopeSpans"] as? [[String: Any]] ?? [] {
                for span in scope["spans"] as? [[String: Any]] ?? [] {
                    var attributes: [String: String] = [:]
                    for attribute in span["attributes"] as? [[String: Any]] ?? [] {
                        if let key = attribute["key"] as? String, let value = (attribute["value"] as? [String: Any])?["stringValue"] as? String {
                            attributes[key] = value
                        }
                    }
                    let parent = (span["parentSpanId"] as? String).flatMap { $0.isEmpty ? nil : $0 }
                    spans.append(ExportedSpan(name: span["name"] as? String ?? "", trace: span["traceId"] as? String ?? "",
                                              id: span["spanId"] as? String ?? "", parent: parent, attributes: attributes))
                }
            }
        }
        return spans
    }

    /// The metrics' names of one `ExportMetricsServiceRequest` in OTLP's JSON encoding.
    static func metricNames(_ body: Data) throws -> [String] {
        let request = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
        return (request["resourceMetrics"] as? [[String: Any]] ?? []).flatMap { resource in
            (resource["scopeMetrics"] as? [[String: Any]] ?? []).flatMap { scope in
                (scope["metrics"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
            }
        }
    }

    /// What the collector was sent, by signal.
    final class Received: Sendable {
        private let state = Mutex<(bodies: [String: [Data]], contentTypes: [String])>(([:], []))

        func add(_ signal: String, _ body: Data, contentType: String?) {
            state.withLock {
                $0.bodies[signal, default: []].append(body)
                $0.contentTypes.append(contentType ?? "none")
            }
        }

        func bodies(_ signal: String) -> [Data] { state.withLock { $0.bodies[signal] ?? [] } }
        var contentTypes: [String] { state.withLock { $0.contentTypes } }
    }
}
