import Foundation
import Synchronization
import Testing
import Wiring

/// A service made afresh at each resolve (`unique`), to tell builds apart.
final class IssuedTicket: Sendable {
    static let issued = Atomic<Int>(0)
    let number: Int
    init() { number = IssuedTicket.issued.add(1, ordering: .relaxed).newValue }
}

/// References in place: top level, in a nested struct, in an optional nested struct.
struct PlacedArgs: Decodable, Sendable {
    struct Inner: Decodable, Sendable {
        var label: String
        @Reference var ticket: IssuedTicket
    }
    @Reference var first: IssuedTicket
    var inner: Inner
    var optional: Inner?
    var after: Int
}

/// References in a list of structs: not in the value's own bytes.
struct ListedArgs: Decodable, Sendable {
    struct Entry: Decodable, Sendable { @Reference var ticket: IssuedTicket }
    var entries: [Entry]
}

/// A reference and a check of its own on the other fields.
struct CheckedArgs: Decodable, Sendable {
    @Reference var ticket: IssuedTicket
    var low: Int
    var high: Int
    enum CodingKeys: String, CodingKey { case ticket, low, high }
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        _ticket = try container.decode(Reference<IssuedTicket>.self, forKey: .ticket)
        low = try container.decode(Int.self, forKey: .low)
        high = try container.decode(Int.self, forKey: .high)
        guard low <= high else { throw DecodingError.dataCorruptedError(forKey: .high, in: container, debugDescription: "high below low") }
    }
}

struct Placed: Sendable { let args: PlacedArgs }
struct Listed: Sendable { let args: ListedArgs }

@Suite("Typed arguments: references, at every build")
struct TypedReferenceTests {
    static let yaml = """
        services:
          IssuedTicket: { factory: ticket, scope: unique }
          Placed:
            factory: placed
            scope: unique
            args:
              first: !service IssuedTicket
              inner: { label: a, ticket: !service IssuedTicket }
              optional: { label: b, ticket: !service IssuedTicket }
              after: 7
          Listed:
            factory: listed
            scope: unique
            args: { entries: [{ ticket: !service IssuedTicket }, { ticket: !service IssuedTicket }] }
        """

    static func container() throws -> Container {
        let registry = FactoryRegistry()
        registry.factory("ticket") { _ in IssuedTicket() }
        registry.factory("placed", args: PlacedArgs.self) { _, args in Placed(args: args) }
        registry.factory("listed", args: ListedArgs.self) { _, args in Listed(args: args) }
        registry.factory("checked", args: CheckedArgs.self) { _, args in args.ticket }
        return try TypedFactoryFormsTests.container(yaml, registry)
    }

    @Test func eachBuildGetsItsOwnInstancesWhereverTheFieldsSit() throws {
        let container = try Self.container()
        let one = try container.resolve(Placed.self).args
        let two = try container.resolve(Placed.self).args
        let numbers = [one.first, one.inner.ticket, one.optional?.ticket, two.first, two.inner.ticket, two.optional?.ticket]
            .map { $0?.number ?? -1 }
        #expect(Set(numbers).count == 6, "every field of every build holds a ticket of its own: \(numbers)")
        #expect(one.inner.label == "a" && one.optional?.label == "b" && one.after == 7)
        let listed = try container.resolve(Listed.self).args
        #expect(listed.entries.count == 2 && listed.entries[0].ticket !== listed.entries[1].ticket)
    }

    @Test func buildsOnManyThreadsEachGetTheirOwn() async throws {
        let container = try Self.container()
        let numbers = try await withThrowingTaskGroup(of: [Int].self) { group in
            for _ in 0..<8 {
                group.addTask {
                    var seen: [Int] = []
                    for _ in 0..<200 {
                        let args = try container.resolve(Placed.self).args
                        seen += [args.first.number, args.inner.ticket.number, args.optional!.ticket.number]
                    }
                    return seen
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(numbers.count == 8 * 200 * 3)
        #expect(Set(numbers).count == numbers.count)
    }

    @Test func aTypesOwnErrorWithAReferenceStopsTheBuild() throws {
        let registry = FactoryRegistry()
        registry.factory("ticket") { _ in IssuedTicket() }
        registry.factory("checked", args: CheckedArgs.self) { _, args in args.ticket }
        let error = #expect(throws: ManifestError.self) {
            try TypedFactoryFormsTests.container("""
                services:
                  IssuedTicket: { factory: ticket }
                  Checked: { factory: checked, args: { ticket: !service IssuedTicket, low: 3, high: 1 } }
                """, registry)
        }
        #expect(error?.errors.map(\.message) == ["service Checked: argument 'high': high below low"])
    }
}
