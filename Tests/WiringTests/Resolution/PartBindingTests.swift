import Testing
@testable import Wiring

/// A large manifest is bound in parts, which the thread that validated it may share
/// (``SharedBinding``). Whichever thread binds which part, the container's table, its
/// registrations and the problems found must be those of binding every service in one go.
@Suite("Binding in parts")
struct PartBindingTests {
    final class Part: Sendable {}

    /// 3,000 services, so that binding cuts them into many parts, with what crosses parts:
    /// decorators of services bound in another part, `implements` types listed by services of
    /// several parts (named and unnamed), named variants, and problems in several parts
    /// (factories not registered, an unset environment variable).
    private func manifest(services count: Int) -> String {
        var text = "wiring: 1\nservices:\n"
        for index in 0..<count {
            text += "  S\(index):\n"
            if index % 97 == 13 {
                text += "    factory: missing-\(index % 3)\n"
            } else {
                text += "    factory: f\(index % 7)\n"
            }
            text += "    scope: \(["singleton", "unique", "graph", "cached", "shared"][index % 5])\n"
            if index % 4 == 0 { text += "    implements: [Own\(index), { type: Shared\(index % 40), name: n\(index) }]\n" }
            if index % 400 == 7 { text += "    implements: [Shared\((index / 400) % 40)]\n" }
            if index % 3 == 0 { text += "    names:\n      alt: { args: { url: \"u\(index)\" } }\n" }
            if index % 500 == 250 { text += "    args: { token: \"${WIRING_UNSET_FOR_PART_TEST}\" }\n" }
            // Decorates a service about half the manifest away, so most likely in another part.
            if index % 50 == 25 { text += "    decorates: S\((index + count / 2 + 1) % count)\n    implements: [Decorator\(index)]\n" }
        }
        return text
    }

    private func registry() -> FactoryRegistry {
        let registry = FactoryRegistry()
        for index in 0..<8 { registry.factory("f\(index)") { _ in Part() } }
        return registry
    }

    /// What binding gave, as text to compare: every target by key, every registration in
    /// order, every problem.
    private func summary(_ table: (targets: TargetMap, registrations: [[Registration]]), _ binder: Binder) -> [String] {
        var lines = binder.diagnostics.map(\.description)
        lines += table.registrations.joined().map { "registration \($0.key)[\($0.name ?? "")] \($0.factoryKey) \($0.scope)" }
        for key in table.targets.keys.sorted() {
            guard let target = table.targets[key] else { continue }
            let named = target.named.keys.sorted().map { "\($0)=\(target.named[$0]!.key)[\(target.named[$0]!.name ?? "")]" }
            lines.append("target \(key) → \(target.serviceKey) unnamed: \(target.unnamed?.key ?? "-") named: \(named)")
        }
        return lines
    }

    /// Reports the first line that differs, rather than both summaries whole.
    private func expectSame(_ lines: [String], _ expected: [String], sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let first = zip(lines, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(first == nil, "line \(first ?? 0): \(first.map { lines[$0] } ?? "") instead of \(first.map { expected[$0] } ?? "")",
                sourceLocation: sourceLocation)
        #expect(lines.count == expected.count, sourceLocation: sourceLocation)
    }

    @Test func partsBoundByTwoThreadsGiveWhatOneGoGives() throws {
        let path = try TestSupport.temporaryFile(manifest(services: 3_000))
        let manifest = try ManifestLoader(environment: [:]).load(path)
        var whole = Binder(manifest: manifest, registry: registry(), environment: [:])
        let expected = summary(whole.bind(), whole)
        #expect(expected.contains { $0.contains("'missing-1'") })
        #expect(expected.contains { $0.contains("WIRING_UNSET_FOR_PART_TEST") })
        #expect(expected.contains { $0.hasPrefix("target Shared12 → S12 ") && $0.contains("n12=S12[]") })

        // The other thread asks for parts until binding starts, then takes what is left; a
        // run where the building thread took every part proves nothing, so it runs again.
        var helped = 0
        for _ in 0..<20 where helped == 0 {
            let sharing = SharedBinding()
            let done = Locked(false)
            let helper = OtherThread { () -> Int in
                while !done.withLock({ $0 }) {
                    let bound = sharing.help()
                    if bound > 0 { return bound }
                }
                return 0
            }
            var shared = Binder(manifest: manifest, registry: registry(), environment: [:])
            let table = shared.bind(sharing: sharing)
            done.withLock { $0 = true }
            helped = helper.join()
            expectSame(summary(table, shared), expected)
        }
        #expect(helped > 0)
    }

    @Test func aSmallManifestIsOnePart() throws {
        let path = try TestSupport.temporaryFile(manifest(services: 100))
        let manifest = try ManifestLoader(environment: [:]).load(path)
        var whole = Binder(manifest: manifest, registry: registry(), environment: [:])
        let expected = summary(whole.bind(), whole)
        var shared = Binder(manifest: manifest, registry: registry(), environment: [:])
        expectSame(summary(shared.bind(sharing: SharedBinding()), shared), expected)
    }
}
