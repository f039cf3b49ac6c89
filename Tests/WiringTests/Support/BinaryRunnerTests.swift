import Foundation
import Testing

/// The runner the binary tests start children with: its timeout stops a child that hangs, so a
/// test of something that must not hang fails instead of hanging the run.
@Suite("Binary runner")
struct BinaryRunnerTests {
    /// The child inherits the signal mask of the thread that starts it, and a dispatch worker
    /// thread (where tests run) blocks most signals, SIGTERM among them: a child stopped with
    /// SIGTERM never stopped.
    @Test func aChildThatHangsIsStoppedAtItsTimeout() throws {
        let started = ContinuousClock.now
        let output = try BinaryRunner.run(executable: URL(fileURLWithPath: "/bin/sleep"), ["60"], in: "/", environment: [:],
                                          timeout: .milliseconds(500))
        #expect(output.timedOut)
        #expect(output.status != 0)
        #expect(ContinuousClock.now - started < .seconds(30))
    }
}
