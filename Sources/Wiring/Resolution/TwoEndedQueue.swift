/// Numbered parts of one job that two threads share: one takes them from the first on, the
/// other from the last back, so each works through a run of neighbouring parts and the two
/// meet wherever their speeds make them meet.
///
/// The reader shares the pieces of a large `services:` section this way, and the binder the
/// parts of a large manifest's services.
struct TwoEndedQueue: Sendable {
    private let bounds: Locked<(front: Int, back: Int)>

    /// A queue of the parts `0..<count`.
    init(count: Int) {
        bounds = Locked((front: 0, back: count))
    }

    /// The first part no thread has taken, if any.
    func takeFirst() -> Int? {
        bounds.withLock { bounds in
            guard bounds.front < bounds.back else { return nil }
            bounds.front += 1
            return bounds.front - 1
        }
    }

    /// The last part no thread has taken, if any.
    func takeLast() -> Int? {
        bounds.withLock { bounds in
            guard bounds.front < bounds.back else { return nil }
            bounds.back -= 1
            return bounds.back
        }
    }

    /// Leaves no part to take.
    func close() {
        bounds.withLock { $0.back = $0.front }
    }
}
