/// Where a typed factory's arguments hold a `@Reference` field, and how a build fills it.
///
/// Arguments with a reference cannot be decoded once and handed to every build as they are:
/// each build resolves its own instance. Decoded at each build, a `unique` service whose
/// arguments are one `@Reference` took 2.0 µs to resolve (the `Decodable` machinery: a container
/// box, generic metadata and witness calls per field), against 0.21 µs with `r.arg`. So a
/// container decodes them once, with a placeholder box in each field, and finds where each
/// placeholder sits in the value's own bytes; a build copies the value and stores the box of
/// the instance it resolved at each place: 0.50 µs (`WiringBenchmarks arguments`, "unique, 1
/// reference"). A reference the bytes do not hold in place (in a list, in a class) is not
/// found, and such arguments are decoded at each build.
struct ReferenceSlot: Sendable {
    /// The placeholder's address, while the planned value holds it.
    fileprivate let placeholder: UInt
    /// Where the field's box is, in bytes from the start of the arguments value.
    fileprivate(set) var offset = -1
    /// Resolves the instance and boxes it as the field's type.
    let make: @Sendable (any ReferenceSource) throws -> AnyObject
}

/// The reference source of the decoding a container does when it is built: each `@Reference`
/// field gets a placeholder, recorded as a slot.
final class ReferencePlanner: ReferenceSource {
    private(set) var slots: [ReferenceSlot] = []

    func placeholder<T>(for value: ManifestValue, path: String, as type: T.Type) -> AnyObject {
        let boxType = ReferenceBox<T>.self
        let box = ReferencePlaceholder()
        slots.append(ReferenceSlot(placeholder: UInt(bitPattern: ObjectIdentifier(box))) { source in
            boxType.init(try source.instance(for: value, path: path, as: T.self))
        })
        return box
    }

    /// Placeholders stand where the services will: no instance is made while planning.
    func instance<T>(for value: ManifestValue, path: String, as type: T.Type) throws -> T {
        throw ArgumentFailure("is a service reference; it is resolved when the factory runs", at: value.location, path: path)
    }

    /// The slots with the place of each in `value`, which holds their placeholders; `nil` when
    /// one is not found exactly once in the value's own bytes.
    func located<A>(in value: A) -> [ReferenceSlot]? {
        guard !(A.self is AnyObject.Type) else { return nil }
        var located = slots
        let found = withUnsafeBytes(of: value) { bytes -> Bool in
            let word = MemoryLayout<UInt>.size
            guard bytes.count >= word else { return located.isEmpty }
            for index in located.indices {
                var hits = 0
                for offset in stride(from: 0, through: bytes.count - word, by: MemoryLayout<UnsafeRawPointer>.alignment)
                where bytes.loadUnaligned(fromByteOffset: offset, as: UInt.self) == located[index].placeholder {
                    hits += 1
                    located[index].offset = offset
                }
                if hits != 1 { return false }
            }
            return true
        }
        return found ? located : nil
    }
}

extension DecodedArguments {
    /// The arguments, which the container decoded as an `A`, each slot filled with the
    /// instance `source` resolves for it. (No optional of `A` on the way: in this generic code,
    /// each would look its metadata up.)
    func filled<A>(_ type: A.Type, through source: any ReferenceSource) throws -> A {
        var arguments = value as! A
        for slot in slots {
            let box = try slot.make(source)
            withUnsafeMutableBytes(of: &arguments) { Self.replace(at: slot.offset, in: $0, with: box) }
        }
        return arguments
    }

    /// Stores `box` at `offset` of `bytes` in place of the reference there: the copy held the
    /// placeholder (counted), the new box takes its place. Not generic, so that it looks no
    /// type's metadata up.
    private static func replace(at offset: Int, in bytes: UnsafeMutableRawBufferPointer, with box: AnyObject) {
        let placeholder = bytes.loadUnaligned(fromByteOffset: offset, as: UInt.self)
        bytes.storeBytes(of: UInt(bitPattern: Unmanaged.passRetained(box).toOpaque()), toByteOffset: offset, as: UInt.self)
        if let pointer = UnsafeRawPointer(bitPattern: placeholder) { Unmanaged<AnyObject>.fromOpaque(pointer).release() }
    }
}
