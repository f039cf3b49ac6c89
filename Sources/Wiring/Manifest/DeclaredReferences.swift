/// One reference a manifest declares: a service (or one of its named variants) whose argument
/// refers to another service with `!service`, or to a tag with `!tagged`.
package struct DeclaredReference: Sendable {
    /// The service whose argument makes the reference.
    package let owner: String
    /// The owner's position in the manifest's services.
    let ownerIndex: Int
    /// The owner's named variant, when the reference is in a variant's args.
    package let ownerName: String?
    /// The argument, as a path: `store`, `stores[1]`, `db.replica`.
    package let argument: String
    /// What it refers to.
    package let target: Target

    package enum Target: Sendable {
        case service(ServiceReference)
        case tagged(String, at: SourceLocation)

        /// Where the reference was written.
        package var location: SourceLocation {
            switch self {
            case .service(let reference): reference.location
            case .tagged(_, let location): location
            }
        }
    }

    /// Where the reference was written.
    package var location: SourceLocation { target.location }
}

extension Manifest {
    /// Every reference the services and their named variants declare in their args, in
    /// manifest order. Only args the loader saw a `!service` or `!tagged` in are walked.
    package var declaredReferences: [DeclaredReference] {
        var found: [DeclaredReference] = []
        forEachDeclaredReference { owner, name, target, argument in
            found.append(DeclaredReference(owner: services[owner].key, ownerIndex: owner, ownerName: name, argument: argument.description, target: target))
        }
        return found
    }

    /// Calls `body` with each reference the services and their named variants declare in
    /// their args, in manifest order, so that a service's references come together: the
    /// owner's position, its named variant, what the reference refers to, and where it sits in
    /// the args. Validation walks them this way, spelling nothing for the references that are
    /// fine.
    func forEachDeclaredReference(
        _ body: (_ owner: Int, _ name: String?, _ target: DeclaredReference.Target, _ argument: ArgumentPath) -> Void
    ) {
        for (index, service) in services.enumerated() {
            if let args = service.args, args.mayHoldServiceReferences {
                args.forEachServiceReference { path, target in body(index, nil, target, path) }
            }
            for variant in service.names {
                guard let args = variant.args, args.mayHoldServiceReferences else { continue }
                args.forEachServiceReference { path, target in body(index, variant.name, target, path) }
            }
        }
    }
}
