#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// When a reported piece of work began, on the container's clock (for durations) and on the
/// wall clock (for the report): what a start, a shutdown, a refresh and a reload each read once.
struct ReportClock {
    let began = ContinuousClock.now
    let wallBegan = Date()

    /// How long since it began.
    var elapsed: Duration { .now - began }
}
