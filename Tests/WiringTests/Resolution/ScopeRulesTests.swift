import Testing
@testable import Wiring

/// What each scope declares of itself, in one table: every check that decides by scope (the
/// validator, the captive check, binding, both engines, refresh, children) asks these answers,
/// so a new built-in scope adds its row here, its case in `Manifest/Scope.swift`, and its line
/// in Scopes.md's table.
@Suite("Scope rules")
struct ScopeRulesTests {
    private struct Rules: Equatable {
        var keepsNoInstance: Bool
        var perContainerScope: Bool
        var keptByContainer: Bool
        var takesTimeToLive: Bool
        var rebuildsOnConfigurationChange: Bool
        var canBeSeeded: Bool
        var shareableWithChild: Bool
        var rank: Int
        var rankWhenExpiring: Int

        init(_ scope: Scope) {
            keepsNoInstance = scope.keepsNoInstance
            perContainerScope = scope.isPerContainerScope
            keptByContainer = scope.isKeptByContainer
            takesTimeToLive = scope.takesTimeToLive
            rebuildsOnConfigurationChange = scope.rebuildsOnConfigurationChange
            canBeSeeded = scope.canBeSeeded
            shareableWithChild = scope.isShareableWithChild
            rank = scope.lifetimeRank(expires: false)
            rankWhenExpiring = scope.lifetimeRank(expires: true)
        }

        init(_ keepsNoInstance: Bool, _ perContainerScope: Bool, _ keptByContainer: Bool, _ takesTimeToLive: Bool,
             _ rebuildsOnConfigurationChange: Bool, _ canBeSeeded: Bool, _ shareableWithChild: Bool, _ rank: Int, _ rankWhenExpiring: Int) {
            (self.keepsNoInstance, self.perContainerScope, self.keptByContainer, self.takesTimeToLive) =
                (keepsNoInstance, perContainerScope, keptByContainer, takesTimeToLive)
            (self.rebuildsOnConfigurationChange, self.canBeSeeded, self.shareableWithChild) =
                (rebuildsOnConfigurationChange, canBeSeeded, shareableWithChild)
            (self.rank, self.rankWhenExpiring) = (rank, rankWhenExpiring)
        }
    }

    /// The documented answers, scope by scope (Scopes.md): kept nowhere, per request scope or by
    /// the container; `ttl`; rebuilt when configuration changes; seeded; shared with a child;
    /// the captive check's lifetime rank without and with an expiry.
    private static let expected: [(Scope, Rules)] = [
        (.unique, Rules(true, false, false, false, true, false, true, 0, 0)),
        (.graph, Rules(true, false, false, false, true, false, true, 1, 1)),
        (.scoped, Rules(false, true, false, false, true, true, false, 2, 2)),
        (.cached, Rules(false, false, true, true, true, false, true, 4, 3)),
        (.shared, Rules(false, false, true, false, true, false, true, 3, 3)),
        (.singleton, Rules(false, false, true, false, false, false, true, 5, 5)),
        (Scope("session"), Rules(false, false, true, true, true, false, true, 4, 3)),
    ]

    /// A scope is its name: one made from the manifest's text is the built-in one, in a set or
    /// as a key too; a custom scope is not built in.
    @Test func aScopeIsItsName() {
        #expect(Scope("cached") == .cached && Set([Scope("cached"), .cached, .singleton]).count == 2)
        #expect([Scope("nightly"): 1][Scope("nightly")] == 1)
        #expect(Scope.cached.isBuiltIn && !Scope("nightly").isBuiltIn)
        #expect(Scope.defaultScope == .graph && "\(Scope.singleton)" == "singleton")
    }

    @Test func eachScopeDeclaresTheRulesItsDocumentationGives() {
        #expect(Self.expected.filter { $0.0.isBuiltIn }.map(\.0) == Scope.builtIn, "every built-in scope has a row here")
        for (scope, rules) in Self.expected {
            #expect(Rules(scope) == rules, "\(scope)")
        }
    }

    @Test func howEachScopeKeepsItsInstanceFollowsItsRules() {
        var scoped = 0, kept = 0
        for (scope, rules) in Self.expected {
            let keeping = scope.keeping(timeToLive: .seconds(5), customTimeToLive: .seconds(9), scopedCount: &scoped, keptCount: &kept)
            switch keeping {
            case .unique, .graph:
                #expect(rules.keepsNoInstance, "\(scope)")
            case .scoped:
                #expect(rules.perContainerScope, "\(scope)")
            case .kept(let timeToLive, let weakly, _, _):
                #expect(rules.keptByContainer, "\(scope)")
                #expect((timeToLive != nil) == rules.takesTimeToLive, "\(scope)")
                #expect(weakly == (scope == .shared), "\(scope)")
            }
        }
        #expect(scoped == 1 && kept == 4)
    }
}
