internal import Logging

/// Refresh: a started container watches the keys its services' arguments read, and rebuilds
/// what reads a key that changed.
extension Container {
    /// Starts watching the configuration source, once `start()` succeeded; does nothing for a
    /// container without one, or whose arguments read none of its keys.
    func startWatching() {
        guard let watch = configurationWatch else { return }
        let source = watch.source
        let logger = logger
        life.lifecycle.withLock { state in
            guard state.watch == nil, state.shutdown == nil else { return }
            // Holds the container weakly: one dropped without a shutdown stops the watch at the
            // next change.
            state.watch = Task { [weak self] in
                do {
                    try await source.watch { [weak self] current in
                        guard let self else {
                            withUnsafeCurrentTask { $0?.cancel() }
                            return
                        }
                        await self.refresh(from: current)
                    }
                } catch where !Task.isCancelled {
                    logger?.error("refresh: the configuration source stopped reporting changes: \(error)")
                } catch {}
            }
        }
    }

    /// Puts the values `current` reads in force, and drops the kept instances built with the
    /// earlier ones, running their shutdown hooks.
    func refresh(from current: any ConfigurationSource) async {
        guard let watch = configurationWatch, !isShutDown else { return }
        let clock = ReportClock()
        let applied = watch.apply(current, logger: logger)
        var failed: [ReportedFailure] = []
        let root = ManifestRoot(manifest: manifest.files.first)
        defer {
            if !applied.changed.isEmpty || !applied.rejected.isEmpty {
                let event = RefreshEvent(began: clock.wallBegan, duration: clock.elapsed, changedKeys: applied.changed,
                                         dropped: applied.dropped.map(\.shown), rejected: applied.rejected, failures: failed)
                configurationWatch?.noteRefresh(event)
                for observer in observers { observer.containerRefreshed(event) }
            }
        }
        let dropped = applied.dropped
        guard !dropped.isEmpty else { return }
        let failures = await drop(dropped)
        failed += failures.map { ReportedFailure($0, root: root) }
        if !failures.isEmpty { logger?.error("refresh: \(ShutdownError(failures: failures))") }
        // An eager service is built up front, as start() builds it: its factory's effects
        // (a level it sets, a connection it opens) take the new value now, not at a resolve.
        for registration in dropped where registration.isEager && !isShutDown {
            do {
                try await build(eager: registration)
            } catch {
                failed.append(ReportedFailure(.rebuildFailed, error: error, service: registration.shown, at: registration.location, root: root))
                logger?.error("refresh: eager service \(registration.step) could not be built again: \(error)")
            }
        }
    }

    /// Drops the kept instances of `registrations` (waiting for a build under way to end
    /// first), then runs the hooks of the instances dropped, the last built first. Returns the
    /// hooks that failed.
    func drop(_ registrations: [Registration]) async -> [ShutdownError.Failure] {
        // A record added once a slot was emptied is a new build's, with the new values.
        var recordedBefore: [ObjectIdentifier: Int] = [:]
        for registration in registrations {
            guard case .kept(_, _, let own, let place) = registration.keeping else { continue }
            let slot = keptSlot(own, at: place)
            while let build = slot.expire() {
                do {
                    try await slot.wait(for: build)
                } catch {
                    break
                }
            }
            recordedBefore[ObjectIdentifier(registration)] = kept.added
        }
        typeCache.write { cache in
            cache.generation += 1
            for registration in registrations {
                // Only a container with a watch refreshes: it lists what it cached.
                for id in configurationWatch?.takeCachedTypes(of: registration) ?? [] {
                    cache.instances[id] = nil
                }
            }
        }
        return await KeptInstances.shutDown(kept.take(before: recordedBefore), defaultTimeout: shutdownTimeout, since: .now)
            .compactMap(\.failure)
    }
}
