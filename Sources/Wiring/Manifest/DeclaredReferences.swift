/// One reference a manifest declares: a service (or one of its named variants) whose argument
/// refers to another service with `!service`, or to a tag with `!tagged`.
package struct DeclaredReference: Sendable {
    /// The service whose argument makes the reference.
    package let owner: String
    /// The owner's position in the manifest's services.
    package let ownerIndex: Int
    /// The owner's named variant, when the reference is in a variant's args.
    package let ownerName: String?
    /// The argument, as a path: `store`, `stores[1]`, `db.replica`.
    package let argument: String
    /// What it refers to.
    package let target: Target

    package enum Target: Sendable {
        case service(ServiceReference)
        case tagged(String, at: SourceLocation)
    }

    /// Where the reference was written.
    package var location: SourceLocation {
        switch target {
        case .service(let reference): reference.location
        case .tagged(_, let location): location
        }
    }
}

extension Manifest {
    /// Every reference the services and their named variants declare in their args, in
    /// manifest order. Only args the loader saw a `!service` or `!tagged` in are walked.
    package var declaredReferences: [DeclaredReference] {
        var found: [DeclaredReference] = []
        for (index, service) in services.enumerated() {
            collect(service.args, owner: (service.key, index), name: nil, into: &found)
            for variant in service.names {
                collect(variant.args, owner: (service.key, index), name: variant.name, into: &found)
            }
        }
        return found
    }

    private func collect(_ map: ManifestMap?, owner: (key: String, index: Int), name: String?, into found: inout [DeclaredReference]) {
        guard let map, map.mayHoldServiceReferences else { return }
        map.forEachServiceReference { path, value in
            switch value.kind {
            case .service(let reference):
                found.append(DeclaredReference(owner: owner.key, ownerIndex: owner.index, ownerName: name, argument: path, target: .service(reference)))
            case .tagged(let tag):
                found.append(DeclaredReference(owner: owner.key, ownerIndex: owner.index, ownerName: name, argument: path, target: .tagged(tag, at: value.location)))
            default:
                break
            }
        }
    }
}
