/// The container running a factory on this thread, if any: factories run synchronously on the
/// resolving thread, so a thread-local pointer says which container the property wrappers of
/// the instance being built must use. Cheaper than binding a task-local for every build.
enum BuildingContainer {
    /// The container building on this thread (unretained: its caller holds it during the build).
    static var current: Container? {
        guard let pointer = ThreadState.withCurrent({ $0.building }) else { return nil }
        return Unmanaged<Container>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// The service whose factory runs on this thread, when its container records resolved edges.
    static var service: String? {
        ThreadState.withCurrent { $0.buildingService }
    }

    /// Runs `body` with `service` as the service building on this thread.
    static func with<R>(service: String, _ body: () throws -> R) rethrows -> R {
        let previous = ThreadState.withCurrent { thread in
            defer { thread.buildingService = service }
            return thread.buildingService
        }
        defer { ThreadState.withCurrent { $0.buildingService = previous } }
        return try body()
    }

    /// Runs `body` with `container` as the building container of this thread.
    static func with<R, Failure: Error>(_ container: Container, _ body: () throws(Failure) -> R) throws(Failure) -> R {
        let pointer = Unmanaged.passUnretained(container).toOpaque()
        let previous = ThreadState.withCurrent { thread in
            defer { thread.building = pointer }
            return thread.building
        }
        if previous == pointer { return try body() }
        defer { ThreadState.withCurrent { $0.building = previous } }
        return try body()
    }
}
