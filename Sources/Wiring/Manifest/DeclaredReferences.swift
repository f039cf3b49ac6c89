/// One reference a manifest declares: a service (or one of its named variants) whose argument
/// refers to another service with `!service`, or to a tag with `!tagged`.
package struct DeclaredReference: Sendable {
    /// The service whose argument makes the reference.
    package let owner: String
    /// The owner's position in the manifest's services.
    let ownerIndex: Int
    /// The owner's named variant, when the reference is in a variant's args.
    package let ownerName: String?
    /// The argument, as a path: `store`, `stores[1]`, `db.replica`; for an autowired
    /// factory's parameter, the type it resolves.
    package let argument: String
    /// Whether the reference is an autowired factory's parameter, not written in the args.
    package let isAutowired: Bool
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
            found.append(DeclaredReference(owner: services[owner].key, ownerIndex: owner, ownerName: name, argument: argument.description,
                                           isAutowired: argument.isAutowired, target: target))
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
        let types = autowired.isEmpty ? nil : AutowiredTargets(services: services)
        for (index, service) in services.enumerated() {
            if let args = service.args, args.mayHoldServiceReferences {
                args.forEachServiceReference { path, target in body(index, nil, target, path) }
            }
            if let types, service.hasFactory, let dependencies = autowired[service.factoryKey] {
                types.forEach(dependencies, at: service.factory?.location ?? service.location) { body(index, nil, $0, $1) }
            }
            for variant in service.names {
                if let types, let factory = variant.factory, let dependencies = autowired[factory.value] {
                    types.forEach(dependencies, at: factory.location) { body(index, variant.name, $0, $1) }
                }
                guard let args = variant.args, args.mayHoldServiceReferences else { continue }
                args.forEachServiceReference { path, target in body(index, variant.name, target, path) }
            }
        }
    }
}

/// The service each type an autowired factory's parameter names resolves to, as a container
/// resolves it: the service with that key, or the one that `implements` it without a name.
struct AutowiredTargets {
    private var services: [String: String] = [:]
    /// Types that services list in `implements` under a name: one that no service provides
    /// unnamed as well fails when resolved without a name, optional or not.
    private var listedUnderNames: Set<String> = []

    init(services definitions: [ServiceDefinition]) {
        for service in definitions {
            for entry in service.implements {
                if entry.name == nil { services[entry.type] = service.key } else { listedUnderNames.insert(entry.type) }
            }
        }
        for service in definitions { services[service.key] = service.key }
    }

    /// Calls `body` with a reference, written at `location` (the service's factory), for each
    /// dependency: to its service, or to the type itself when no service provides it, so that
    /// the checks report it unknown with a did-you-mean. An optional one with no service is
    /// left out: it resolves to `nil`; unless services list its type under names only.
    func forEach(_ dependencies: [AutowiredDependency], at location: SourceLocation,
                 _ body: (DeclaredReference.Target, ArgumentPath) -> Void) {
        for dependency in dependencies {
            let service = services[dependency.type]
            if service == nil, dependency.isOptional, !listedUnderNames.contains(dependency.type) { continue }
            body(.service(ServiceReference(service: service ?? dependency.type, at: location)), ArgumentPath(autowired: dependency.type))
        }
    }
}
