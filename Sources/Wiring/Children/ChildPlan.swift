/// A child container's overrides checked against its parent, and what the child is made of:
/// the registrations it resolves instead of its parent's, and the ones it adds.
///
/// Every change is looked up as the parent resolves it, so that a grandchild overrides what
/// its parent resolves. The work is the changes' own: a lookup each, and for a shared service,
/// a walk of the declared references it reaches.
struct ChildPlan {
    typealias Change = Container.Overrides.Change

    let parent: Container
    private(set) var problems: [Diagnostic] = []
    /// The parent's substitutions, then this child's.
    private(set) var substitutes: [ObjectIdentifier: (original: Registration, replacement: Registration)]
    private(set) var keptCount: Int
    private(set) var scopedCount: Int
    /// The services the parent's lineage added (a replacement in place of each this child
    /// replaces), and their targets by key.
    private var inherited: [Registration]
    private var added: [String: ResolutionTarget]
    /// The services this child adds, with their keys.
    private var adding: [(keys: [String], registration: Registration)] = []
    /// What this child changes, by the registration it changes (its parent's, or the root's it
    /// replaces), with where.
    private var changed: [ObjectIdentifier: Change] = [:]
    /// What this child shares: the service (the root's registration), and what built the
    /// parent's instance, whose references the share check walks.
    private var shares: [(shared: Registration, builtBy: Registration, change: Change)] = []
    /// The replacements that hand out an ancestor's instance, the parent's lineage's and this
    /// child's.
    private(set) var sharing: Set<ObjectIdentifier>

    init(parent: Container) {
        self.parent = parent
        substitutes = parent.lineage?.replaced ?? [:]
        sharing = parent.lineage?.sharing ?? []
        inherited = parent.lineage?.addedRegistrations ?? []
        added = parent.lineage?.added ?? [:]
        keptCount = parent.keptCount
        scopedCount = parent.scopedCount
    }

    mutating func apply(_ change: Change) {
        switch change.kind {
        case .add(let entry, let scope): add(change, entry: entry, scope: scope)
        case .override, .share: replace(change)
        }
    }

    // MARK: - Replacing

    private mutating func replace(_ change: Change) {
        guard let registration = registration(for: change) else { return }
        let original = parent.lineage?.original(of: registration) ?? registration
        let id = ObjectIdentifier(original)
        if let earlier = changed[id] {
            problems.append(.error("\(original.shown) is changed twice in this child", at: change.location,
                                   notes: [Diagnostic.Note("first changed here", at: earlier.location)]))
            return
        }
        changed[id] = change
        let replacement: Registration
        switch change.kind {
        case .override(let entry, let decorated):
            let factoryKey = "override at \(change.location)"
            var decoded: DecodedArguments?
            if let typed = entry.arguments {
                // Checked and decoded now, as binding does for a typed factory.
                let fill = ArgumentFill(ValueResolver(manifest: parent.manifest, environment: [:]))
                let (arguments, problems) = fill.decode(original.args, of: original.shown, at: original.location,
                                                        factoryKey: factoryKey, as: typed)
                guard problems.isEmpty else {
                    self.problems += problems
                    return
                }
                decoded = arguments
            }
            replacement = Registration(replacing: original, factory: entry, factoryKey: factoryKey, decorated: decorated, decoded: decoded)
        case .share:
            if !original.scope.isShareableWithChild {
                problems.append(.error("cannot share \(original.shown): it is scoped, and each scope has its own instance; override it, or resolve it from the child's scopes",
                                       at: change.location))
                return
            }
            replacement = Registration(sharing: original, from: parent)
            // The parent's own override takes its own parameters (an autowired original's are
            // not its); a share of an ancestor's holds what the original's references reach.
            shares.append((original, sharing.contains(ObjectIdentifier(registration)) ? original : registration, change))
            sharing.insert(ObjectIdentifier(replacement))
        case .add:
            return
        }
        if let index = inherited.firstIndex(where: { $0 === original }) {
            // A service an ancestor added: replaced where it was added.
            inherited[index] = replacement
            for (key, target) in added where target.unnamed === original {
                added[key] = ResolutionTarget(serviceKey: target.serviceKey, unnamed: replacement, named: [:])
            }
        } else {
            substitutes[id] = (original, replacement)
        }
    }

    /// The registration the parent resolves for what `change` names, or `nil` with the problem.
    private mutating func registration(for change: Change) -> Registration? {
        let found: ResolutionTarget? = switch change.subject {
        case .type(let type): parent.target(for: type)
        case .key(let key): parent.target(key: key)
        }
        guard let target = found else {
            let shown = change.subject.shown
            let candidates = parent.targets.keys + added.keys
            problems.append(.error(
                "\(shown) is not declared in the manifest\(Suggestion.hint(for: shown, in: candidates)); overrides.add adds a service",
                at: change.location))
            return nil
        }
        // The variant (or the unnamed service) as a resolve finds it, with a resolve's message.
        do {
            return try parent.registration(in: target, name: change.name, asked: change.subject.shown, state: nil)
        } catch {
            problems.append(.error(error.message, at: change.location))
            return nil
        }
    }

    // MARK: - Adding

    private mutating func add(_ change: Change, entry: FactoryRegistry.Entry, scope: Scope) {
        guard case .type(let type) = change.subject else { return }
        let keys = Array(Set([String(reflecting: type), String(describing: type)]))
        if let declared = parent.target(for: type) {
            let how = declared.unnamed == nil
                ? ", under names only (\(declared.sortedNames.joined(separator: ", "))); override one of them by name"
                : " (service \(declared.serviceKey)); override it instead"
            problems.append(.error("\(change.subject.shown) is declared already\(how)", at: change.location))
            return
        }
        if adding.contains(where: { $0.keys.contains(keys[0]) }) {
            problems.append(.error("\(change.subject.shown) is added twice in this child", at: change.location))
            return
        }
        let custom = parent.manifest.customScopes.first { $0.name == scope.name }
        if !scope.isBuiltIn, custom == nil {
            let declared = parent.manifest.customScopes.map(\.name)
            problems.append(.error("scope '\(scope.name)' is not declared in the manifest\(Suggestion.hint(for: scope.name, in: declared))",
                                   at: change.location))
            return
        }
        // Kept by place in the child's own slots, as every registration a child keeps: the slot
        // the registration holds is never read.
        let keeping = scope.keeping(timeToLive: nil, customTimeToLive: custom?.timeToLive?.value,
                                 scopedCount: &scopedCount, keptCount: &keptCount)
        adding.append((keys, Registration(adding: String(describing: type), factory: entry, scope: scope, keeping: keeping)))
    }

    /// The services the child's lineage adds, and their targets.
    func finish() -> (added: [String: ResolutionTarget], registrations: [Registration]) {
        var targets = added
        var registrations = inherited
        for (keys, registration) in adding {
            registrations.append(registration)
            let target = ResolutionTarget(serviceKey: registration.key, unnamed: registration, named: [:])
            for key in keys { targets[key] = target }
        }
        return (targets, registrations)
    }

    // MARK: - Sharing

    /// Reports each shared service whose declared references reach one this child overrides:
    /// the parent's instance would hold the parent's version.
    mutating func checkShares() {
        let overridden = changed.filter { if case .override = $0.value.kind { true } else { false } }
        guard !shares.isEmpty, !overridden.isEmpty else { return }
        for (shared, builtBy, change) in shares {
            var visited: Set<ObjectIdentifier> = [ObjectIdentifier(shared)]
            var pending = [(registration: builtBy, path: [shared.shown])]
            search: while let (registration, path) = pending.popLast() {
                for next in declaredDependencies(of: registration) {
                    let original = parent.lineage?.original(of: next) ?? next
                    let id = ObjectIdentifier(original)
                    if let override = overridden[id] {
                        let chain = (path + [original.shown]).joined(separator: " → ")
                        problems.append(.error(
                            "cannot share \(shared.shown): it depends on \(original.shown), which this child overrides (\(chain)), and the parent's instance holds the parent's; override \(shared.shown) too, or do not share it",
                            at: change.location, notes: [Diagnostic.Note("\(original.shown) overridden here", at: override.location)]))
                        break search
                    }
                    // Through a share of an ancestor's, what that instance holds: its original's.
                    let walked = sharing.contains(ObjectIdentifier(next)) ? original : next
                    if visited.insert(id).inserted { pending.append((walked, path + [next.shown])) }
                }
            }
        }
    }

    /// The registrations `registration`'s arguments and its decorators' refer to with
    /// `!service` and `!tagged`, and its autowired factory's parameters, as the parent resolves them.
    private func declaredDependencies(of registration: Registration) -> [Registration] {
        var found: [Registration] = []
        func visit(_ args: ManifestMap) {
            guard args.mayHoldServiceReferences else { return }
            args.forEachServiceReference { _, target in
                switch target {
                case .service(let reference):
                    guard let target = parent.target(key: reference.service) else { return }
                    if let name = reference.name {
                        if let named = target.named[name] { found.append(named) }
                    } else if let unnamed = target.unnamed {
                        found.append(unnamed)
                    }
                case .tagged(let tag, _):
                    found += parent.tagged(tag)
                }
            }
        }
        visit(registration.args)
        for decorator in registration.decorators { visit(decorator.args) }
        // An autowired factory's parameters are declared too: by type, as the parent resolves them.
        for dependency in registration.autowired ?? [] {
            if let unnamed = parent.target(key: dependency.type)?.unnamed { found.append(unnamed) }
        }
        return found
    }
}
