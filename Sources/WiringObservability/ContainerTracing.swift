#if Observability
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Tracing
public import Wiring

/// A container's start, builds, shutdown, refreshes and reloads as spans of the process's
/// tracer (`InstrumentationSystem.tracer`, bootstrapped by the app: swift-otel, or any other
/// swift-distributed-tracing backend).
///
/// ```swift
/// var options = Container.Options()
/// options.observers = [ContainerTracing(slowBuildThreshold: .milliseconds(50))]
/// ```
///
/// The spans:
/// - `wiring.start`, with a child `wiring.build` for each service built during start, nested as
///   the builds nested (a dependency's span under the service that asked for it), each with the
///   attributes `wiring.service` (`Key` or `Key[name]`) and `wiring.scope`, and the error its
///   factory threw recorded on it;
/// - `wiring.shutdown`, with a child `wiring.hook` per shutdown hook (`wiring.service`,
///   `wiring.timed_out`, the hook's error);
/// - `wiring.refresh` (`wiring.changed_keys`, `wiring.dropped`) and `wiring.reload`
///   (`wiring.applied`), their problems recorded as errors;
/// - with a ``slowBuildThreshold``, a `wiring.build` for each build outside start of an
///   instance to keep that took longer, under the span current where it ran (a request's).
///   Such a span is made as its build ends, so a dependency built inside it, which ends first,
///   is its sibling, not its child.
///
/// The spans of a start or a shutdown are made as it ends, with the times each part began and
/// ended: the container measures them on its own clock, and no span is open while it builds.
public struct ContainerTracing: ContainerObserver {
    /// Builds outside start that take longer than this get a span; `nil`: none do.
    public var slowBuildThreshold: Duration?

    /// Spans through the process's tracer; with `slowBuildThreshold`, also for slow builds after start.
    public init(slowBuildThreshold: Duration? = nil) {
        self.slowBuildThreshold = slowBuildThreshold
    }

    public func containerStarted(_ report: StartupReport) {
        let tracer = InstrumentationSystem.tracer
        let began = TracingClock(report.began)
        let start = tracer.startSpan("wiring.start", context: Self.currentContext, at: began.at(.zero))
        start.attributes["wiring.services"] = report.builds.count
        var spans: [any Span] = []
        spans.reserveCapacity(report.builds.count)
        // A build's parent began before it, so its span is already made.
        for build in report.builds {
            let parent = build.parent.map { spans[$0].context } ?? start.context
            let span = tracer.startSpan("wiring.build", context: parent, at: began.at(build.offset))
            span.attributes["wiring.service"] = build.shown
            span.attributes["wiring.scope"] = build.scope.description
            if let error = build.error { Self.fail(span, with: error, at: began.at(build.offset + build.elapsed)) }
            spans.append(span)
        }
        for (span, build) in zip(spans, report.builds) { span.end(at: began.at(build.offset + build.elapsed)) }
        if let error = report.error { Self.fail(start, with: error, at: began.at(report.total)) }
        start.end(at: began.at(report.total))
    }

    public func containerBuilt(_ build: BuildEvent) {
        guard !build.duringStart, let threshold = slowBuildThreshold, build.duration > threshold else { return }
        let ended = TracingClock(Date())
        let span = InstrumentationSystem.tracer.startSpan("wiring.build", context: Self.currentContext,
                                                          at: ended.at(.zero - build.duration))
        span.attributes["wiring.service"] = build.shown
        span.attributes["wiring.scope"] = build.scope.description
        if let error = build.error { Self.fail(span, with: error, at: ended.at(.zero)) }
        span.end(at: ended.at(.zero))
    }

    public func containerShutDown(_ report: ShutdownReport) {
        let tracer = InstrumentationSystem.tracer
        let began = TracingClock(report.began)
        let shutdown = tracer.startSpan("wiring.shutdown", context: Self.currentContext, at: began.at(.zero))
        shutdown.attributes["wiring.hooks"] = report.hooks.count
        for hook in report.hooks {
            let span = tracer.startSpan("wiring.hook", context: shutdown.context, at: began.at(hook.offset))
            span.attributes["wiring.service"] = hook.shown
            span.attributes["wiring.timed_out"] = hook.timedOut
            if let error = hook.error { Self.fail(span, with: error, at: began.at(hook.offset + hook.duration)) }
            span.end(at: began.at(hook.offset + hook.duration))
        }
        if !report.failures.isEmpty { shutdown.setStatus(SpanStatus(code: .error, message: "\(report.failures.count) hooks failed")) }
        shutdown.end(at: began.at(report.total))
    }

    public func containerRefreshed(_ refresh: RefreshEvent) {
        let began = TracingClock(refresh.began)
        let span = InstrumentationSystem.tracer.startSpan("wiring.refresh", context: Self.currentContext, at: began.at(.zero))
        span.attributes["wiring.changed_keys"] = refresh.changedKeys
        span.attributes["wiring.dropped"] = refresh.dropped
        for problem in refresh.rejected + refresh.failures {
            Self.fail(span, with: ObservedProblem(description: problem.description), at: began.at(refresh.duration))
        }
        span.end(at: began.at(refresh.duration))
    }

    public func containerReloaded(_ reload: ReloadEvent) {
        let began = TracingClock(reload.began)
        let span = InstrumentationSystem.tracer.startSpan("wiring.reload", context: Self.currentContext, at: began.at(.zero))
        span.attributes["wiring.applied"] = reload.applied
        for problem in reload.failures {
            Self.fail(span, with: ObservedProblem(description: problem.description), at: began.at(reload.duration))
        }
        span.end(at: began.at(reload.duration))
    }

    /// The context a span the container starts goes under: the task's, or a new trace.
    private static var currentContext: ServiceContext { ServiceContext.current ?? .topLevel }

    /// Records `error` on `span` and marks it failed.
    private static func fail(_ span: any Span, with error: any Error, at instant: DefaultTracerClock.Instant) {
        span.recordError(error, attributes: [:], at: instant)
        span.setStatus(SpanStatus(code: .error, message: "\(error)"))
    }
}

/// A problem a refresh or a reload reported as text, recorded on its span as an error.
struct ObservedProblem: Error, CustomStringConvertible {
    let description: String
}

/// Tracer instants from a wall-clock start and offsets from it, as the container's reports
/// give their times.
struct TracingClock {
    private let nanoseconds: Int64

    init(_ date: Date) {
        nanoseconds = Int64((date.timeIntervalSince1970 * 1e9).rounded())
    }

    /// The instant `offset` after the start (before it, for a negative offset).
    func at(_ offset: Duration) -> DefaultTracerClock.Instant {
        let (seconds, attoseconds) = offset.components
        let total = nanoseconds + seconds * 1_000_000_000 + attoseconds / 1_000_000_000
        return DefaultTracerClock.Instant(nanosecondsSinceEpoch: UInt64(max(0, total)))
    }
}
#endif
