// Builds a container from the manifest named on the command line, with the contexts chosen at
// launch (WIRING_CONTEXT, --wiring-context), and prints what they changed. Its other modes (the
// first argument) each check one behaviour of the shared container and the property wrappers
// that needs a process of its own.
import Foundation
import Wiring

final class Greeter: Sendable {
    let text: String
    init(text: String) { self.text = text }
}

let registry = FactoryRegistry()
registry.factory("greeter") { r in
    let once = try r.arg("greeting", as: String.self) + (try r.arg("punctuation", default: ""))
    return Greeter(text: String(repeating: once, count: try r.arg("repeat", default: 1)))
}
for key in ["system-clock", "fixed-clock", "audit", "banner"] {
    registry.factory(key) { r in r.factoryKey }
}

// Injecting before any container is bootstrapped stops with a message that says what to do.
if CommandLine.arguments.dropFirst().first == "inject-before-bootstrap" {
    let greeter = Injected<Greeter>().wrappedValue
    print("unreachable: \(greeter.text)")
    exit(0)
}

// Setting a lazy wrapper's name after its first read stops with a message that says so.
if CommandLine.arguments.dropFirst().first == "rename-after-read" {
    final class Holder {
        @LazyInjected var greeter: Greeter
    }
    let path = temporaryManifest("services:\n  Greeter: { factory: greeter, args: { greeting: hi }, names: { loud: { args: { greeting: HI } } } }\n")
    let container = try! Container(manifest: path, registry: registry, contexts: .none)
    let holder = Holder()
    holder.$greeter.container = container
    FileHandle.standardOutput.write(Data("read: \(holder.greeter.text)\n".utf8))
    holder.$greeter.name = "loud"
    print("unreachable: \(holder.greeter.text)")
    exit(0)
}

// The launch README shows: bootstrap once, then the property wrappers of any object resolve
// from the shared container; `bootstrap(_:)` replaces it.
if CommandLine.arguments.dropFirst().first == "bootstrap" {
    final class Absent {}
    final class Screen {
        @Injected var greeter: Greeter
        @Injected(name: "loud") var loud: Greeter
        @LazyInjected var later: Greeter
        @OptionalInjected var absent: Absent?
    }
    func manifest(_ greeting: String) -> String {
        temporaryManifest("services:\n  Greeter: { factory: greeter, scope: singleton, args: { greeting: \(greeting) }, names: { loud: { args: { greeting: HI } } } }\n")
    }
    let container = try! Container.bootstrap(manifest: manifest("hi"), registry: registry, contexts: .none, checking: .instantiate)
    let screen = Screen()
    print("shared: \(Container.shared === container), current: \(Container.current === container)")
    print("injected: \(screen.greeter.text) \(screen.loud.text) \(screen.later.text) \(screen.absent == nil ? "nil" : "set")")
    print("kept: \(try! container.resolve(Greeter.self) === screen.greeter)")
    let other = try! Container(manifest: manifest("bye"), registry: registry, contexts: .none)
    Container.bootstrap(other)
    print("replaced: \(Container.shared === other), injected: \(Screen().greeter.text)")
    exit(0)
}

// A property wrapper whose resolve fails stops with the resolve's message: it cannot throw.
if CommandLine.arguments.dropFirst().first == "inject-failure" {
    final class Screen {
        @Injected var greeter: Greeter
    }
    Container.bootstrap(try! Container(manifest: temporaryManifest("services:\n  Greeter: { factory: greeter }\n"), registry: registry, contexts: .none))
    print("unreachable: \(Screen().greeter.text)")
    exit(0)
}

// Two threads entering a cycle of singletons from both ends (see CrossThreadCycles.swift).
if let mode = CommandLine.arguments.dropFirst().first, ["cycle-across-threads", "hook-cycle-across-threads"].contains(mode) {
    runCrossThreadCycle(hooks: mode == "hook-cycle-across-threads")
    exit(0)
}

// Factories that resolve through the container, not their context (see ContainerCycles.swift).
if CommandLine.arguments.dropFirst().first == "cycle-through-the-container" {
    runCyclesThroughTheContainer()
    exit(0)
}

// A cycle through a property wrapper is the resolution's own: it stops with its path.
protocol Journal: AnyObject {}
final class Invoice {
    @Injected var journal: any Journal
}
final class PaperJournal: Journal {
    init(invoice: Invoice) {}
}
if CommandLine.arguments.dropFirst().first == "wrapper-cycle" {
    registry.factory("invoice") { _ in Invoice() }
    registry.factory("journal") { r in PaperJournal(invoice: try r.resolve()) }
    let path = temporaryManifest("services:\n  Invoice: { factory: invoice }\n  PaperJournal: { factory: journal, implements: [Journal] }\n")
    let container = try! Container(manifest: path, registry: registry, contexts: .none)
    print("unreachable: \(try! container.resolve(Invoice.self))")
    exit(0)
}

guard CommandLine.arguments.count > 1 else {
    FileHandle.standardError.write(Data("usage: ContextProbe MANIFEST [--wiring-context NAMES]\n".utf8))
    exit(2)
}
do {
    let container = try Container(manifest: CommandLine.arguments[1], registry: registry)
    print(container.contextSummary)
    print("greeting: \(try container.resolve(Greeter.self).text)")
    print("clock: \(try container.resolve(key: "Clock"))")
} catch {
    print(error)
    exit(1)
}
