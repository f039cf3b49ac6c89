/// Instants as offsets from one instant of the process, which have a fixed layout. Slots take
/// and keep offsets, not instants: an optional instant, even `nil`, is made and destroyed
/// through its type's value witnesses (its layout is not fixed at compile time), which cost
/// about 200 instructions per kept build.
enum Expiry {
    private static let epoch = ContinuousClock.now

    /// `instant` as the time since the process's epoch (negative before it).
    static func offset(_ instant: ContinuousClock.Instant) -> Duration {
        epoch.duration(to: instant)
    }

    /// The time `clock` tells, as an offset, when `timeToLive` makes instances expire; `nil`
    /// when they never do, without reading the clock. Not inlined: in an async caller, the
    /// instant took a task allocation of its own on every call.
    @inline(never)
    static func now(_ clock: () -> ContinuousClock.Instant, expiring timeToLive: Duration?) -> Duration? {
        timeToLive == nil ? nil : offset(clock())
    }
}
