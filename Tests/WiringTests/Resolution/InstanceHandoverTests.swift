import Testing
@testable import Wiring

// A resolve hands the factory's instance to its caller through `Any`. An instance of exactly
// the class asked for is moved out of the existential instead of copied; these tests check that
// every way a factory can build an instance gives back that instance, counted right, and that a
// mismatch still names both types.

class Vehicle: @unchecked Sendable {}
final class Bicycle: Vehicle, @unchecked Sendable {}
final class Tram: @unchecked Sendable {}
protocol Rolling: AnyObject, Sendable {}
final class Scooter: Rolling {}
/// Too big for an existential's inline buffer, so `Any` stores it in a box of its own.
struct Ticket: Equatable {
    let number: Int
    let zone: String
    var validity: (Int, Int, Int) = (1, 2, 3)
    init(number: Int, zone: String) { (self.number, self.zone) = (number, zone) }
    static func == (a: Ticket, b: Ticket) -> Bool { a.number == b.number && a.zone == b.zone && a.validity == b.validity }
}
final class Journey: @unchecked Sendable {
    let vehicle: Vehicle
    let ticket: Ticket
    init(vehicle: Vehicle, ticket: Ticket) { (self.vehicle, self.ticket) = (vehicle, ticket) }
}

/// The instances a factory built, to compare with what resolves return.
final class Built: @unchecked Sendable {
    private let lock = Locked<[AnyObject]>([])
    func record<T: AnyObject>(_ object: T) -> T {
        lock.withLock { $0.append(object) }
        return object
    }
    var last: AnyObject? { lock.withLock { $0.last } }
    func removeAll() { lock.withLock { $0.removeAll() } }
}

@Suite("Instances handed over by a resolve")
struct InstanceHandoverTests {
    static let manifest = """
        wiring: 1
        services:
          Tram: { factory: tram, scope: unique }
          Vehicle: { factory: bicycle, scope: unique }
          Scooter: { factory: scooter, scope: unique, implements: [Rolling] }
          Ticket: { factory: ticket, scope: unique }
          Journey: { factory: journey, scope: unique }
          Shared: { factory: shared-tram, scope: singleton }
        """

    static func container(built: Built, vehicleAsSuperclass: Bool = false) throws -> Container {
        let registry = FactoryRegistry()
        registry.factory("tram") { _ in built.record(Tram()) }
        if vehicleAsSuperclass {
            // The factory's static type is the superclass: the existential stores `Vehicle`.
            registry.factory("bicycle") { _ -> Vehicle in built.record(Bicycle()) }
        } else {
            // The existential stores `Bicycle`, and `Vehicle` is asked for: a dynamic cast.
            registry.factory("bicycle") { _ in built.record(Bicycle()) }
        }
        registry.factory("scooter") { _ in built.record(Scooter()) }
        registry.factory("ticket") { _ in Ticket(number: 7, zone: "A") }
        registry.factory("journey") { r in Journey(vehicle: try r.resolve(), ticket: try r.resolve()) }
        registry.factory("shared-tram") { _ in built.record(Tram()) }
        return try Container(manifest: try TestSupport.temporaryFile(manifest), registry: registry, contexts: .none)
    }

    @Test func aClassBuiltAsItselfIsTheObjectTheFactoryBuilt() throws {
        let built = Built()
        let container = try Self.container(built: built)
        weak var released: Tram?
        do {
            let tram = try container.resolve(Tram.self)
            #expect(tram === built.last)
            released = tram
            built.removeAll()
        }
        // Moved out, not copied: once the caller and the record let go, the tram is freed.
        #expect(released == nil)
    }

    @Test(arguments: [false, true])
    func aSubclassResolvesAsItsSuperclass(factoryReturnsSuperclass: Bool) throws {
        let built = Built()
        let container = try Self.container(built: built, vehicleAsSuperclass: factoryReturnsSuperclass)
        let vehicle = try container.resolve(Vehicle.self)
        #expect(vehicle is Bicycle)
        #expect(vehicle === built.last)
        let journey = try container.resolve(Journey.self)
        #expect(journey.vehicle is Bicycle)
        #expect(journey.vehicle === built.last)
    }

    @Test func protocolsAndValuesResolveAsBefore() throws {
        let built = Built()
        let container = try Self.container(built: built)
        let rolling = try container.resolve((any Rolling).self)
        #expect(rolling === built.last)
        #expect(try container.resolve(Scooter.self) === built.last)
        #expect(try container.resolve(Ticket.self) == Ticket(number: 7, zone: "A"))
        #expect(try container.resolve(Journey.self).ticket == Ticket(number: 7, zone: "A"))
    }

    @Test func aFactoryThatReturnsAProtocolHandsOverItsObject() throws {
        // Built as `any Rolling` in the registry's generic code, so `Any` stores the existential.
        let built = Built()
        let registry = FactoryRegistry()
        registry.factory("scooter") { _ -> any Rolling in built.record(Scooter()) }
        let path = try TestSupport.temporaryFile("wiring: 1\nservices:\n  Scooter: { factory: scooter, scope: unique, implements: [Rolling] }\n")
        let container = try Container(manifest: path, registry: registry, contexts: .none)
        weak var released: (any Rolling)?
        do {
            let rolling = try container.resolve((any Rolling).self)
            #expect(rolling === built.last)
            #expect(try container.resolve(Scooter.self) === built.last)
            released = rolling
            built.removeAll()
        }
        #expect(released == nil)
    }

    @Test func aKeptClassIsTheSameObjectEveryTime() throws {
        let built = Built()
        let container = try Self.container(built: built)
        let first = try container.resolve(key: "Shared") as? Tram
        let again = try container.resolve(key: "Shared") as? Tram
        #expect(first != nil && first === again && first === built.last)
    }

    @Test func aClassOfAnotherTypeIsAMismatchThatNamesIt() throws {
        let registry = FactoryRegistry()
        registry.factory("tram") { _ in Tram() }
        registry.factory("bicycle") { _ in Bicycle() }
        registry.factory("journey") { r in Journey(vehicle: try r.resolve(Vehicle.self), ticket: Ticket(number: 1, zone: "B")) }
        let path = try TestSupport.temporaryFile("""
            wiring: 1
            services:
              Tram: { factory: bicycle, scope: unique }
              Vehicle: { factory: tram, scope: unique }
              Journey: { factory: journey, scope: unique }
            """)
        let container = try Container(manifest: path, registry: registry, contexts: .none)
        #expect {
            try container.resolve(Tram.self)
        } throws: { error in
            "\(error)" == "service Tram (\(path):3:3) produced Bicycle, which is not a Tram"
        }
        #expect {
            try container.resolve(Journey.self)
        } throws: { error in
            "\(error)".hasPrefix("service Vehicle (\(path):4:3) produced Tram, which is not a Vehicle")
        }
    }
}
