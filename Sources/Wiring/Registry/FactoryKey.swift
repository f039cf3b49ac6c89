/// A factory key: the name a manifest gives in `factory:` and Swift code registers with
/// ``FactoryRegistry/factory(_:overriding:fileID:line:column:_:)-7b1qk``.
///
/// The `WiringValidate` build plugin generates, for a target, an enum of the keys its manifests
/// name, so that registering through the constants makes a misspelt key a compile error:
///
/// ```swift
/// registry.factory(WiringFactoryKeys.fileNoteStore) { r in FileNoteStore(directory: try r.arg("directory")) }
/// ```
public typealias FactoryKey = String

/// The factory keys a target's manifests name, as the `WiringValidate` build plugin generates
/// them (`enum WiringFactoryKeys: FactoryKeySet`).
///
/// A missing registration cannot be a compile error: which factories a build registers is
/// decided at run time (a library's registrations, a test's, one per context). So the
/// generated type offers the check instead, for the app's tests, its `main`, or its
/// `validate --instantiate` (through `WiringApp`'s `factoryKeys`, in WiringCommands):
///
/// ```swift
/// #expect(WiringFactoryKeys.missing(in: .notes).isEmpty)
/// ```
public protocol FactoryKeySet {
    /// Every key the manifests name, in manifest order, each once.
    static var all: [FactoryKey] { get }
}

extension FactoryKeySet {
    /// The keys the manifests name that `registry` has no factory for, in manifest order.
    public static func missing(in registry: FactoryRegistry) -> [FactoryKey] {
        all.filter { !registry.contains($0) }
    }
}
