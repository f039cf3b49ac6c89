/// The registrations a child container makes: replacements of its parent's, and services that
/// code adds.
extension Registration {
    /// A replacement of `original` built by `factory`: the same service, scope, place, tags,
    /// arguments and eagerness, with `original`'s decorators around it when `decorated`. The
    /// factory's own shutdown hook and property hooks are not `original`'s factory's.
    /// `decoded`: for a typed override, `original`'s arguments as it reads them.
    convenience init(replacing original: Registration, factory: FactoryRegistry.Entry, factoryKey: String, decorated: Bool,
                     decoded: DecodedArguments?) {
        self.init(
            key: original.key, name: original.name, location: original.location, factoryKey: factoryKey, factory: factory,
            args: LazyArguments(filled: original.args), decodedArguments: decoded, scope: original.scope, keeping: original.keeping,
            decorators: decorated ? original.decorators : [], lifecycle: original.lifecycle,
            tags: original.tags.map { Located($0, at: original.location) })
    }

    /// A registration that hands out `parent`'s instance of `original`: it builds nothing and
    /// keeps nothing of its own, and resolves synchronously whatever `parent` keeps built.
    convenience init(sharing original: Registration, from parent: Container) {
        let (key, name) = (original.key, original.name)
        // The caller's runtime arguments go to the parent's resolve, as they would to the
        // service's own factory.
        let make: @Sendable (FactoryContext) throws -> Any = { context in
            try parent.resolve(key: key, name: name, arguments: context.arguments, state: nil)
        }
        var makeAsync: (@Sendable (FactoryContext) async throws -> Any)?
        if original.isAsync {
            makeAsync = { context in
                try await parent.withTopState(scope: nil) { top in
                    try await parent.resolveAsync(key: key, name: name, arguments: context.arguments, from: top)
                }
            }
        }
        let entry = FactoryRegistry.Entry(make: make, makeAsync: makeAsync, shutdown: nil, location: original.location)
        self.init(
            key: key, name: name, location: original.location, factoryKey: original.factoryKey, factory: entry,
            args: LazyArguments(filled: ManifestMap([], at: original.location)), decodedArguments: nil, scope: original.scope,
            keeping: .unique, decorators: [], lifecycle: original.lifecycle, tags: original.tags.map { Located($0, at: original.location) })
    }

    /// A service code adds to a child: no arguments, no decorators, kept as `keeping` says.
    convenience init(adding key: String, factory: FactoryRegistry.Entry, scope: Scope, keeping: Keeping) {
        self.init(
            key: key, name: nil, location: factory.location, factoryKey: key, factory: factory,
            args: LazyArguments(filled: ManifestMap([], at: factory.location)), decodedArguments: nil, scope: scope,
            keeping: keeping, decorators: [], lifecycle: Lifecycle())
    }

    /// Its eagerness and shutdown timeout, as a manifest would declare them.
    var lifecycle: Lifecycle {
        Lifecycle(eager: isEager ? Located(true, at: location) : nil, shutdownTimeout: shutdownTimeout.map { Located($0, at: location) })
    }
}
