extension Unmanaged {
    /// Runs `body` with the instance borrowed, so that the call counts no reference to it: the
    /// resolve path's way to use what the container holds. `_withUnsafeGuaranteedRef` only
    /// rethrows untyped errors, so the resolution error is recovered here.
    @inline(__always)
    func borrowing<Result>(_ body: (Instance) throws(ResolutionError) -> Result) throws(ResolutionError) -> Result {
        do {
            return try _withUnsafeGuaranteedRef { instance in try body(instance) }
        } catch let error as ResolutionError {
            throw error
        } catch {
            // `body` throws nothing else.
            throw ResolutionError(.factoryFailed(error), message: "\(error)", path: [])
        }
    }
}
