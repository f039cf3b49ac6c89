#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// What ``Container/start()`` built and how long each build took: ``Container/startupReport``
/// once a start ended, and what observers get in ``ContainerObserver/containerStarted(_:)``.
///
/// ```text
/// start: 12 services in 84 ms; slowest NoteStore 61 ms
///   service      scope      own     total   dependencies
///   NoteStore    singleton  61 ms   70 ms   Database
///   Database     singleton  9.0 ms  9.0 ms
/// ```
///
/// A build's own time leaves out its dependencies' builds: a service that waited 60 ms for
/// its database shows the database's time on the database's row, also when another task of the
/// start was building the database and this build waited for it.
public struct StartupReport: Sendable, CustomStringConvertible {
    /// One service built during start.
    public struct Build: Sendable {
        /// The service, `Key` or `Key[name]`.
        public let service: ServiceID
        /// The service's scope.
        public let scope: Scope
        /// When the build began, after the start began.
        public let offset: Duration
        /// How long the build took, its dependencies' builds (and waits for another task's
        /// build of one) left out.
        public let duration: Duration
        /// How long the build took, its dependencies' builds included.
        public let elapsed: Duration
        /// The build whose factory asked for this one (an index into ``StartupReport/builds``);
        /// `nil` for a service start built for itself (`eager: true`).
        public let parent: Int?
        /// The dependencies this build built, `Key` or `Key[name]`, in the order they began,
        /// then those it waited for while another task built them.
        public let dependencies: [ServiceID]
        /// What the factory threw, when the build failed.
        public let error: (any Error)?

    }

    /// When the start began, on the wall clock.
    public let began: Date
    /// How long the whole start took.
    public let total: Duration
    /// Every build, in the order they began.
    public let builds: [Build]
    /// Why the start failed, if it did.
    public let error: (any Error)?

    /// The builds, the slowest (own time) first.
    public var slowest: [Build] { builds.sorted { $0.duration > $1.duration } }

    /// One line: `start: 12 services in 84 ms; slowest NoteStore 61 ms`, what `start()` logs.
    public var summary: String {
        Self.summary(count: builds.count, total: total, slowest: slowest.first.map { ($0.service.description, $0.duration) }, error: error)
    }

    /// The summary line of a start of `count` builds.
    static func summary(count: Int, total: Duration, slowest: (shown: String, duration: Duration)?, error: (any Error)?) -> String {
        var line = "start: \(count == 1 ? "1 service" : "\(count) services") in \(total.shortDescription)"
        if let slowest { line += "; slowest \(slowest.shown) \(slowest.duration.shortDescription)" }
        if let error { line += "; failed: \(error)" }
        return line
    }

    /// The summary, then one row per build, the slowest first.
    public var description: String {
        let rows = slowest.map { build in
            [build.service.description, build.scope.description, build.duration.shortDescription, build.elapsed.shortDescription,
             build.dependencies.map(\.description).joined(separator: ", ") + (build.error == nil ? "" : " (failed)")]
        }
        return ([summary] + ReportTable.lines(["service", "scope", "own", "total", "dependencies"], rows)).joined(separator: "\n")
    }
}

/// The rows of a report, in columns, indented under its summary.
enum ReportTable {
    static func lines(_ header: [String], _ rows: [[String]]) -> [String] {
        guard !rows.isEmpty else { return [] }
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { row in
            let cells = row.indices.map { column in
                column == row.count - 1 ? row[column] : row[column] + String(repeating: " ", count: widths[column] - row[column].count)
            }
            var line = "  " + cells.joined(separator: "  ")
            while line.last == " " { line.removeLast() }
            return line
        }
    }
}
