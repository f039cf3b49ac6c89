/// Every `$(name)` a manifest's values read, in the order read, gathered as the decoder checks
/// the values: validation reports each reference to a parameter that is not defined.
///
/// A manifest reads few parameters, each many times (10,000 services reading `$(baseURL)` is
/// 10,000 references to one name). So each name is kept once, and a reference is the name's
/// number and a location: plain data. Recording a reference to a name read before makes no
/// string, and joining the references of several files copies plain values, where an array
/// of `Located<String>` made a string for each reference and copied each through the
/// runtime's generic copy.
package struct ParameterReferences: Sendable {
    /// The names read, each once, in the order first read.
    package private(set) var names: [String] = []
    /// The bytes of each of `names`, to find a name again by the bytes a template holds.
    private var nameBytes: [[UInt8]] = []
    /// Each name's number by its bytes, once there are more names than are worth comparing
    /// one by one.
    private var numbers: [[UInt8]: UInt32] = [:]
    /// Each reference, in the order read.
    private var places: [Place] = []

    /// One reference: the number of its name in `names`, and where it is.
    private struct Place: Sendable {
        var name: UInt32
        var location: SourceLocation
    }

    /// Up to this many names, a name is found by comparing its bytes with each; past it, by
    /// hashing.
    private static let namesComparedInTurn = 8

    package init() {}

    /// The number of references.
    package var count: Int { places.count }

    /// Whether there is none.
    package var isEmpty: Bool { places.isEmpty }

    /// Records a reference to the parameter whose name is `utf8`, at `location`.
    package mutating func append(name utf8: UnsafeBufferPointer<UInt8>, at location: SourceLocation) {
        places.append(Place(name: number(ofName: utf8), location: location))
    }

    /// Records a reference to the parameter `name`, at `location`.
    package mutating func append(name: String, at location: SourceLocation) {
        var name = name
        name.withUTF8 { append(name: $0, at: location) }
    }

    /// Appends the references of `later`, which follow these.
    package mutating func append(contentsOf later: ParameterReferences) {
        guard !later.isEmpty else { return }
        guard !names.isEmpty else {
            self = later
            return
        }
        let renumbered = later.nameBytes.map { bytes in bytes.withUnsafeBufferPointer { number(ofName: $0) } }
        for place in later.places {
            places.append(Place(name: renumbered[Int(place.name)], location: place.location))
        }
    }

    /// Calls `body` with each reference, in order: its name, the name's position in
    /// ``names``, and where it is.
    package func forEach(_ body: (_ name: String, _ number: Int, _ location: SourceLocation) throws -> Void) rethrows {
        for place in places { try body(names[Int(place.name)], Int(place.name), place.location) }
    }

    /// Each reference, in order, as a located name.
    package var all: [Located<String>] {
        places.map { Located(names[Int($0.name)], at: $0.location) }
    }

    /// The number of the name whose bytes are `utf8`, given one if it is new. Names are told
    /// apart by their bytes, so each reference keeps the spelling it was written with.
    private mutating func number(ofName utf8: UnsafeBufferPointer<UInt8>) -> UInt32 {
        if names.count <= Self.namesComparedInTurn {
            for (number, bytes) in nameBytes.enumerated() where bytes.withUnsafeBufferPointer({ $0.hasSameBytes(as: utf8) }) {
                return UInt32(number)
            }
            if names.count < Self.namesComparedInTurn { return add(utf8) }
        }
        if numbers.isEmpty {
            for (number, bytes) in nameBytes.enumerated() { numbers[bytes] = UInt32(number) }
        }
        let bytes = Array(utf8)
        if let number = numbers[bytes] { return number }
        let number = add(utf8)
        numbers[bytes] = number
        return number
    }

    /// Adds the name whose bytes are `utf8`; returns its number.
    private mutating func add(_ utf8: UnsafeBufferPointer<UInt8>) -> UInt32 {
        names.append(String(decoding: utf8, as: UTF8.self))
        nameBytes.append(Array(utf8))
        return UInt32(names.count - 1)
    }
}
