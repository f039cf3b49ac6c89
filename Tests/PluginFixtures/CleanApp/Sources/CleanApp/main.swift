import Wiring

final class Clock: Sendable {
    let now: String
    init(now: String) { self.now = now }
}

final class Greeter: Sendable {
    let greeting: String
    let clock: Clock
    init(greeting: String, clock: Clock) {
        self.greeting = greeting
        self.clock = clock
    }
}

// Registered through the generated constants: a misspelt key would not compile.
let registry = FactoryRegistry()
registry.factory(WiringFactoryKeys.systemClock) { _ in Clock(now: "now") }
registry.factory(WiringFactoryKeys.fixedClock) { _ in Clock(now: "12:00") }
registry.factory(WiringFactoryKeys.consoleGreeter) { r in Greeter(greeting: try r.arg("greeting"), clock: try r.arg("clock", as: Clock.self)) }
registry.factory(WiringFactoryKeys.quietGreeter) { r in Greeter(greeting: "", clock: try r.arg("clock", as: Clock.self)) }
print("missing:", WiringFactoryKeys.missing(in: registry))
