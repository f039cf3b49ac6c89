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

    /// Parameters within the bound together, read by one value many times over: that value is
    /// an error at its position, found by validation; an environment variable read many times
    /// over, whose length only the running process knows, when the container is built. (Both
    /// were checked only as the text was made, at the first build, where the error had nowhere
    /// to go: the factory got "".)
    @Test func aValueFillingInPastTheBoundIsAnErrorBeforeAnythingIsBuilt() throws {
        var text = "wiring: 1\nparameters:\n  p0: xxxxxxxx\n"
        for index in 1...20 { text += "  p\(index): $(p\(index - 1))$(p\(index - 1))\n" }
        text += "services:\n  A: { factory: a, args: { text: \"$(p20)$(p20)$(p20)$(p20)$(p20)\" } }\n"
        let path = try TestSupport.temporaryFile(text)
        let registry = FactoryRegistry()
        registry.factory("a") { r in try r.arg("text", as: String.self).utf8.count }
        let error = #expect(throws: ManifestError.self) {
            try Container(manifest: path, registry: registry, contexts: .none, options: .init(environment: [:]))
        }
        #expect(error?.errors.map(\.message) == ["this value fills in to more than 32 MiB of text; is a parameter read many times over?"])
        #expect(error?.errors.first?.location.map { [$0.line, $0.column] } == [25, 34])
        // Four reads, 32 MiB, are within the bound.
        let within = try TestSupport.temporaryFile(text.replacingOccurrences(of: "$(p20)$(p20)$(p20)$(p20)$(p20)", with: "$(p20)$(p20)$(p20)$(p20)"))
        let container = try Container(manifest: within, registry: registry, contexts: .none, options: .init(environment: [:]))
        #expect(try container.resolve(key: "A") as? Int == 32 << 20)

        let environment = try TestSupport.temporaryFile("wiring: 1\nservices:\n  A: { factory: a, args: { text: \"${BIG}${BIG}${BIG}${BIG}\" } }\n")
        #expect(ManifestLoader(environment: [:]).validate(environment).diagnostics.filter { $0.severity == .error }.isEmpty)
        let big = String(repeating: "x", count: 10 << 20)
        let unbuilt = #expect(throws: ManifestError.self) {
            try Container(manifest: environment, registry: registry, contexts: .none, options: .init(environment: ["BIG": big]))
        }
        #expect(unbuilt?.errors.map(\.message) == ["this value fills in to more than 32 MiB of text; is a parameter read many times over?"])
        #expect(unbuilt?.errors.first?.location.map { [$0.line, $0.column] } == [3, 34])
    }

    @Test func cyclesSharingAParameterAreOneGroupReportedOnceByItsShortestPath() {
        let text = "wiring: 1\nparameters:\n  a: $(c)$(b)\n  b: $(a)\n  c: $(d)\n  d: $(a)\n  e: $(e)\n  f: $(a)\n"
        let lines = (try? TestSupport.validate(text: text)) ?? []
        #expect(lines == [
            "m.yaml:3:3: error: parameter cycle: a → b → a",
            "m.yaml:7:3: error: parameter cycle: e → e",
        ])
    }

    /// `S0`, decorated by `D0`, decorated by `D1`, … up to `D(count - 1)`.
    private func decoratorChain(_ count: Int) -> String {
        var text = "wiring: 1\nservices:\n  S0: { factory: base, scope: singleton }\n"
        for index in 0..<count { text += "  D\(index): { factory: wrap, decorates: \(index == 0 ? "S0" : "D\(index - 1)") }\n" }
        return text
    }

    @Test func aLongChainOfDecoratorsValidates() throws {
        // 1,000 took 9 s and 5,000 more than two minutes: each decorator's cycle check walked
        // the rest of the chain, searching the path at every step.
        let path = try TestSupport.temporaryFile(decoratorChain(5_000))
        let output = try run(["validate", path])
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
    }

    @Test func manyContextsAreEachCheckedAloneInLinearTime() throws {
        // 5,000 took 37 s: applying each context indexed every context and parameter again.
        var text = "wiring: 1\nparameters: { base: https://example.com }\nservices:\n"
        for index in 0..<50 { text += "  S\(index): { factory: f }\n" }
        text += "contexts:\n"
        for index in 0..<10_000 {
            text += "  c\(index):\n    services: { S\(index % 50): { scope: unique } }\n    parameters: { base: https://c\(index).example.com }\n"
        }
        let path = try TestSupport.temporaryFile(text)
        let output = try run(["validate", path])
        #expect(output.status == 0, "\(output.stdout.suffix(500))\(output.stderr.suffix(500))")
        #expect(output.stdout.contains("each context checked"))
    }

    @Test func aServiceListingThousandsOfTypesIsCheckedInLinearTime() throws {
        // 5,000 entries a service took 11 s, and 20,000 took minutes: each entry was compared
        // with every one before it.
        var text = "wiring: 1\nservices:\n"
        for service in 0..<5 {
            text += "  S\(service): { factory: f, implements: [" + (0..<20_000).map { "T\(service)x\($0)" }.joined(separator: ", ")
            text += ", T\(service)x7] }\n"
        }
        let path = try TestSupport.temporaryFile(text)
        let output = try run(["validate", path])
        let errors = output.stdout.split(separator: "\n").filter { $0.contains(": error: ") }
        #expect(errors.count == 5)
        #expect(errors.first?.contains("'T0x7' is listed twice in 'implements' of service 'S0'") == true)
    }

    @Test func aContainerBindsALongChainOfDecoratorsInOrder() throws {
        let path = try TestSupport.temporaryFile(decoratorChain(300))
        let registry = FactoryRegistry()
        registry.factory("base") { _ in "S0" }
        registry.factory("wrap") { r in try r.decorated(String.self) + ">" + r.serviceKey }
        let container = try Container(manifest: path, registry: registry, contexts: .none, options: .init(environment: [:]))
        let built = try container.resolve(key: "S0") as? String
        #expect(built == "S0" + (0..<300).map { ">D\($0)" }.joined())
    }

    @Test func aContainerFillsInAChainOfParametersInOrder() throws {
        let path = try TestSupport.temporaryFile(chain(2_000))
        let registry = FactoryRegistry()
        registry.factory("a") { r in try r.arg("v") as String }
        let container = try Container(manifest: path, registry: registry, contexts: .none, options: .init(environment: [:]))
        #expect(try container.resolve(key: "A") as? String == "x" + String(repeating: "y", count: 1_999))
    }
}
