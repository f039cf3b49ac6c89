import Foundation
import Testing

/// The example app, run as users run it, in several environments.
@Suite("wiring-example (binary)")
struct ExampleAppTests {
    func example(_ arguments: [String], environment: [String: String]) throws -> ExampleRun {
        try ExampleRun.run(arguments, environment: environment)
    }

    func temporaryFolder() throws -> String {
        try ExampleRun.temporaryFolder()
    }

    @Test func byDefaultNotesAreFilesAndSavesAreAudited() throws {
        let folder = try temporaryFolder()
        let output = try example([], environment: ["NOTES_DIR": folder])
        #expect(output.status == 0)
        #expect(output.stdout == """
            contexts: none
            store: AuditedNoteStore
            api: https://api.notes.example.com (timeout 10s)
            Note saved: Hello from Wiring
            (1 notes in all)
            notes: 1
            journal: \(folder)/activity.log
            health checks: 2

            """)
        #expect(output.stderr == "[info] audit: saved 'Hello from Wiring'\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["activity.log", "hello-from-wiring.json"])
        // The eager journal was opened by start() and closed, once, by its shutdown hook.
        #expect(try String(contentsOfFile: folder + "/activity.log", encoding: .utf8) == "opened\nsaved Hello from Wiring\nclosed\n")
        // A second process reads what the first wrote.
        let list = try example(["list"], environment: ["NOTES_DIR": folder])
        #expect(list.stdout.hasSuffix("  Hello from Wiring: saved through AuditedNoteStore\n"))
    }

    @Test func aMisspeltLogLevelStopsTheAppAtItsLineBeforeAnyFactoryRuns() throws {
        let folder = try temporaryFolder()
        let output = try example([], environment: ["NOTES_DIR": folder, "LOG_LEVEL": "warnng"])
        #expect(output.status != 0)
        #expect(output.stderr.contains(
            "config-examples/logging.yaml:14:14: error: service Logger: argument 'level': the value of environment variable 'LOG_LEVEL' is not a case of LogLevel (debug, info, warning, error)"),
            "\(output.stderr)")
        #expect(!output.stderr.contains("warnng"))
        // Nothing was opened: the eager journal's factory never ran.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    }

    @Test func theCommittedCatalogIsTheAppsOwn() throws {
        // The build plugin checks config-examples/ against it (wiring-plugin.json names it).
        let output = try example(["catalog"], environment: [:])
        let committed = try String(contentsOfFile: ExampleRun.repositoryRoot + "/Examples/NotesApp/Sources/WiringExample/factories.json", encoding: .utf8)
        #expect(output.stdout == committed, "stale: run swift run --package-path Examples/NotesApp wiring-example catalog > Examples/NotesApp/Sources/WiringExample/factories.json")
    }

    @Test func theTestContextKeepsNotesInMemoryWithAFixedClock() throws {
        let folder = try temporaryFolder()
        let output = try example([], environment: ["NOTES_DIR": folder, "WIRING_CONTEXT": "test"])
        #expect(output.status == 0)
        #expect(output.stdout == """
            contexts: test (WIRING_CONTEXT)
            store: InMemoryNoteStore
            api: https://api.notes.example.com (timeout 10s)
            recorded notification: Hello from Wiring (0)
            notes: 0
            journal: /tmp/wiring-notes-test/activity.log
            health checks: 2

            """)
        #expect(output.stderr.isEmpty)   // the audit decorator is switched off in test
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    }

    @Test func productionUsesTheWebhookAndTheOverlaysAuditPrefix() throws {
        let folder = try temporaryFolder()
        let output = try example(["add", "Ship it", "v1", "--wiring-context", "production"], environment: ["NOTES_DIR": folder])
        #expect(output.status == 0)
        #expect(output.stdout == "POST https://hooks.example.com/notes (timeout 2.5s) {\"title\": \"Ship it\", \"count\": 1}\n")
        #expect(output.stderr == "[warning] audit[prod]: saved 'Ship it'\n")   // logLevel and prefix from production
        let webhook = try example(["add", "Two"], environment: ["NOTES_DIR": folder, "WIRING_CONTEXT": "production",
                                                               "NOTES_WEBHOOK_URL": "https://hooks.internal/x"])
        #expect(webhook.stdout.hasPrefix("POST https://hooks.internal/x "))
    }

    @Test func stagingTalksToTheStagingAPI() throws {
        let output = try example([], environment: ["NOTES_DIR": try temporaryFolder(), "WIRING_CONTEXT": "staging"])
        #expect(output.status == 0)
        #expect(output.stdout.contains("api: https://staging.api.notes.example.com (timeout 10s)\n"))
    }

    @Test func theArchiveIsANamedVariantWithItsOwnFolder() throws {
        let folder = try temporaryFolder()
        let environment = ["NOTES_DIR": folder]
        #expect(try example(["list", "--archive"], environment: environment).stdout.isEmpty)
        // The archive variant reads $(archiveDirectory) = $(notesDirectory)/archive.
        let archive = URL(fileURLWithPath: folder).appendingPathComponent("archive")
        try FileManager.default.createDirectory(at: archive, withIntermediateDirectories: true)
        try Data(#"{"title":"Old","body":"","created":1}"#.utf8).write(to: archive.appendingPathComponent("old.json"))
        #expect(try example(["list", "--archive"], environment: environment).stdout == "1  Old\n")
        #expect(try example(["list"], environment: environment).stdout.isEmpty)
    }

    @Test func anUnknownContextStopsWithASuggestion() throws {
        let output = try example([], environment: ["WIRING_CONTEXT": "prod"])
        #expect(output.status == 1)
        #expect(output.stderr == "error: unknown context 'prod' from WIRING_CONTEXT (contexts: production, staging, test)\n")
    }

    @Test func theEmbeddedValidateChecksFactoriesAndBuildsEverything() throws {
        for context in ["", "test", "staging", "production"] {
            var arguments = ["validate", "config-examples/services.yaml", "--instantiate"]
            if !context.isEmpty { arguments += ["--context", context] }
            let output = try example(arguments, environment: ["NOTES_DIR": try temporaryFolder()])
            #expect(output.status == 0, "\(context): \(output.stdout)")
        }
        let catalog = try example(["catalog"], environment: [:])
        #expect(catalog.stdout.contains("\"file-note-store\""))
    }
}
