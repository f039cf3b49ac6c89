/// Handing a typed factory its arguments, decoded when the container was built (as an `A`: the
/// factory registered under this key reads them): as they are, or, when they hold `@Reference`
/// fields, copied with the services this build resolves in place (see ``ReferenceSlot``).
/// Arguments whose references could not be placed are decoded at each build.
extension FactoryContext: ReferenceSource {
    /// The arguments of the factory running, as `A`.
    @usableFromInline
    func typedArguments<A: Decodable & Sendable>(_ type: A.Type) throws(ResolutionError) -> A {
        guard let stored = decodedArguments else { return try decodeArguments(A.self, references: self) }
        return stored.slots.isEmpty ? stored.value as! A : try fill(stored, as: A.self, through: self)
    }

    /// The arguments of the async factory running, as `A`, its references awaited first.
    @usableFromInline
    func typedArgumentsAwaitingReferences<A: Decodable & Sendable>(_ type: A.Type) async throws -> A {
        let stored = decodedArguments
        if let stored, stored.slots.isEmpty { return stored.value as! A }
        var awaited = AwaitedReferences(context: self)
        try await awaited.resolve(in: args)
        if let stored { return try fill(stored, as: A.self, through: awaited) }
        return try decodeArguments(A.self, references: awaited)
    }

    /// `stored` with its `@Reference` fields filled through `source`, errors as a resolve's.
    private func fill<A>(_ stored: DecodedArguments, as type: A.Type, through source: any ReferenceSource) throws(ResolutionError) -> A {
        do {
            return try stored.filled(A.self, through: source)
        } catch {
            throw argumentError(error)
        }
    }

    private func decodeArguments<A: Decodable & Sendable>(_ type: A.Type, references: any ReferenceSource) throws(ResolutionError) -> A {
        do {
            return try ArgumentDecoder.decode(A.self, from: args, references: references)
        } catch {
            throw argumentError(error)
        }
    }

    /// `error`, thrown while the arguments were decoded or filled in, as a resolve throws it.
    private func argumentError(_ error: any Error) -> ResolutionError {
        switch error {
        case let error as ResolutionError:
            return error
        case let failure as ArgumentFailure:
            let argument = failure.path.isEmpty ? "arguments" : "argument '\(failure.path)'"
            return self.error(.staticArgument(ManifestError(failure.message, at: failure.location)),
                              "\(failure.location): \(argument) of service \(serviceKey): \(failure.message)")
        default:
            return self.error(.staticArgument(ManifestError("\(error)", at: args.location)),
                              "\(args.location): arguments of service \(serviceKey): \(error)")
        }
    }

    /// The service (or services) `value` refers to, resolved now, within this resolution: an
    /// argument's own `!service` through the registration's table of them, as `r.arg` reads it.
    func instance<T>(for value: ManifestValue, path: String, as type: T.Type) throws -> T {
        if var instance = try referencedInstance(path) {
            if let typed = Container.cast(&instance, to: T.self) { return typed }
            return try referencedInstance(of: value, key: path, as: type, resolved: instance)
        }
        return try referencedInstance(of: value, key: path, as: type)
    }
}

/// The services a typed async factory's arguments refer to, awaited before its arguments are
/// decoded (decoding is synchronous), by where each reference is written.
private struct AwaitedReferences: ReferenceSource {
    let context: FactoryContext
    private var instances: [SourceLocation: Any] = [:]
    private var lists: [SourceLocation: [Any]] = [:]

    init(context: FactoryContext) { self.context = context }

    /// Awaits every service a value under `map` refers to.
    mutating func resolve(in map: ManifestMap) async throws {
        guard map.mayHoldServiceReferences else { return }
        for entry in map.entries { try await resolve(entry.value, path: entry.key) }
    }

    private mutating func resolve(_ value: ManifestValue, path: String) async throws {
        switch value.kind {
        case .service(let reference):
            instances[value.location] = try await context.resolve(key: reference.service, name: reference.name)
        case .tagged:
            guard case .many(let references) = try context.references(in: value, key: path) else { return }
            var resolved: [Any] = []
            for reference in references { resolved.append(try await context.resolve(key: reference.service, name: reference.name)) }
            lists[value.location] = resolved
        case .list(let values):
            for (index, element) in values.enumerated() { try await resolve(element, path: "\(path)[\(index)]") }
        case .map(let nested):
            for entry in nested.entries { try await resolve(entry.value, path: "\(path).\(entry.key)") }
        default:
            break
        }
    }

    func instance<T>(for value: ManifestValue, path: String, as type: T.Type) throws -> T {
        switch value.kind {
        case .service(let reference):
            if let instance = instances[value.location] { return try context.typed(instance, as: type, key: path, reference: reference) }
        case .tagged:
            if let list = lists[value.location] { return try context.typedList(list, as: type, key: path, value: value) }
        case .list(let values):
            let list = values.compactMap { instances[$0.location] }
            if list.count == values.count { return try context.typedList(list, as: type, key: path, value: value) }
        default:
            break
        }
        return try context.instance(for: value, path: path, as: type)
    }
}
