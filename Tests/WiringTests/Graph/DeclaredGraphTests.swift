import Foundation
import Testing
@testable import Wiring

@Suite("The declared graph, checked statically")
struct DeclaredGraphTests {
    /// Writes `files` to a fresh folder and validates the first, every context checked; returns
    /// the headlines with the folder removed.
    static func validate(_ files: [(String, String)]) throws -> [String] {
        let folder = try TestSupport.temporaryFolder()
        for (name, text) in files { try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        let result = ManifestLoader(environment: [:]).validate(folder.appendingPathComponent(files[0].0).path,
                                                               options: ValidationOptions(contexts: [], eachContext: true, factoryKeys: nil))
        return result.diagnostics.map { $0.headline.replacingOccurrences(of: folder.path + "/", with: "") }
    }

    @Test func aCycleAcrossAnImportAndAContextIsReportedOnceWithEveryEdge() throws {
        let headlines = try Self.validate([
            ("services.yaml", """
                wiring: 1
                imports: [logging.yaml]
                services:
                  App: { scope: singleton, args: { store: !service NoteStore } }
                  NoteStore: { scope: singleton, args: { log: !service Logger } }
                contexts:
                  debug:
                    services:
                      Logger: { args: { app: !service App } }
                """),
            ("logging.yaml", """
                wiring: 1
                services:
                  Logger: { scope: singleton }
                """),
        ])
        #expect(headlines == [
            "services.yaml:4:43: error: circular dependency through declared references: App → NoteStore (services.yaml:4:43) → Logger (services.yaml:5:47) → App (services.yaml:9:30)",
        ])
    }

    @Test func captiveDependenciesAreWarningsWithTheirPath() throws {
        let headlines = try Self.validate([("services.yaml", """
            wiring: 1
            scopes: { custom: { session: { ttl: 5m } } }
            services:
              App: { scope: singleton, args: { unit: !service Unit, session: !service Session } }
              Unit: { scope: scoped, args: { clock: !service Clock } }
              Clock: { scope: unique }
              Session: { scope: session }
            """)])
        #expect(headlines == [
            "services.yaml:4:42: warning: captive dependency: App (singleton) → Unit (scoped) through argument 'unit': the singleton instance would keep one Unit for longer than its scope",
            "services.yaml:4:66: warning: captive dependency: App (singleton) → Session (session) through argument 'session': the singleton instance would keep one Session for longer than its scope",
            "services.yaml:5:41: warning: captive dependency: Unit (scoped) → Clock (unique) through argument 'clock': the scoped instance would keep one Clock for longer than its scope",
        ])
    }

    @Test func unknownAndSwitchedOffServicesNamesAndTags() throws {
        let headlines = try Self.validate([("services.yaml", """
            wiring: 1
            services:
              App:
                args:
                  store: !service NoteStor
                  archive: !service { service: NoteStore, name: arkive }
                  checks: !tagged helth
                  clock: !service Clock
                  odd: !service { service: NoteStore, nme: x }
              NoteStore: { tags: [health], names: { archive: {} } }
              Clock: {}
            contexts:
              test:
                services:
                  Clock: { enabled: false }
            """)])
        #expect(headlines == [
            "services.yaml:5:14: error: argument 'store' of service 'App' refers to unknown service 'NoteStor'; did you mean 'NoteStore'?",
            "services.yaml:6:16: error: argument 'archive' of service 'App' refers to variant 'arkive' of service 'NoteStore', which it does not declare; did you mean 'archive'? (its names: archive)",
            "services.yaml:7:15: warning: argument 'checks' of service 'App' reads the services tagged 'helth', but no service has that tag; did you mean 'health'?",
            "services.yaml:9:43: error: unknown key 'nme' in a !service reference; did you mean 'name'? (keys: service, name)",
        ])
        let fixed = try Self.validate([("services.yaml", """
            wiring: 1
            services:
              App: { args: { clock: !service Clock } }
              Clock: {}
            contexts:
              test:
                services:
                  Clock: { enabled: false }
            """)])
        #expect(fixed == [
            "services.yaml:3:25: error: argument 'clock' of service 'App' refers to service 'Clock', which is switched off in context 'test' (services.yaml:8:25)",
        ])
    }
}
