#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import Logging

/// A container that follows its manifest files as they are edited: for development, where
/// rebuilding and restarting the app for each change of the wiring is the slow part.
///
/// ```swift
/// let wiring = try ReloadingContainer(manifest: "config/services.yaml", registry: registry,
///                                     options: .init(logger: logger))
/// try await wiring.start()                       // starts the container, then watches its files
/// let scope = wiring.makeScope()                 // a request's scope, of the container in force
/// ```
///
/// Once started, it checks the manifest's files (its imports and overlays too) every
/// `pollInterval`. When one changed, it loads and validates them, builds a new container and
/// starts it:
/// - new resolves through ``container`` and new scopes (``makeScope()``) use the new one;
/// - scopes already open (requests in flight) finish on the old one, which shuts down (its
///   shutdown hooks run) when its last scope ends;
/// - an edit with errors logs them at error level, each at its `file:line:col`, and the
///   container in force keeps serving; so does one whose new container fails to start.
///
/// Each container builds its own singletons: what code keeps from the old one (a logger it
/// resolved at launch) stays the old one's. Watching runs from ``start()`` to ``shutdown()``,
/// in one task; nothing is watched before.
public final class ReloadingContainer: Sendable {
    private let path: String
    private let registry: FactoryRegistry
    private let contexts: ContextSelection
    private let options: Container.Options
    private let pollInterval: Duration
    private let state: Locked<State>

    private struct State {
        var current: Container
        var tracker = ScopeTracker()
        /// The files watched, each with what it looked like when it was read (`nil`: missing).
        var stamps: [String: FileStamp?]
        var watch: Task<Void, Never>?
        /// Retired containers not shut down yet, by the order they were retired in: each
        /// waits for its last scope to end, shuts down, then removes itself, so that
        /// ``shutdown()`` can wait for all and the table does not grow with reloads.
        var retiring: [Int: Task<Void, Never>] = [:]
        /// How many containers were retired: each one's number in `retiring`.
        var retired = 0
        var reloads = 0
        var isShutDown = false
        /// Set while a reload runs: one at a time.
        var isReloading = false
        /// What the last reload did.
        var lastReload: ReloadEvent?
    }

    /// A file's size and modification time, to see that it changed.
    struct FileStamp: Equatable {
        let size: Int
        let modified: Date?

        /// `nil` for a file that cannot be looked at (removed mid-save): a stamp that changes
        /// like any other, so the reload that follows reads the file and reports why it cannot.
        init?(_ path: String) {
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return nil }
            size = (attributes[.size] as? Int) ?? -1
            modified = attributes[.modificationDate] as? Date
        }
    }

    /// Loads the manifest at `path` and builds its container, as
    /// ``Container/init(manifest:registry:contexts:options:)-(String,_,_,_)`` does.
    ///
    /// - Parameters:
    ///   - path: The manifest's root file.
    ///   - registry: The factories; every container a reload builds binds to them.
    ///   - contexts: The contexts each container applies.
    ///   - options: The options of each container; its logger also says what each reload did.
    ///   - pollInterval: How often the files are checked once started.
    /// - Throws: ``ManifestError`` with every problem of the manifest, as the container's
    ///   initializer does: a first manifest with errors is not served.
    public init(
        manifest path: String, registry: FactoryRegistry, contexts: ContextSelection = .launch(),
        options: Container.Options = Container.Options(), pollInterval: Duration = .seconds(1)
    ) throws(ManifestError) {
        self.path = path
        self.registry = registry
        self.contexts = contexts
        self.options = options
        self.pollInterval = pollInterval
        let container = try Container(manifest: path, registry: registry, contexts: contexts, options: options)
        state = Locked(State(current: container, stamps: Self.stamps(of: container.manifest.files)))
    }

    /// What the last reload did (put the edited manifest in force, or why not); `nil` before
    /// the first. ``snapshot()`` shows it with the container in force.
    public var lastReload: ReloadEvent? { state.withLock { $0.lastReload } }

    /// The container in force, as ``Container/snapshot()`` shows it, with the last reload.
    public func snapshot() -> ContainerSnapshot {
        var snapshot = container.snapshot()
        snapshot.lastReload = lastReload
        return snapshot
    }

    /// Keeps `event` as the last reload and tells the observers.
    private func noteReload(_ event: ReloadEvent) {
        state.withLock { $0.lastReload = event }
        for observer in options.observers { observer.containerReloaded(event) }
    }

    /// The container in force: the last one built from the manifest without errors.
    public var container: Container { state.withLock { $0.current } }

    /// How many edits have been put in force since the first container: the number of the
    /// container in force, as the log names it (`container 3`), the first being 0.
    public var reloads: Int { state.withLock { $0.reloads } }

    /// A new scope of the container in force; it stays that container's until it ends, even
    /// when a reload puts a new container in force meanwhile.
    public func makeScope() -> ContainerScope {
        // Counted under the same lock a reload swaps the container under: a scope of the
        // container in force is open before that container can be retired, so it is never
        // handed out already shutting down.
        let (container, tracker) = state.withLock { state in
            state.tracker.opened()
            return (state.current, state.tracker)
        }
        return ContainerScope(container: container, countedBy: tracker)
    }

    /// Runs `body` with a new scope (``makeScope()``), then ends it, as
    /// ``Container/withScope(_:)`` does.
    public func withScope<Result>(_ body: (ContainerScope) async throws -> Result) async throws -> Result {
        try await makeScope().running(body)
    }

    /// Starts the container in force (``Container/start()``), then watches the manifest's files.
    public func start() async throws {
        try await container.start()
        state.withLock { state in
            guard state.watch == nil, !state.isShutDown else { return }
            let interval = pollInterval
            state.watch = Task { [weak self] in
                while !Task.isCancelled {
                    // The sleep throws only when the watch is cancelled: it then ends.
                    guard (try? await Task.sleep(for: interval)) != nil, let self else { return }
                    await self.reloadIfChanged()
                }
            }
        }
    }

    /// Stops watching, shuts the container in force down, and waits for every container
    /// reloads retired to shut down: those with scopes still open shut down when their last
    /// scope ends, so this returns once the requests in flight finished (and the hooks ran or
    /// their timeouts passed).
    ///
    /// - Throws: ``ShutdownError`` with the hooks of the container in force that failed (those
    ///   of retired containers are logged, as they fail where no caller waits).
    public func shutdown() async throws {
        let (watch, current, number) = state.withLock { state in
            state.isShutDown = true
            return (state.watch.take(), state.current, state.reloads)
        }
        watch?.cancel()
        await watch?.value
        var failure: (any Error)?
        do {
            try await current.shutdown()
        } catch {
            failure = error
        }
        options.logger?.info("reload: container \(number) shut down")
        await waitForRetired()
        if let failure { throw failure }
    }

    /// Waits until every retired container has shut down (each removes itself when done).
    private func waitForRetired() async {
        while let next = state.withLock({ $0.retiring.first?.value }) { await next.value }
    }

    /// How many retired containers are still waiting for their scopes or shutting down.
    var retiringCount: Int { state.withLock { $0.retiring.count } }

    /// Reloads now if a file of the manifest in force changed since it was read; whether a new
    /// container was put in force. What the watch does at each poll.
    @discardableResult
    public func reloadIfChanged() async -> Bool {
        let stamps = state.withLock { $0.stamps }
        guard Self.stamps(of: Array(stamps.keys)) != stamps else { return false }
        return await reload()
    }

    /// Loads the manifest again and, when it has no errors and its container starts, puts the
    /// new container in force; whether it did. Errors are logged at error level, each at its
    /// position, and the container in force stays.
    @discardableResult
    public func reload() async -> Bool {
        let claimed = state.withLock { state in
            guard !state.isReloading, !state.isShutDown else { return false }
            state.isReloading = true
            return true
        }
        guard claimed else { return false }
        defer { state.withLock { $0.isReloading = false } }
        let logger = options.logger
        let clock = ReportClock()
        let root = ManifestRoot(manifest: path)
        func event(applied: Bool, _ failures: [ReportedFailure]) -> ReloadEvent {
            ReloadEvent(began: clock.wallBegan, duration: clock.elapsed, applied: applied, failures: failures)
        }
        // Stamped before they are read: an edit made while they are read is seen at the next
        // poll. The files the manifest in force reads, then any the edit brought in (a new
        // import with a mistake, fixed next), so that the next edit of any of them is seen.
        let before = Self.stamps(of: container.manifest.files)
        let (bound, files) = Container.bind(manifest: path, registry: registry, contexts: contexts, options: options)
        let stamps = before.merging(Self.stamps(of: files.filter { !before.keys.contains($0) })) { earlier, _ in earlier }
        let fresh: Container
        do throws(ManifestError) {
            fresh = Container(bound: try bound.get(), options: options)
        } catch {
            state.withLock { $0.stamps = stamps }
            let listed = error.errors.map { $0.formatted() }.joined(separator: "\n")
            logger?.error("reload: the edited manifest has errors; the container in force keeps serving\n\(listed)")
            noteReload(event(applied: false, error.errors.map { diagnostic in
                ReportedFailure(.manifestError, message: diagnostic.message, location: diagnostic.location.map(root.relative))
            }))
            return false
        }
        do {
            try await fresh.start()
        } catch {
            state.withLock { $0.stamps = stamps }
            logger?.error("reload: the new container did not start; the container in force keeps serving: \(error)")
            await Self.shutDown(fresh, logger: logger, what: "the container that did not start")
            noteReload(event(applied: false, [ReportedFailure(.startFailed, error: error, root: root)]))
            return false
        }
        // The swap and the retiring container's record under one lock: a `shutdown()` at any
        // moment finds either the new container in force and the old one retiring, or neither
        // put in force and the new one retiring, and waits for what retires.
        let applied = state.withLock { state -> Int? in
            guard !state.isShutDown else {
                retire(fresh, tracker: nil, what: "the container built while shutting down", in: &state)
                return nil
            }
            retire(state.current, tracker: state.tracker, what: "container \(state.reloads)", in: &state)
            state.current = fresh
            state.tracker = ScopeTracker()
            state.stamps = stamps
            state.reloads += 1
            return state.reloads
        }
        guard let applied else { return false }
        logger?.info("reload: the edited manifest is in force as container \(applied); container \(applied - 1) shuts down when its last scope ends")
        noteReload(event(applied: true, []))
        return true
    }

    /// Shuts `container` down once the last scope `tracker` counts ended (at once without one),
    /// in a task ``shutdown()`` waits for; recorded in `state` under its lock, so that it is in
    /// the table before it can remove itself.
    private func retire(_ container: Container, tracker: ScopeTracker?, what: String, in state: inout State) {
        let logger = options.logger
        state.retired += 1
        let number = state.retired
        state.retiring[number] = Task { [weak self] in
            if let tracker {
                await withCheckedContinuation { (idle: CheckedContinuation<Void, Never>) in
                    tracker.retire { idle.resume() }
                }
            }
            await Self.shutDown(container, logger: logger, what: what)
            logger?.info("reload: \(what) shut down")
            self?.state.withLock { _ = $0.retiring.removeValue(forKey: number) }
        }
    }

    /// Shuts `container` down, logging the hooks that failed: no caller waits for it.
    private static func shutDown(_ container: Container, logger: Logger?, what: String) async {
        do {
            try await container.shutdown()
        } catch {
            logger?.error("reload: shutting \(what) down: \(error)")
        }
    }

    private static func stamps(of files: [String]) -> [String: FileStamp?] {
        var stamps: [String: FileStamp?] = [:]
        for file in files { stamps.updateValue(FileStamp(file), forKey: file) }
        return stamps
    }
}
