import Wiring

let registry = FactoryRegistry()
registry.factory("console-greeter") { _ in "hello" }
// Nothing registers smtp-mailer.
