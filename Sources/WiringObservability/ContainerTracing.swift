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
/// - `wiring.start`, the current span while ``Wiring/Container/start()`` runs, with a child
///   `wiring.build` for each service built during start, each the current span while its
///   factory runs: a dependency's span is a child of the service that asked for it, and a span
///   the factory makes (a database's connect, an instrumented HTTP client's request) is a child
///   of its build's. Each has the attributes `wiring.service` (`Key` or `Key[name]`) and
///   `wiring.scope`;
/// - `wiring.shutdown`, with a child `wiring.hook` per shutdown hook (`wiring.service`,
///   `wiring.timed_out`);
/// - `wiring.refresh` (`wiring.changed_keys`, `wiring.dropped`) and `wiring.reload`
///   (`wiring.applied`), each problem a `wiring.failure` event with the attributes
///   `wiring.failure.kind`, `wiring.service`, `error.type`, `wiring.location` and the library's
///   `wiring.message`, as ``Wiring/ReportedFailure`` has them;
/// - with a ``slowBuildThreshold``, a `wiring.build` for each build outside start of an
///   instance to keep whose own time passed it, under the span current where it ran (a
///   request's). Such a span is made as its build ends, once it is known to be slow (a span,
///   once started, is exported): what the build did, a dependency's build or a span of its
///   factory's, is its sibling, not its child.
///
/// A failed build, hook or start records its error on its span, with the attribute
/// `error.type` (the type of what the factory threw) and the status `error`, which repeats no
/// text of the error's.
///
/// What it costs: a resolve after start pays nothing for it, with or without a threshold (a
/// build of an instance to keep is told to it as it ends, as to any observer).
public struct ContainerTracing: ContainerObserver {
    /// Builds outside start whose own time passes this get a span; `nil`: none do.
    public var slowBuildThreshold: Duration?

    /// Spans through the process's tracer; with `slowBuildThreshold`, also for slow builds after start.
    public init(slowBuildThreshold: Duration? = nil) {
        self.slowBuildThreshold = slowBuildThreshold
    }

    /// The start's span, for ``containerStarted(_:)``, which its start calls in its task.
    @TaskLocal private static var startSpan: (any Span)?

    /// Runs the start under a `wiring.start` span, the current span while it runs.
    public nonisolated(nonsending) func observingStart<E: Error>(
        _ body: nonisolated(nonsending) () async throws(E) -> Void
    ) async throws(E) {
        let span = InstrumentationSystem.tracer.startSpan("wiring.start", context: Self.currentContext)
        defer { span.end() }
        let result = await ServiceContext.$current.withValue(span.context) {
            await Self.$startSpan.withValue(span) { () async -> Result<Void, E> in
                do throws(E) {
                    return .success(try await body())
                } catch {
                    return .failure(error)
                }
            }
        }
        if case .failure(let error) = result { Self.fail(span, with: error) }
        try result.get()
    }

    /// Runs a build of the start under a `wiring.build` span, the current span while its
    /// factory runs; a failure is recorded on it.
    public func observingBuild<R, E: Error>(_ build: BuildStart, _ body: () throws(E) -> R) throws(E) -> R {
        let span = Self.buildSpan(build)
        defer { span.end() }
        let result = ServiceContext.$current.withValue(span.context) { Result { () throws(E) -> R in try body() } }
        if case .failure(let error) = result { Self.fail(span, with: error) }
        return try result.get()
    }

    /// Runs an async build of the start under a `wiring.build` span, as the synchronous form does.
    public nonisolated(nonsending) func observingBuild<R, E: Error>(
        _ build: BuildStart, _ body: nonisolated(nonsending) () async throws(E) -> R
    ) async throws(E) -> R {
        let span = Self.buildSpan(build)
        defer { span.end() }
        let result = await ServiceContext.$current.withValue(span.context) { () async -> Result<R, E> in
            do throws(E) {
                return .success(try await body())
            } catch {
                return .failure(error)
            }
        }
        if case .failure(let error) = result { Self.fail(span, with: error) }
        return try result.get()
    }

    /// Sets `wiring.services`, the number of builds, on the start's span.
    public func containerStarted(_ report: StartupReport) {
        Self.startSpan?.attributes["wiring.services"] = report.builds.count
    }

    /// Makes a `wiring.build` span for a build after start whose own time passed
    /// ``slowBuildThreshold``, as the build ends.
    public func containerBuilt(_ build: BuildEvent) {
        guard !build.duringStart, let threshold = slowBuildThreshold, build.duration > threshold else { return }
        let ended = TracingClock(Date())
        let span = InstrumentationSystem.tracer.startSpan("wiring.build", context: Self.currentContext,
                                                          at: ended.at(.zero - build.elapsed))
        span.attributes["wiring.service"] = build.service.description
        span.attributes["wiring.scope"] = build.scope.description
        if let error = build.error { Self.fail(span, with: error, at: ended.at(.zero)) }
        span.end(at: ended.at(.zero))
    }

    /// Makes the `wiring.shutdown` span, with a `wiring.hook` child per hook that ran.
    public func containerShutDown(_ report: ShutdownReport) {
        let tracer = InstrumentationSystem.tracer
        let began = TracingClock(report.began)
        let shutdown = tracer.startSpan("wiring.shutdown", context: Self.currentContext, at: began.at(.zero))
        shutdown.attributes["wiring.hooks"] = report.hooks.count
        for hook in report.hooks {
            let span = tracer.startSpan("wiring.hook", context: shutdown.context, at: began.at(hook.offset))
            span.attributes["wiring.service"] = hook.service.description
            span.attributes["wiring.timed_out"] = hook.timedOut
            if let error = hook.error { Self.fail(span, with: error, at: began.at(hook.offset + hook.duration)) }
            span.end(at: began.at(hook.offset + hook.duration))
        }
        if !report.failures.isEmpty { shutdown.setStatus(SpanStatus(code: .error)) }
        shutdown.end(at: began.at(report.total))
    }

    /// Makes a `wiring.refresh` span, each problem a `wiring.failure` event.
    public func containerRefreshed(_ refresh: RefreshEvent) {
        let began = TracingClock(refresh.began)
        let span = InstrumentationSystem.tracer.startSpan("wiring.refresh", context: Self.currentContext, at: began.at(.zero))
        span.attributes["wiring.changed_keys"] = refresh.changedKeys
        span.attributes["wiring.dropped"] = refresh.dropped
        Self.report(refresh.rejected + refresh.failures, on: span, at: began.at(refresh.duration))
        span.end(at: began.at(refresh.duration))
    }

    /// Makes a `wiring.reload` span, each problem a `wiring.failure` event.
    public func containerReloaded(_ reload: ReloadEvent) {
        let began = TracingClock(reload.began)
        let span = InstrumentationSystem.tracer.startSpan("wiring.reload", context: Self.currentContext, at: began.at(.zero))
        span.attributes["wiring.applied"] = reload.applied
        Self.report(reload.failures, on: span, at: began.at(reload.duration))
        span.end(at: began.at(reload.duration))
    }

    /// The context a span the container starts goes under: the task's, or a new trace.
    private static var currentContext: ServiceContext { ServiceContext.current ?? .topLevel }

    /// A started `wiring.build` span of `build`, under the current one.
    private static func buildSpan(_ build: BuildStart) -> any Span {
        let span = InstrumentationSystem.tracer.startSpan("wiring.build", context: currentContext)
        span.attributes["wiring.service"] = build.service.description
        span.attributes["wiring.scope"] = build.scope.description
        return span
    }

    /// Records `error` on `span` with its `error.type`, and marks the span failed.
    private static func fail(_ span: any Span, with error: any Error, at instant: DefaultTracerClock.Instant? = nil) {
        let type = errorType(of: error)
        span.attributes["error.type"] = type
        if let instant {
            span.recordError(error, attributes: ["error.type": .string(type)], at: instant)
        } else {
            span.recordError(error, attributes: ["error.type": .string(type)])
        }
        span.setStatus(SpanStatus(code: .error))
    }

    /// The type of what failed: for a factory that threw, the type of what it threw.
    static func errorType(of error: any Error) -> String {
        if let resolution = error as? ResolutionError, case .factoryFailed(let underlying) = resolution.kind {
            return errorType(of: underlying)
        }
        return String(describing: type(of: error))
    }

    /// Adds each of `failures` to `span` as a `wiring.failure` event, and marks the span failed
    /// when there is one.
    private static func report(_ failures: [ReportedFailure], on span: any Span, at instant: DefaultTracerClock.Instant) {
        for failure in failures {
            var attributes: SpanAttributes = ["wiring.failure.kind": .string(failure.kind.rawValue)]
            if let service = failure.service { attributes["wiring.service"] = service }
            if let type = failure.errorType { attributes["error.type"] = type }
            if let location = failure.location { attributes["wiring.location"] = location }
            if let message = failure.message { attributes["wiring.message"] = message }
            span.addEvent(SpanEvent(name: "wiring.failure", at: instant, attributes: attributes))
        }
        if !failures.isEmpty { span.setStatus(SpanStatus(code: .error)) }
    }
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
