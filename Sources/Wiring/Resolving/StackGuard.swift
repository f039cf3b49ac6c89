internal import CYAML
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether the current thread's stack has room for one more level of resolution.
///
/// A fixed depth limit cannot protect every thread: debug builds use bigger frames, and worker
/// threads have smaller stacks. So each thread's stack bounds are read once (cached in a
/// thread-local) and every build checks the distance from the current position to the end.
enum StackGuard {
    /// Room kept free for what runs after the check: the factory, messages, the error path.
    static let margin = 128 * 1024

    /// Whether more than ``margin`` bytes of stack remain below the caller (`true` when that
    /// cannot be measured).
    static var hasRoom: Bool { hasRoom(below: lowestAddress) }

    /// Whether `here` is more than ``margin`` above the stack's lowest address. An address
    /// outside any plausible stack (below it, or far above it, as a local's address is under
    /// AddressSanitizer's "fake stack") says nothing, so the guard does not refuse on it.
    static func hasRoom(at here: UInt, lowestAddress low: UInt) -> Bool {
        guard here > low, here - low < 1 << 30 else { return true }
        return here - low > UInt(margin)
    }

    /// Whether the calling thread, whose stack starts at `low` (from ``lowestAddress(of:)``),
    /// has room: for a caller that already knows its thread.
    @inline(__always)
    static func hasRoom(below low: UInt?) -> Bool {
        guard let low else { return true }
        return hasRoom(at: UInt(wiring_frame_address()), lowestAddress: low)
    }

    /// The lowest address of this thread's stack, read once per thread.
    private static var lowestAddress: UInt? {
        ThreadState.withCurrent { lowestAddress(of: $0) }
    }

    /// The lowest address of `thread`'s stack (which must be the calling thread's state), read
    /// once; `nil` when it cannot be read.
    static func lowestAddress(of thread: ThreadState) -> UInt? {
        if thread.stackLow == 0 { thread.stackLow = readLowestAddress().flatMap { $0 > 1 ? $0 : nil } ?? 1 }
        return thread.stackLow == 1 ? nil : thread.stackLow
    }

    private static func readLowestAddress() -> UInt? {
        #if canImport(Darwin)
        let top = UInt(bitPattern: pthread_get_stackaddr_np(pthread_self()))
        return top - UInt(pthread_get_stacksize_np(pthread_self()))
        #elseif canImport(Glibc)
        let low = UInt(wiring_thread_stack_low())
        return low == 0 ? nil : low
        #else
        return nil
        #endif
    }
}
