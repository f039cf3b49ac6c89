import Foundation
import InMemoryTracing
import Synchronization
import Tracing
import Wiring
import WiringObservability

/// With `NOTES_TRACING=1`: the container's spans, printed. The process's tracer is
/// swift-distributed-tracing's in-memory one; a task prints its finished spans every 100 ms,
/// each indented under its parent. A server in production bootstraps swift-otel instead and
/// keeps the same observer.
///
/// ```text
/// span wiring.start 41 ms
///   span wiring.build NoteStore (singleton) 12 ms
///     span wiring.build Logger (singleton) 0.1 ms
/// span wiring.build UnitOfWork (scoped) 0.1 ms
/// ```
public enum NotesTracing {
    /// The observers a launched container gets: a ``ContainerTracing`` when `NOTES_TRACING=1`,
    /// with builds after start traced from `NOTES_TRACING_THRESHOLD_US` microseconds (0: each
    /// build of a request's scoped services); none otherwise.
    public static func observers(environment: [String: String]) -> [any ContainerObserver] {
        guard environment["NOTES_TRACING"] == "1" else { return [] }
        let threshold = environment["NOTES_TRACING_THRESHOLD_US"].flatMap(Int.init) ?? 0
        printer.start()
        return [ContainerTracing(slowBuildThreshold: .microseconds(threshold))]
    }

    /// Bootstraps the in-memory tracer and prints what it finished: once per process.
    private static let printer = Printer()

    private final class Printer: Sendable {
        let tracer = InMemoryTracer()
        private let started = Mutex(false)

        func start() {
            guard started.withLock({ started in defer { started = true }; return !started }) else { return }
            InstrumentationSystem.bootstrap(tracer)
            Task.detached { [tracer] in
                var depths: [String: Int] = [:]
                while true {
                    // Never cancelled: the task prints for the life of the process.
                    try? await Task.sleep(for: .milliseconds(100))
                    Self.print(tracer.popFinishedSpans(), depths: &depths)
                }
            }
        }

        /// Prints `spans` as trees, each span under its parent (a parent printed in an earlier
        /// batch keeps its depth), children in the order they began.
        static func print(_ spans: [FinishedInMemorySpan], depths: inout [String: Int]) {
            let ordered = spans.sorted { $0.startInstant.nanosecondsSinceEpoch < $1.startInstant.nanosecondsSinceEpoch }
            let ids = Set(ordered.map(\.spanID))
            var children: [String: [FinishedInMemorySpan]] = [:]
            var roots: [FinishedInMemorySpan] = []
            for span in ordered {
                if let parent = span.parentSpanID, ids.contains(parent) { children[parent, default: []].append(span) } else { roots.append(span) }
            }
            var lines = ""
            func add(_ span: FinishedInMemorySpan, depth: Int) {
                depths[span.spanID] = depth
                let nanoseconds = span.endInstant.nanosecondsSinceEpoch - span.startInstant.nanosecondsSinceEpoch
                let failed = span.errors.isEmpty ? "" : " failed: \(span.errors.map { "\($0.error)" }.joined(separator: "; "))"
                lines += String(repeating: "  ", count: depth) + "span \(span.operationName)" + text(span, "wiring.service", " %")
                    + text(span, "wiring.scope", " (%)") + " " + String(format: "%.1f ms", Double(nanoseconds) / 1e6) + failed + "\n"
                for child in children[span.spanID] ?? [] { add(child, depth: depth + 1) }
            }
            for root in roots { add(root, depth: root.parentSpanID.flatMap { depths[$0].map { $0 + 1 } } ?? 0) }
            if !lines.isEmpty { FileHandle.standardOutput.write(Data(lines.utf8)) }
        }

        /// The string attribute `key` of `span` put in `format` at `%`; empty when it has none.
        static func text(_ span: FinishedInMemorySpan, _ key: String, _ format: String) -> String {
            guard case .string(let value)? = span.attributes[key]?.toSpanAttribute() else { return "" }
            return format.replacingOccurrences(of: "%", with: value)
        }
    }
}
