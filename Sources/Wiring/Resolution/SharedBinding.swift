import Dispatch

/// Binding a large manifest, shared between the thread that builds the container and the
/// thread that validates the manifest meanwhile: once validation is over, that thread binds
/// parts of the services too, from the last part back, while the building thread binds from
/// the first on.
///
/// The building thread calls ``bind(_:targets:)``; the other calls ``help(waitingForStart:)``,
/// which returns at once if binding has not started yet (the building thread then binds every
/// part itself), unless it is told to wait for the start.
final class SharedBinding: Sendable {
    private struct Work: Sendable {
        let plan: BindingPlan
        let parts: [Range<Int>]
        let targets: TargetBuffer
        let queue: TwoEndedQueue
    }

    private let work = Locked<Work?>(nil)
    /// The parts the helping thread bound, by number.
    private let helped = Locked<[Int: BoundPart]>([:])
    /// Entered by the helping thread before it takes a part, left once that part is stored.
    private let helping = DispatchGroup()
    /// Signalled once the parts are there to take.
    private let started = DispatchSemaphore(value: 0)

    /// The fewest services in a part: smaller parts are not worth the handing over.
    static let minimumPart = 256
    /// How many parts a large manifest is bound in, at most.
    static let maximumParts = 16

    /// Binds the services of `plan`'s manifest in parts, which the helping thread may share,
    /// storing their targets in `targets`; returns every part, in manifest order.
    func bind(_ plan: BindingPlan, targets: TargetBuffer) -> [BoundPart] {
        let count = plan.manifest.services.count
        let partCount = max(1, min(Self.maximumParts, count / Self.minimumPart))
        let parts = (0..<partCount).map { number in
            (count * number / partCount)..<(count * (number + 1) / partCount)
        }
        let work = Work(plan: plan, parts: parts, targets: targets, queue: TwoEndedQueue(count: partCount))
        self.work.withLock { $0 = work }
        started.signal()
        var bound: [BoundPart?] = Array(repeating: nil, count: partCount)
        while let number = work.queue.takeFirst() {
            bound[number] = plan.bind(parts[number], targets: targets)
        }
        // Every part is taken; wait for those the other thread is still binding.
        helping.wait()
        let theirs = helped.withLock { $0 }
        return bound.indices.compactMap { bound[$0] ?? theirs[$0] }
    }

    /// Binds parts that the building thread has not taken, until none is left; returns how
    /// many it bound.
    ///
    /// - Parameter waitingForStart: Whether to wait for the building thread to start binding,
    ///   rather than return at once if it has not: only for a thread started just before it,
    ///   which is certain to bind (it would otherwise be waited for forever).
    @discardableResult
    func help(waitingForStart: Bool = false) -> Int {
        if waitingForStart { started.wait() }
        guard let work = work.withLock({ $0 }) else { return 0 }
        var count = 0
        while true {
            helping.enter()
            defer { helping.leave() }
            guard let number = work.queue.takeLast() else { return count }
            let part = work.plan.bind(work.parts[number], targets: work.targets)
            helped.withLock { $0[number] = part }
            count += 1
        }
    }
}
