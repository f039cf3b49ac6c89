import Wiring

let registry = FactoryRegistry()
registry.factory(WiringFactoryKeys.fileNoteStor) { _ in "notes" }
