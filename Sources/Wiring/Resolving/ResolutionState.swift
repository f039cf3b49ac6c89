#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The state of one top-level resolution: the path being built (for cycles and messages) and
/// the instances of the `graph` scope. Used by one thread at a time.
///
/// An async factory's context holds a *frozen* state instead: one that is never changed, so
/// that the factory may resolve from concurrent child tasks. Each resolve through a frozen
/// state starts from a state of its own (a copy of the path, with the frozen state as its
/// parent), and the resolution's `graph` instances are shared through ``shared``.
@usableFromInline
final class ResolutionState {
    // One resolution runs on one thread at a time (a factory's nested resolves run inside it),
    // so these need no run-time exclusivity checks on the hot path.
    @exclusivity(unchecked) var path: ResolutionPath
    @exclusivity(unchecked) var graph: [ObjectIdentifier: Any] = [:]
    /// The scope resolving, for `scoped` services; `nil` when resolving from the container.
    @exclusivity(unchecked) var scope: ContainerScope?
    /// The state this one was started from, for an async resolution's states.
    @exclusivity(unchecked) var parent: ResolutionState?
    /// Instances whose factory returned and whose `resolvingProperties` hooks are running in
    /// this resolution, by registration: a hook that resolves back to one gets it, as
    /// Swinject's `initCompleted` does (see ``partialInstance(of:)``).
    @exclusivity(unchecked) var partial: [(registration: ObjectIdentifier, instance: Any)] = []
    /// Property hooks waiting for the factories running below their instance's build to
    /// return, in build order (see ``Container/runWaitingHooks(_:returned:_:)``).
    @exclusivity(unchecked) var waiting: [WaitingHooks] = []
    /// How many entries of the path a fork took from the state it continues: their factories run
    /// in that resolution, which this state's builds do not wait for.
    @exclusivity(unchecked) var inherited = 0

    /// An instance whose factory returned while another factory of its resolution ran below it:
    /// its property hooks run once none does, and a kept one is kept only then.
    struct WaitingHooks {
        /// Held by the container, as path entries hold theirs.
        unowned(unsafe) let registration: Registration
        /// The factory's instance, which its hooks get.
        let instance: Any
        let arguments: Arguments
        /// For a kept instance: where it is kept once its hooks ran, what is kept there (the
        /// outermost decorator's instance) and its shutdown hooks.
        var place: KeptPlace?
        var kept: Any?
        var hooks: [KeptInstances.Hook] = []
    }

    /// Whether no factory of this resolution runs below the innermost build on the path (whose
    /// factory returned): the waiting property hooks may run (entries a fork took from the state
    /// it continues do not count).
    var isOutermostBuild: Bool { !path.hasRunningFactory(from: inherited, to: path.count - 1) }

    /// The instance of `registration` built in this resolution whose hooks run or wait, if any:
    /// what a resolve that comes back to it gets, instead of waiting for its slot. While its
    /// hooks run, the factory's; while they wait, what is to be kept (its decorators' too).
    func instanceInBuild(of registration: Registration) -> Any? {
        if let partial = partialInstance(of: registration) { return partial }
        return waiting.last { $0.registration === registration }.map { $0.kept ?? $0.instance }
    }

    /// Gives up the kept instances whose hooks wait: their slots build again at the next resolve.
    func abandonWaiting() {
        for entry in waiting { entry.place?.slot.abandon() }
        waiting = []
    }

    /// During ``Container/start()``: where its builds are recorded, for the startup report.
    @exclusivity(unchecked) var recorder: BuildRecorder?
    /// The recorder's index of the build whose factory is running, the parent of the builds
    /// it asks for; -1 when none is.
    @exclusivity(unchecked) var building = -1
    /// After start, while an observed async build's factory runs: the time below it, which
    /// tasks its factory started add to.
    @exclusivity(unchecked) var timing: BuildTiming?
    /// After start, in a synchronous state: the time the observed build whose factory runs
    /// spent below it (each observed build keeps its outer build's and adds its own when it
    /// ends); a fork adds what it gathered to its async build's ``timing``. A plain field: a
    /// build of a request's scoped service then allocates nothing to be timed (a request of
    /// three observed builds: 8,972 instructions with a `BuildTiming` each, against 8,021;
    /// `WiringBenchmarks --profile-requests 11000 observed` under callgrind).
    @exclusivity(unchecked) var below: Duration = .zero
    /// For a frozen state below another: the first frozen state of its async resolution, or
    /// the state kept past its resolution that it continues, which keeps the resolution's
    /// `graph` instances; `nil` for that first state itself.
    private let frozenTop: ResolutionState?
    /// On an async resolution's first frozen state: its `graph` instances, made by the first
    /// build that keeps one. Most resolutions keep none, and making the table up front would
    /// cost an allocation, a mutex and a locked copy per fork.
    private let sharedGraphs = OnceReference<SharedGraph>()

    /// The table ``sharedGraphs`` holds, a class so that it can be set once.
    private final class SharedGraph {
        let instances: Locked<[ObjectIdentifier: Any]>
        init(_ instances: [ObjectIdentifier: Any]) { self.instances = Locked(instances) }
    }
    /// A top-level async resolution's first state, until its first service is entered: nothing
    /// else holds it yet, so that service's level is this state, not one more below it (one
    /// state fewer per top-level `await` resolve that builds).
    private var isUnenteredTop = false

    /// Whether this state is frozen: resolves through it start states of their own.
    @usableFromInline let isFrozen: Bool

    /// For a frozen state: the `graph` instances of its whole async resolution, if one was
    /// kept yet.
    var sharedGraph: Locked<[ObjectIdentifier: Any]>? { (frozenTop ?? self).sharedGraphs.load()?.instances }

    /// For a frozen state: the `graph` instances of its whole async resolution, made if none was kept yet.
    func makeSharedGraph() -> Locked<[ObjectIdentifier: Any]> {
        let top = frozenTop ?? self
        return (top.sharedGraphs.load() ?? top.sharedGraphs.storeIfNil(SharedGraph([:]))).instances
    }

    /// The thread that started the resolution, and the lowest address of its stack: the stack
    /// guard checks every level, and on that thread it needs no thread-local lookup.
    private let owner: pthread_t
    private let ownerStackLow: UInt?
    /// The container, once a context outlived the resolution: contexts do not count their
    /// container, so the state they hold keeps it for them. Set once, when the resolution is
    /// over (see ``isKeptPastItsResolution``).
    private let keptContainer = OnceReference<Container>()

    private init(thread: ThreadState) {
        isFrozen = false
        frozenTop = nil
        path = ResolutionPath()
        owner = pthread_self()
        ownerStackLow = StackGuard.lowestAddress(of: thread)
    }

    /// A frozen state: `parent`'s path (none at the top of an async resolution) plus `entry`.
    /// Below a synchronous state (a synchronous factory's context used with `await`), it starts
    /// from that state's graph instances.
    init(frozenFrom parent: ResolutionState?, adding entry: PathEntry?, scope: ContainerScope?) {
        if let parent {
            path = ResolutionPath(copying: parent.path, adding: entry)
        } else {
            path = ResolutionPath()
            if let entry { path.push(entry) }
        }
        owner = pthread_self()
        ownerStackLow = nil
        self.parent = parent
        self.scope = scope
        recorder = parent?.recorder
        building = parent?.building ?? -1
        timing = parent?.timing
        isFrozen = true
        if let parent, parent.isFrozen {
            frozenTop = parent.frozenTop ?? parent
        } else if let parent, parent.isKeptPastItsResolution {
            // A context kept past its resolution, used with `await`: the kept state holds its
            // resolution's `graph` instances where forks read and add to them, and so does this.
            frozenTop = parent
        } else {
            frozenTop = nil
            if let graph = parent?.graph, !graph.isEmpty { _ = sharedGraphs.storeIfNil(SharedGraph(graph)) }
        }
    }

    /// The first state of a top-level async resolution, from the container or from `scope`:
    /// this thread's spare frozen state (see ``recycleTop(_:container:)``), or a new one.
    static func top(scope: ContainerScope?) -> ResolutionState {
        let state = ThreadState.withCurrent { $0.frozenSpare.take() } ?? ResolutionState(frozenFrom: nil, adding: nil, scope: nil)
        state.scope = scope
        state.isUnenteredTop = true
        return state
    }

    /// Keeps the first state of a top-level async resolution that is over as this thread's
    /// spare, as ``recycle(_:container:)`` keeps a synchronous one, unless something still
    /// holds it (a factory kept its context, or a task it started did): it then keeps
    /// `container`. A request that builds through an async factory then allocates no state
    /// and no path of its own (the notes server's request: 17,664 instructions with a new
    /// state each time, 16,873 with the spare; `--profile-requests 11000 served`).
    ///
    /// Taken out of `top`, as ``withFork(of:container:_:)`` takes its fork, so that the caller
    /// holds it no more.
    static func recycleTop(_ top: inout ResolutionState?, container: Container) {
        guard let state = top.take() else { return }
        recycle(state, container: container)
    }

    /// The frozen state for building `entry`'s service below this frozen one: this state itself
    /// when it is an unentered top (see ``isUnenteredTop``), else a new one.
    func entering(_ entry: PathEntry) -> ResolutionState {
        guard isUnenteredTop else { return ResolutionState(frozenFrom: self, adding: entry, scope: scope) }
        isUnenteredTop = false
        path.push(entry)
        return self
    }

    /// For the first state of a top-level async resolution, before its first build or wait is
    /// checked: notes the async factory of this task that waits below it, if any (see
    /// ``enclosing``). Nothing else holds the top yet.
    func encloseIfUnenteredTop() {
        guard isUnenteredTop, enclosing == nil, let waiting = BuildingContainer.waitingInThisTask else { return }
        enclosing = waiting
    }

    /// Runs `body` in a state of this thread's that continues the frozen state `frozen` (its
    /// path and the graph instances built so far); the graph instances `body` builds then join
    /// its resolution's, and the state is recycled.
    ///
    /// The fork is held in an optional that ending it takes, so that nothing else holds the
    /// state when it is recycled, and the next fork on the thread reuses it instead of
    /// allocating one.
    static func withFork<R>(
        of frozen: ResolutionState, container: Container, _ body: (ResolutionState) throws(ResolutionError) -> R
    ) throws(ResolutionError) -> R {
        var fork: ResolutionState? = fork(of: frozen)
        defer { endFork(&fork, container: container) }
        return try body(fork!)
    }

    private static func fork(of frozen: ResolutionState) -> ResolutionState {
        let state = acquire()
        // Into the spare's own buffer: sharing the frozen path's would copy it on the first push.
        state.path.append(contentsOf: frozen.path)
        state.inherited = frozen.path.count
        state.scope = frozen.scope
        state.parent = frozen
        if let recorder = frozen.recorder {
            state.recorder = recorder
            state.building = frozen.building
        }
        if let timing = frozen.timing { state.timing = timing }
        if let shared = frozen.sharedGraph { state.graph = shared.withLock { $0 } }
        return state
    }

    private static func endFork(_ fork: inout ResolutionState?, container: Container) {
        guard let state = fork.take() else { return }
        if state.below != .zero { state.timing?.add(state.below) }
        if !state.graph.isEmpty, let parent = state.parent, parent.isForkable {
            let built = state.graph
            parent.makeSharedGraph().withLock { graph in graph.merge(built) { first, _ in first } }
        }
        recycle(state, container: container)
    }

    /// The tokens of this state, of the states it descends from, and of those that wait below
    /// it on their thread or in their task (see ``enclosing``).
    var lineage: [ObjectIdentifier] {
        var tokens: [ObjectIdentifier] = []
        var next: ResolutionState? = self
        while let state = next {
            tokens.append(state.token)
            next = state.parent
        }
        for below in enclosingStates { tokens += below.lineage }
        return tokens
    }

    /// The resolutions that wait below this one, or one it descends from, on their thread or in
    /// their task (see ``enclosing``).
    private var enclosingStates: [ResolutionState] {
        var found: [ResolutionState] = []
        var next: ResolutionState? = self
        while let state = next {
            if let below = state.enclosing { found.append(below) }
            next = state.parent
        }
        return found
    }

    /// Whether the resolution `token` runs a factory below this one, or one it descends from,
    /// on their thread or in their task (see ``enclosing``).
    func waitsBelow(_ token: ObjectIdentifier) -> Bool {
        enclosingStates.contains { $0.lineage.contains(token) }
    }

    /// Where `registration` is on the path of a resolution below this one on this thread or in
    /// this task (see ``enclosing``): the resolutions from the nearest below to the one whose
    /// path has it, and its position there; `nil` when none has it. Reads only paths that
    /// cannot change meanwhile: this thread's, blocked below it, and frozen ones.
    @inline(never)
    func enclosedPosition(of registration: Registration) -> (trail: [ResolutionState], position: Int)? {
        var pending = enclosingStates.map { [$0] }
        var seen: [ObjectIdentifier] = []
        while let trail = pending.popLast() {
            let below = trail[trail.count - 1]
            guard !seen.contains(below.token), below.isFrozen || below.owner == pthread_self() else { continue }
            seen.append(below.token)
            if let position = below.position(of: registration) { return (trail, position) }
            pending += below.enclosingStates.map { trail + [$0] }
        }
        return nil
    }

    /// Notes that the resolution `below` (held by its caller) runs a factory below this new
    /// one on this thread (see ``enclosing``).
    @inline(never)
    func enclose(_ below: UnsafeMutableRawPointer) {
        enclosing = Unmanaged<ResolutionState>.fromOpaque(below).takeUnretainedValue()
    }

    /// Whether this thread's stack has room for one more level (see ``StackGuard``).
    /// (`pthread_t` compared with `==`, which is what `pthread_equal` does on the systems Wiring
    /// builds for, without its call.)
    @inline(__always)
    var hasStackRoom: Bool {
        owner == pthread_self() ? StackGuard.hasRoom(below: ownerStackLow) : StackGuard.hasRoom
    }

    /// Whether `registration` may be built next on the path: it is not on it, the path is not
    /// at ``maxDepth`` and the stack has room. When not, ``Container/checkCycle(_:state:)``
    /// says why.
    @inline(__always)
    func mayEnter(_ registration: Registration) -> Bool {
        path.count < Self.maxDepth && position(of: registration) == nil && hasStackRoom
    }

    var token: ObjectIdentifier { ObjectIdentifier(self) }

    /// Whether this is the resolution building on the calling thread: a synchronous factory (or
    /// the property hooks of what it built) runs in it here, now. Only then may a resolve
    /// continue in it; a context kept past its factory, used later or from another thread,
    /// starts a resolution of its own (``Container/continuing(_:_:)``), since this state's path
    /// and `graph` instances belong to the thread building in it.
    @inline(__always)
    var isBuildingHere: Bool {
        // The owner first: only its own thread reads (and writes) `isCurrentOnItsThread`, which
        // a frozen state never sets.
        owner == pthread_self() && isCurrentOnItsThread
    }

    /// Whether its thread builds in this state now (``ThreadState/buildingState`` points at it):
    /// what ``isBuildingHere`` reads instead of the thread-local, which cost each dependency a
    /// `swift_once` and a `pthread_getspecific` (about 50 instructions; the "unique, 3
    /// dependencies" row 2,465 with the lookup). Set and cleared by
    /// ``ThreadState/startBuilding(_:in:)`` and ``ThreadState/restoreBuilding(_:)`` on the
    /// owner's thread; never set on a frozen state, which any thread may build in.
    @exclusivity(unchecked) var isCurrentOnItsThread = false

    /// For a resolution started while another one's factory runs below it on the same thread,
    /// or (for an async one) in the same task: a factory resolving through a container, not its
    /// context. That resolution's state: it waits for this one to return, so a wait of this one
    /// is a wait of its too, and a wait for a build of its, or a build of what its path builds,
    /// is a cycle (an error), not a wait that never ends nor a stack that runs out
    /// (``lineage``, ``enclosedPosition(of:)``). Set on the first state of the resolution; the
    /// states below it find it through their parents.
    @exclusivity(unchecked) var enclosing: ResolutionState? = nil

    /// Whether the resolution is over and a context kept past its factory still holds this
    /// state: from then on the state is never changed, and a resolve through that context
    /// continues it from any thread in a fork, as through a frozen state (its `graph` instances
    /// moved where forks read and add to them under a lock).
    var isKeptPastItsResolution: Bool { keptContainer.loadUnmanaged() != nil }

    /// Whether resolves may fork from this state, from any thread: it is never changed again.
    var isForkable: Bool { isFrozen || isKeptPastItsResolution }

    /// The path as steps for a message, when it may be read from here: a state that no longer
    /// changes, or the one the calling thread builds in; else none.
    var readableSteps: [ResolutionError.Step] {
        isForkable || isBuildingHere ? steps : []
    }

    /// Where `registration`'s own factory is on the path, if it is: a cycle. A scan by index,
    /// which touches no reference count (entries hold their registration unowned).
    func position(of registration: Registration) -> Int? {
        path.position(of: registration)
    }

    /// The instance of `registration` whose property hooks are running in this resolution (on
    /// this state or one it was forked from, for the hooks of an async factory's instance).
    func partialInstance(of registration: Registration) -> Any? {
        let id = ObjectIdentifier(registration)
        var state: ResolutionState? = self
        while let current = state {
            if let found = current.partial.last(where: { $0.registration == id }) { return found.instance }
            state = current.parent
        }
        return nil
    }

    /// The path as steps, for messages.
    var steps: [ResolutionError.Step] { path.map { $0.step } }

    /// The deepest chain of dependencies resolved before giving up with an error.
    static let maxDepth = 256

    // MARK: - Reuse

    /// A state for a new top-level resolution: this thread's spare, or a new one. Most
    /// resolutions end with nothing holding their state, so the next one on the thread starts
    /// from it instead of allocating its own.
    ///
    /// Not inlined: a top-level resolution calls it once, and inlined it made the code that
    /// resolves each dependency too large to inline in turn (the "unique, 3 dependencies" row
    /// 2,601 instructions instead of 2,472).
    @inline(never)
    static func acquire() -> ResolutionState {
        ThreadState.withCurrent { thread in
            let state = thread.spare.take() ?? ResolutionState(thread: thread)
            if let below = thread.buildingState { state.enclose(below) }
            return state
        }
    }

    /// Runs `body` in a new top-level resolution of `container`, with `container` the building
    /// container of this thread (see ``BuildingContainer``), then recycles the state: what
    /// ``acquire()``, ``BuildingContainer/with(_:state:_:)`` and ``recycle(_:container:)`` do,
    /// with one lookup of the thread's state instead of four.
    @inline(__always)
    static func withTopLevel(
        of container: Container, _ body: (ResolutionState) throws(ResolutionError) -> Any
    ) throws(ResolutionError) -> Any {
        try ThreadState.current.borrowing { thread throws(ResolutionError) in
            let state = thread.spare.take() ?? ResolutionState(thread: thread)
            let previous = thread.startBuilding(container, in: state)
            if let below = previous.state { state.enclose(below) }
            // The state consumed by recycling, so that nothing else holds it then.
            let built: Any
            do throws(ResolutionError) {
                built = try body(state)
            } catch {
                thread.restoreBuilding(previous)
                recycle(consume state, container: container, on: thread)
                throw error
            }
            thread.restoreBuilding(previous)
            recycle(consume state, container: container, on: thread)
            return built
        }
    }

    /// Keeps `state` as this thread's spare (its frozen spare, for the first state of an async
    /// resolution) once its resolution of `container` is over, unless something still holds it
    /// (a factory kept its context) or the thread already has a spare.
    /// A state that something holds keeps `container` for as long as it lives, since the
    /// contexts that may still resolve through it do not count their container.
    static func recycle(_ state: consuming ResolutionState, container: Container, on thread: ThreadState? = nil) {
        // Hooks still waiting when the resolution ends: a factory below them failed.
        if !state.waiting.isEmpty { state.abandonWaiting() }
        guard isKnownUniquelyReferenced(&state) else {
            if !state.isFrozen, !state.isKeptPastItsResolution, !state.graph.isEmpty {
                _ = state.sharedGraphs.storeIfNil(SharedGraph(state.graph))
            }
            // Published last: a thread that sees it sees the moved graph.
            _ = state.keptContainer.storeIfNil(container)
            return
        }
        // Empty once its resolution is over, unless a factory threw on the way: emptying an
        // empty path still calls into the standard library.
        if !state.path.isEmpty { state.path.removeAll() }
        if state.inherited != 0 { state.inherited = 0 }
        if state.enclosing != nil { state.enclosing = nil }
        if !state.graph.isEmpty { state.graph = [:] }
        if state.scope != nil { state.scope = nil }
        if state.parent != nil { state.parent = nil }
        if state.recorder != nil {
            state.recorder = nil
            state.building = -1
        }
        if state.timing != nil { state.timing = nil }
        if state.below != .zero { state.below = .zero }
        let isFrozen = state.isFrozen
        if isFrozen {
            // The first state of an async resolution (the only frozen one recycled); unique,
            // so no other thread can reach its graph instances.
            state.isUnenteredTop = false
            state.sharedGraphs.clear()
        }
        var spare: ResolutionState? = consume state
        func keep(on thread: ThreadState) {
            if isFrozen {
                if thread.frozenSpare == nil { swap(&thread.frozenSpare, &spare) }
            } else if thread.spare == nil {
                swap(&thread.spare, &spare)
            }
        }
        if let thread { keep(on: thread) } else { ThreadState.withCurrent(keep) }
    }
}
