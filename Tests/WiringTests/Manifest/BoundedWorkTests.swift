import Foundation
import Testing
@testable import Wiring

/// A manifest that looks fine but is large along one dimension is read in time that grows with
/// its size, not faster. What hung or crashed runs the real binary in a child process with a
/// generous time limit, so that a regression fails instead of hanging the suite.
@Suite("Bounded work")
struct BoundedWorkTests {
    /// `count` parameters, each reading the one before (`p1: $(p0)y`), and a service reading
    /// the last.
    private func chain(_ count: Int) -> String {
        var text = "wiring: 1\nparameters:\n  p0: x\n"
        for index in 1..<count { text += "  p\(index): $(p\(index - 1))y\n" }
        return text + "services:\n  A: { factory: a, args: { v: $(p\(count - 1)) } }\n"
    }

    private func run(_ arguments: [String]) throws -> BinaryRunner.Output {
        let output = try BinaryRunner.run("wiring", arguments, timeout: .seconds(120))
        #expect(!output.timedOut, "wiring \(arguments.joined(separator: " ")) ran past its time")
        return output
    }

    @Test func aLongChainOfParametersValidates() throws {
        // 3,000 took minutes when each parameter's cycle check walked the chain again.
        let path = try TestSupport.temporaryFile(chain(3_000))
        let output = try run(["validate", path])
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
    }

    @Test func aLongChainOfParametersIsExplainedWithoutOverflowingTheStack() throws {
        // Filling in 5,000 parameters recursively overflowed the stack.
        let path = try TestSupport.temporaryFile(chain(5_000))
        let output = try run(["explain", path, "A"])
        #expect(output.status == 0, "\(output.stderr.prefix(2_000))")
        #expect(output.stdout.contains("x" + String(repeating: "y", count: 4_999)))
    }

    @Test func aLongCycleOfParametersIsReportedOnceWithItsPath() throws {
        let count = 1_600
        var text = "wiring: 1\nparameters:\n"
        for index in 0..<count { text += "  p\(index): $(p\((index + 1) % count))\n" }
        let path = try TestSupport.temporaryFile(text + "services:\n  A: { factory: a }\n")
        let output = try run(["validate", path])
        #expect(output.status == 1)
        let errors = output.stdout.split(separator: "\n").filter { $0.contains(": error: ") }
        let cycle = (0..<count).map { "p\($0)" } + ["p0"]
        #expect(errors == ["\(path):3:3: error: parameter cycle: " + cycle.joined(separator: " → ")])
    }

    @Test func parametersThatFillInExponentiallyAreRefusedBeforeAnyTextIsMade() throws {
        var text = "wiring: 1\nparameters:\n  p0: xxxxxxxx\n"
        for index in 1..<60 { text += "  p\(index): $(p\(index - 1))$(p\(index - 1))\n" }
        let path = try TestSupport.temporaryFile(text + "services:\n  A: { factory: a, args: { v: $(p59) } }\n")
        let output = try run(["validate", path])
        #expect(output.status == 1)
        #expect(output.stdout.contains(
            "\(path):25:3: error: parameters fill in to more than 32 MiB of text together; is a parameter read many times over?"))
        let explained = try run(["explain", path, "A"])
        #expect(explained.status == 1)
    }

    @Test func cyclesSharingAParameterAreOneGroupReportedOnceByItsShortestPath() {
        let text = "wiring: 1\nparameters:\n  a: $(c)$(b)\n  b: $(a)\n  c: $(d)\n  d: $(a)\n  e: $(e)\n  f: $(a)\n"
        let lines = (try? TestSupport.validate(text: text)) ?? []
        #expect(lines == [
            "m.yaml:3:3: error: parameter cycle: a → b → a",
            "m.yaml:7:3: error: parameter cycle: e → e",
        ])
    }

    @Test func aContainerFillsInAChainOfParametersInOrder() throws {
        let path = try TestSupport.temporaryFile(chain(2_000))
        let registry = FactoryRegistry()
        registry.factory("a") { r in try r.arg("v") as String }
        let container = try Container(manifest: path, registry: registry, contexts: .none, options: .init(environment: [:]))
        #expect(try container.resolve(key: "A") as? String == "x" + String(repeating: "y", count: 1_999))
    }
}
