import OTel
import ServiceLifecycle
import Wiring
import WiringObservability

/// With `NOTES_OTLP=1`: the container's spans and metrics exported by swift-otel over OTLP, to
/// the collector the standard `OTEL_*` variables name (`OTEL_EXPORTER_OTLP_ENDPOINT`, by
/// default `http://localhost:4318`; `OTEL_EXPORTER_OTLP_PROTOCOL`, `http/protobuf` by default,
/// or `http/json`). Logs stay on standard error.
///
/// ```swift
/// let telemetry = try NotesTelemetry(environment: environment)
/// let (container, _) = try await Notes.launchContainer(environment: environment, observers: telemetry.observers)
/// try await NotesServerApp.run(container: container, telemetry: telemetry.exporter)
/// ```
public struct NotesTelemetry: Sendable {
    /// What the container reports to: ``ContainerTracing`` and ``ContainerMetrics``, builds
    /// after start included from `NOTES_OTLP_THRESHOLD_MS` milliseconds (10 by default).
    public let observers: [any ContainerObserver]
    /// swift-otel's exporting service: the server's service group runs it first, so that it
    /// stops last and flushes what the container's shutdown recorded.
    public let exporter: (any Service)?

    /// Bootstraps swift-otel's tracer and metrics factory for the process when `NOTES_OTLP=1`;
    /// nothing otherwise.
    /// - Throws: `NotesTelemetry.Conflict` when `NOTES_TRACING=1` asks for the printed spans
    ///   too (a process has one tracer); swift-otel's error for a configuration it rejects.
    public init(environment: [String: String]) throws {
        guard environment["NOTES_OTLP"] == "1" else {
            observers = []
            exporter = nil
            return
        }
        guard environment["NOTES_TRACING"] != "1" else { throw Conflict() }
        var configuration = OTel.Configuration.default
        configuration.serviceName = "notes-server"
        configuration.logs.enabled = false
        let threshold = environment["NOTES_OTLP_THRESHOLD_MS"].flatMap(Int.init).map { Duration.milliseconds($0) } ?? .milliseconds(10)
        observers = [ContainerTracing(slowBuildThreshold: threshold), ContainerMetrics(slowBuildThreshold: threshold)]
        exporter = try OTel.bootstrap(configuration: configuration, environment: environment)
    }

    /// `NOTES_OTLP=1` and `NOTES_TRACING=1` together.
    public struct Conflict: Error, CustomStringConvertible {
        public var description: String {
            "NOTES_OTLP=1 and NOTES_TRACING=1 both ask for the process's tracer: set one of them"
        }
    }
}
