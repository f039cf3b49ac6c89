/// What checks the values a ``NodeStore`` takes in, in one walk over them once they are copied.
package protocol ValueChecker {
    /// Sees a key of a mapping being stored that is not a name: not a scalar, or empty.
    mutating func invalidKey(_ key: StoredNode)
    /// Sees a scalar being stored whose text (`utf8`) holds a `$`; returns what it holds of
    /// references.
    mutating func checkReferences(in utf8: UnsafeBufferPointer<UInt8>, of scalar: StoredNode) -> ReferenceScan
    /// Sees a node tagged `!service` or `!tagged` being stored.
    mutating func checkServiceReference(_ node: StoredNode)
}

/// A manifest keeps its values (args, parameters, overrides) in node stores: these read them
/// as ``ManifestValue``s and check them as they are copied in.
extension NodeStore {
    /// Stores a copy of `node` (from another store) and everything under it, checked by
    /// `checker`; returns its place, and what its scalars hold of references.
    package func append<Checker: ValueChecker>(_ node: StoredNode, checking checker: inout Checker) -> (index: Index, references: ReferenceScan) {
        let index = append(copyOf: node.index, from: node.store)
        var found = ReferenceScan()
        check(index, with: &checker, found: &found)
        return (index, found)
    }

    /// Hands `checker` each key under the node at `index` that is not a name, and each scalar
    /// value that holds a `$`, gathering in `found` what those hold of references.
    private func check<Checker: ValueChecker>(_ index: Index, with checker: inout Checker, found: inout ReferenceScan) {
        let tag = tag(index)
        if tag == .service || tag == .tagged {
            checker.checkServiceReference(StoredNode(store: self, index: index))
            found.insert(.services)
            return
        }
        if isScalar(index) {
            withText(index) { utf8 in
                if utf8.contains(UInt8(ascii: "$")) {
                    found.formUnion(checker.checkReferences(in: utf8, of: StoredNode(store: self, index: index)))
                }
            }
        } else if isMapping(index) {
            var children = children(of: index)
            while let key = children.next(), let value = children.next() {
                // Keys are names, not values: what they hold is neither checked nor found.
                if !isScalar(key) || count(ofBytes: key) == 0 {
                    checker.invalidKey(StoredNode(store: self, index: key))
                }
                check(value, with: &checker, found: &found)
            }
        } else {
            for child in children(of: index) { check(child, with: &checker, found: &found) }
        }
    }

    /// The value of the node at `index`, for a ``ManifestValue``: a string with references is
    /// its template.
    func content(_ index: Index) -> ManifestValue.Content {
        let kind = kind(index)
        // Malformed templates were reported when loading; here they read as text.
        if case .string(let text) = kind, let template = try? StringTemplate.parse(text) { return .template(template) }
        return .value(kind)
    }

    /// The value of the node at `index`, a string with references as the text written.
    func kind(_ index: Index) -> ManifestValue.Kind {
        let tag = tag(index)
        if tag == .service || tag == .tagged {
            switch referenceTarget(index) {
            case .service(let reference)?: return .service(reference)
            case .tagged(let name, _)?: return .tagged(name)
            // A malformed reference was reported when loading; here it reads as null.
            case nil: return .null
            }
        }
        if isMapping(index) { return .map(ManifestMap(store: self, index: index)) }
        if !isScalar(index) { return .list(children(of: index).map { ManifestValue(store: self, index: $0) }) }
        switch resolvedScalar(index) ?? .string(text(index)) {
        case .null: return .null
        case .bool(let flag): return .bool(flag)
        case .int(let number): return .int(number)
        case .double(let number): return .double(number)
        case .string(let text): return .string(text)
        }
    }

    /// Calls `found` with each node tagged `!service` or `!tagged` at or under `index`, and
    /// the steps down to it, after those in `steps`.
    func forEachServiceReference(
        under index: Index, steps: inout [ArgumentPath.Step], _ found: (Index, [ArgumentPath.Step]) -> Void
    ) {
        let tag = tag(index)
        if tag == .service || tag == .tagged {
            found(index, steps)
        } else if isMapping(index) {
            var children = children(of: index)
            while let key = children.next(), let value = children.next() {
                steps.append(.key(key))
                forEachServiceReference(under: value, steps: &steps, found)
                steps.removeLast()
            }
        } else if !isScalar(index) {
            for (offset, element) in children(of: index).enumerated() {
                steps.append(.element(offset))
                forEachServiceReference(under: element, steps: &steps, found)
                steps.removeLast()
            }
        }
    }

    /// What the node tagged `!service` or `!tagged` at `index` refers to; `nil` when it is
    /// malformed (reported when loading) or has neither tag.
    func referenceTarget(_ index: Index) -> DeclaredReference.Target? {
        switch tag(index) {
        case .service: serviceReference(index).map(DeclaredReference.Target.service)
        case .tagged: isScalar(index) ? .tagged(text(index), at: location(index)) : nil
        default: nil
        }
    }

    /// The reference a node tagged `!service` makes: a scalar names the service, a mapping has
    /// `service` and, optionally, `name`. `nil` when it has no service key.
    func serviceReference(_ index: Index) -> ServiceReference? {
        if isScalar(index) {
            let key = text(index)
            return key.isEmpty ? nil : ServiceReference(service: key, at: location(index))
        }
        guard isMapping(index) else { return nil }
        var service: String?, name: String?
        var children = children(of: index)
        while let key = children.next(), let value = children.next() {
            guard isScalar(key), isScalar(value) else { continue }
            switch text(key) {
            case "service": service = text(value)
            case "name": name = text(value)
            default: break
            }
        }
        guard let service, !service.isEmpty else { return nil }
        return ServiceReference(service: service, name: name, at: location(index))
    }

    /// Whether a scalar under the node at `index` may hold a reference (see
    /// ``ManifestValue/mayHoldReferences``); mappings' keys are not values and do not count.
    func mayHold(_ index: Index, environmentOnly: Bool) -> Bool {
        if isScalar(index) {
            return withText(index) { scalar in
                environmentOnly ? ReferenceScan(scanning: scalar).contains(.environment) : scalar.contains(UInt8(ascii: "$"))
            }
        }
        guard isMapping(index) else { return children(of: index).contains { mayHold($0, environmentOnly: environmentOnly) } }
        var isValue = false
        return children(of: index).contains { child in
            defer { isValue.toggle() }
            return isValue && mayHold(child, environmentOnly: environmentOnly)
        }
    }
}
