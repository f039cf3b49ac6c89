/// Tags: every service (and named variant) with a tag, in manifest order.
extension Container {
    /// Resolves every service and named variant tagged `tag` (`tags: [health-check]`), in
    /// manifest order; none when nothing has the tag.
    ///
    /// ```swift
    /// let checks: [any HealthCheck] = try container.resolveAll(tagged: "health-check")
    /// ```
    /// - Throws: ``ResolutionError``, also when an instance is not a `T`.
    public func resolveAll<T>(_ type: T.Type = T.self, tagged tag: String) throws(ResolutionError) -> [T] {
        var instances: [T] = []
        for registration in tagged(tag) {
            instances.append(try typedTagged(try instance(of: registration, arguments: .none, state: nil), registration, as: type))
        }
        return instances
    }

    /// Resolves every service and named variant tagged `tag`, in manifest order, awaiting
    /// async factories.
    /// - Throws: ``ResolutionError``, or `CancellationError`.
    public func resolveAll<T>(_ type: T.Type = T.self, tagged tag: String) async throws -> [T] {
        var instances: [T] = []
        for registration in tagged(tag) {
            try checkOpen(registration)
            let instance = try await withTopState(scope: nil) { top in try await instanceAsync(of: registration, arguments: .none, from: top) }
            instances.append(try typedTagged(instance, registration, as: type))
        }
        return instances
    }

    /// The registrations tagged `tag`, in manifest order.
    func tagged(_ tag: String) -> [Registration] {
        let tagged = taggedRegistrations[tag] ?? []
        guard let lineage, !lineage.substitutes.isEmpty else { return tagged }
        return tagged.map { lineage.substitutes.substitute($0) }
    }

    /// Every tag of the container's services.
    public var tags: [String] { taggedRegistrations.keys.sorted() }

    private func typedTagged<T>(_ instance: Any, _ registration: Registration, as type: T.Type) throws(ResolutionError) -> T {
        var instance = instance
        if let typed = Self.cast(&instance, to: T.self) { return typed }
        throw ResolutionError(
            .typeMismatch(produced: "\(Swift.type(of: instance))", expected: "\(T.self)"),
            message: "service \(registration.step), tagged, produced \(Swift.type(of: instance)), which is not a \(T.self)",
            path: [registration.step])
    }
}
