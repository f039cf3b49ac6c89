import Logging

extension Container {
    private static let bootstrapped = ReadMostly<Container?>(nil)
    @TaskLocal private static var scoped: Container?

    /// What ``bootstrap(manifest:registry:contexts:checking:options:)`` checks before it returns.
    public enum LaunchCheck: Sendable {
        /// Binding only: factory keys and environment variables (always done).
        case binding
        /// Also resolve every service once and throw if any fails, so the property wrappers
        /// cannot meet a failure later.
        case instantiate
    }

    /// The container the property wrappers use: the one building the instance (while a
    /// factory runs), else the one set with `using(_:operation:)` for the current task, else the
    /// one set by ``bootstrap(_:)``, else `nil`.
    public static var current: Container? {
        BuildingContainer.current ?? scoped ?? bootstrapped.read { $0.pointee }
    }

    /// The shared container.
    ///
    /// Stops the program with a message that says what to do when no container was
    /// bootstrapped: a missing bootstrap is a programming error, not bad input.
    public static var shared: Container {
        guard let container = current else {
            preconditionFailure("""
                Wiring: no container. Call Container.bootstrap(manifest:registry:) once at launch, \
                or run this code inside Container.using(container) { … } (in tests).
                """)
        }
        return container
    }

    /// Loads a manifest, builds a container with the contexts chosen at launch, and makes it
    /// the shared container the property wrappers use.
    ///
    /// ```swift
    /// @main struct NotesApp {
    ///     static func main() throws {
    ///         try Container.bootstrap(manifest: "config/services.yaml", registry: .notes, checking: .instantiate)
    ///         try NotesCommand.main()
    ///     }
    /// }
    /// ```
    ///
    /// - Throws: ``ManifestError`` for any problem of the manifest, the contexts, binding or,
    ///   with `.instantiate`, building a service.
    @discardableResult
    public static func bootstrap(
        manifest path: String, registry: FactoryRegistry, contexts: ContextSelection = .launch(),
        checking: LaunchCheck = .binding, options: Options = Options()
    ) throws(ManifestError) -> Container {
        let container = try Container(manifest: path, registry: registry, contexts: contexts, options: options)
        if checking == .instantiate {
            let problems = container.instantiateAll().filter { $0.severity == .error }
            if !problems.isEmpty {
                for problem in problems { options.logger?.error("\(problem.headline)") }
                throw ManifestError(problems)
            }
        }
        bootstrap(container)
        return container
    }

    /// Makes `container` the shared container.
    public static func bootstrap(_ container: Container) {
        bootstrapped.write { $0 = container }
    }

    /// Runs the factory of `context` with this container as the current one, so the
    /// property wrappers of the instance it builds resolve from the container building it (and,
    /// when edges are recorded, count as its dependencies).
    ///
    /// The path without a recorder is kept as short as it was before recording existed: the
    /// recording path out of line, and the factory's context passed instead of its registration
    /// (which the call would retain). With both inline, `unique` with 3 dependencies took 3,939
    /// instructions against 2,969 before recording; now 3,036 (callgrind,
    /// `--profile-requests 11000 unique` minus 1000).
    @inline(__always)
    func asCurrent<R>(building context: FactoryContext, _ body: () throws -> R) rethrows -> R {
        if edgeRecorder != nil { return try asCurrentRecording(service: context.registration.key, body) }
        return try BuildingContainer.with(self, body)
    }

    /// `asCurrent(building:_:)` for a container that records resolved edges, out of line.
    @inline(never)
    private func asCurrentRecording<R>(service: String, _ body: () throws -> R) rethrows -> R {
        try BuildingContainer.with(self) { try BuildingContainer.with(service: service, body) }
    }

    /// Runs `operation` with `container` as the current container for this task and the tasks
    /// it creates: tests running in parallel each see their own. (Threads started another way,
    /// such as a `DispatchQueue`, do not inherit it.)
    ///
    /// ```swift
    /// @Test func savesANote() throws {
    ///     let container = try Container(manifest: "services.yaml", registry: .notes, contexts: .explicit("test"))
    ///     try Container.using(container) {
    ///         let editor = NoteEditor()          // its @Injected properties resolve from `container`
    ///         try editor.save("hello")
    ///     }
    /// }
    /// ```
    public static func using<R>(_ container: Container, operation: () throws -> R) rethrows -> R {
        try $scoped.withValue(container, operation: operation)
    }

    /// Runs the async `operation` with `container` as the current container for this task.
    public static func using<R>(
        _ container: Container, isolation: isolated (any Actor)? = #isolation, operation: () async throws -> R
    ) async rethrows -> R {
        try await $scoped.withValue(container, operation: operation, isolation: isolation)
    }

    /// Resolves for a property wrapper: from `container`, else the current container; stops
    /// with the error's message when resolving fails, since a wrapper cannot throw.
    @usableFromInline
    static func resolveForWrapper<T>(_ type: T.Type, name: String?, container: Container?) -> T {
        forWrapper(T.self, container: container) { container throws(ResolutionError) in
            try container.resolve(type, name: name)
        }
    }

    /// Resolves an optional dependency for a property wrapper: `nil` when nothing is declared.
    @usableFromInline
    static func optionalForWrapper<T>(_ type: T.Type, name: String?, container: Container?) -> T? {
        forWrapper(T.self, container: container) { container throws(ResolutionError) in
            try container.optional(type, name: name)
        }
    }

    /// Runs `body` on the wrapper's container; a failure is logged, then stops the program.
    private static func forWrapper<T, R>(
        _ type: T.Type, container: Container?, _ body: (Container) throws(ResolutionError) -> R
    ) -> R {
        let container = container ?? shared
        do {
            return try body(container)
        } catch {
            container.logFailure(error)
            preconditionFailure("Wiring: cannot inject \(T.self): \(error)")
        }
    }
}
