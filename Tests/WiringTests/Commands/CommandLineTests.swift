import Foundation
import Testing

/// The `wiring` tool and an app's embedded commands, run as built binaries on fixture files.
@Suite("wiring commands (binary)")
struct CommandLineTests {
    let contexts = "Tests/WiringTests/Fixtures/contexts/services.yaml"
    let collision = "Tests/WiringTests/Fixtures/contexts/collision.yaml"

    func wiring(_ arguments: String..., environment: [String: String] = [:]) throws -> BinaryRunner.Output {
        try BinaryRunner.run("wiring", arguments, environment: environment)
    }

    // MARK: validate

    @Test func errorsInOneFileAndAcrossAnImportInOnePass() throws {
        let output = try wiring("validate", "Tests/WiringTests/Fixtures/imports/root.yaml")
        #expect(output.status == 1)
        let headlines = output.stdout.split(separator: "\n").filter { $0.contains(": error: ") }
        #expect(headlines.map { String($0.prefix { $0 != " " }) } == [
            "Tests/WiringTests/Fixtures/imports/root.yaml:2:19:",
            "Tests/WiringTests/Fixtures/imports/a.yaml:4:3:",
            "Tests/WiringTests/Fixtures/imports/a.yaml:6:3:",
            "Tests/WiringTests/Fixtures/imports/b.yaml:2:11:",
        ])
        #expect(output.stdout.hasSuffix("4 errors, 0 warnings in 1 manifest\n"))
    }

    @Test func contextFlagChecksWithTheContextApplied() throws {
        let output = try wiring("validate", collision, "--context", "twins")
        #expect(output.status == 1)
        #expect(output.stdout.contains("collision.yaml:9:54: error: 'Greeting' is implemented by both 'Greeter' and 'OtherGreeter'"))
        #expect(!output.stdout.contains("lonely"))
        #expect(output.stdout.hasSuffix("1 error, 0 warnings in 1 manifest with context twins\n"))
    }

    @Test func allContextsNamesTheContextOfEachProblem() throws {
        let output = try wiring("validate", collision, "--all-contexts")
        #expect(output.status == 1)
        #expect(output.stdout.contains("note: with context lonely applied"))
        #expect(output.stdout.contains("note: with context twins applied"))
        #expect(output.stdout.hasSuffix("2 errors, 0 warnings in 1 manifest; each context checked: lonely, twins\n"))
    }

    @Test func anUnknownContextIsAnErrorWithASuggestion() throws {
        let output = try wiring("validate", contexts, "--context", "stagin")
        #expect(output.status == 1)
        #expect(output.stdout == """
            error: unknown context 'stagin'; did you mean 'staging'? (contexts: loud, quiet, staging, test)
            1 error, 0 warnings in 1 manifest with context stagin

            """)
    }

    @Test func catalogChecksFactoryKeysWithSuggestions() throws {
        let catalog = try TestSupport.temporaryFile(#"{"wiring-catalog": 1, "factories": ["greeter", "system-clock", "fixed-clock", "audit", "baner"]}"#, name: "factories.json")
        let output = try wiring("validate", contexts, "--catalog", catalog)
        #expect(output.status == 1)
        #expect(output.stdout.contains("services.yaml:35:26: error: service 'Banner' uses factory 'banner', which is not registered; did you mean 'baner'?"))
        let clean = try TestSupport.temporaryFile(#"{"wiring-catalog": 1, "factories": ["greeter", "system-clock", "fixed-clock", "audit", "banner"]}"#, name: "factories.json")
        #expect(try wiring("validate", contexts, "--catalog", clean).status == 0)
        let broken = try TestSupport.temporaryFile("not json", name: "factories.json")
        let bad = try wiring("validate", contexts, "--catalog", broken)
        #expect(bad.status == 1)
        #expect(bad.stdout.hasPrefix("error: '\(broken)' is not a factory catalog: it is not valid JSON"))
    }

    /// A file that is JSON but not a catalog is refused with where it goes wrong, not only
    /// with the shape a catalog has.
    @Test(arguments: [
        (#"{"wiring-catalog": 2, "factories": ["greeter"], "autowired": {"greeter": ["Store", 5]}}"#, "autowired.greeter[1] should be a string"),
        (#"{"factories": ["greeter"]}"#, "it has no 'wiring-catalog' key"),
        (#"["greeter"]"#, "the catalog should be an object"),
        (#"{"wiring-catalog": 2, "factories": ["pool"], "arguments": {"pool": {"type": "object"}}}"#, "arguments.pool has no 'fields' key"),
        (#"{"wiring-catalog": null, "factories": []}"#, "wiring-catalog should be an integer, not null"),
        (#"{"wiring-catalog": 2, "factories": ["greeter"], "autowired": {"greter": ["Store"]}}"#,
         "autowired.greter: a factory the catalog's 'factories' does not list"),
        (#"{"wiring-catalog": 2, "factories": ["greeter"], "autowired": {"greeter": ["Store", "?"]}}"#,
         "autowired.greeter[1]: an empty type name"),
        (#"{"wiring-catalog": 2, "factories": ["greeter"], "autowired": {"greeter": [""]}}"#, "autowired.greeter[0]: an empty type name"),
        (#"{"wiring-catalog": 2, "factories": [], "arguments": {"pool": {"type": "object", "fields": []}}}"#,
         "arguments.pool: a factory the catalog's 'factories' does not list"),
    ])
    func aCatalogThatIsNotOneSaysWhereItGoesWrong(json: String, problem: String) throws {
        let catalog = try TestSupport.temporaryFile(json, name: "factories.json")
        let output = try wiring("validate", contexts, "--catalog", catalog)
        #expect(output.status == 1)
        #expect(output.stdout.hasPrefix("error: '\(catalog)' is not a factory catalog: \(problem) (a catalog is"), "\(output.stdout)")
    }

    @Test func jsonOutputParsesAndCarriesPositionsAndContexts() throws {
        let output = try wiring("validate", collision, "--all-contexts", "--format", "json")
        #expect(output.status == 1)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        #expect(json["errors"] as? Int == 2)
        #expect(json["warnings"] as? Int == 0)
        let manifests = try #require(json["manifests"] as? [[String: Any]])
        let diagnostics = try #require(manifests.first?["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.map { $0["line"] as? Int } == [5, 9])
        #expect(diagnostics.map { $0["context"] as? String } == ["lonely", "twins"])
        #expect(diagnostics.first?["severity"] as? String == "error")
        #expect(diagnostics.first?["file"] as? String == collision)
    }

    @Test func usageErrorsKeepArgumentParsersExitCode() throws {
        let output = try wiring("validate", contexts, "--format", "xml")
        #expect(output.status == 64)
        #expect(output.stderr.contains("The value 'xml' is invalid for '--format <format>'"))
    }

    // MARK: explain

    @Test func explainShowsOriginsAndRedactsTheEnvironment() throws {
        let output = try wiring("explain", "config-examples/services.yaml", "NoteStore", "--context", "test",
                                environment: ["NOTES_DIR": "/srv/notes"])
        #expect(output.status == 0)
        #expect(output.stdout.contains("factory                       in-memory-note-store            config-examples/services.yaml:91:29 (context test)"))
        #expect(output.stdout.contains("args.encoding                 utf-8                           config-examples/services.yaml:13:15"))
        let base = try wiring("explain", "config-examples/services.yaml", "NoteStore", environment: ["NOTES_DIR": "/srv/notes"])
        #expect(base.stdout.contains("args.directory                <redacted>"))
        #expect(!base.stdout.contains("/srv/notes"))
        let shown = try wiring("explain", "config-examples/services.yaml", "NoteStore", "--show-values", environment: ["NOTES_DIR": "/srv/notes"])
        #expect(shown.stdout.contains("/srv/notes"))
    }

    /// What a context adds, and the named variants it writes, are shown as the context's; a
    /// service the context switches off is an error that says so, at the line that does.
    @Test func explainShowsWhatAContextAddsAndWhatItSwitchesOff() throws {
        let added = try wiring("explain", contexts, "Banner", "--context", "loud")
        #expect(added.status == 0, "\(added.stdout)")
        let addedLines = added.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0.hasPrefix("factory ") || $0.hasPrefix("args.text ") }
        #expect(addedLines.count == 2 && addedLines.allSatisfy { $0.hasSuffix("(context loud)") }, "\(added.stdout)")
        let variants = try wiring("explain", contexts, "Greeter", "--context", "quiet")
        #expect(variants.status == 0)
        let soft = variants.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0.hasPrefix("names.soft ") || $0.hasPrefix("names.soft.args.greeting ") }
        #expect(soft.count == 2 && soft.allSatisfy { $0.hasSuffix("(context quiet)") }, "\(variants.stdout)")
        let off = try wiring("explain", contexts, "Audit", "--context", "test")
        #expect(off.status == 1)
        #expect(off.stdout.hasPrefix("\(contexts):30:25: error: service 'Audit' is switched off in context 'test'"), "\(off.stdout)")
    }

    @Test func explainOfAnUnknownServiceSuggests() throws {
        let output = try wiring("explain", "config-examples/services.yaml", "NoteStor")
        #expect(output.status == 1)
        #expect(output.stdout == "error: no service 'NoteStor' is declared; did you mean 'NoteStore'?\n")
        // A type a service implements is named with the service to explain instead.
        let type = try wiring("explain", "config-examples/services.yaml", "NoteReading")
        #expect(type.status == 1)
        #expect(type.stdout == "error: no service 'NoteReading' is declared; 'NoteReading' is a type that service 'NoteStore' implements: explain it\n")
    }

    // MARK: graph

    @Test func graphAsDotIsAcceptedByGraphviz() throws {
        let output = try wiring("graph", "config-examples/services.yaml")
        #expect(output.status == 0)
        #expect(output.stdout.hasPrefix("digraph wiring {"))
        #expect(output.stdout.contains("[label=\"decorates\"]"))
        #expect(output.stdout.contains("[label=\"implements\", style=dashed]"))
        let dot = ["/usr/bin/dot", "/opt/homebrew/bin/dot", "/usr/local/bin/dot"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let dot else { return }   // Graphviz is optional; the text checks above still ran.
        let input = try TestSupport.temporaryFile(output.stdout, name: "wiring.dot")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: dot)
        process.arguments = ["-Tsvg", input, "-o", input + ".svg"]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    @Test func explainAndGraphShowEagerAndShutdownTimeout() throws {
        let explained = try wiring("explain", "config-examples/services.yaml", "ActivityJournal")
        #expect(explained.status == 0)
        #expect(explained.stdout.contains("  eager            true                            config-examples/services.yaml:77:12\n"))
        #expect(explained.stdout.contains("  shutdownTimeout  5.0 seconds                     config-examples/services.yaml:78:22\n"))
        #expect(explained.stdout.contains("  tags             health-check                    config-examples/services.yaml:80:12\n"))
        let graph = try wiring("graph", "config-examples/services.yaml")
        #expect(graph.stdout.contains("[label=\"ActivityJournal\\nfactory: activity-journal\\nscope: singleton\\neager\\nshutdownTimeout: 5.0 seconds\"]"))
        #expect(graph.stdout.contains("[label=\"#health-check\", shape=hexagon];"))
        #expect(graph.stdout.contains(" [label=\"log\"];"))   // AuditedNoteStore → Logger, declared
    }

    @Test func graphAsMermaidWithAContext() throws {
        let output = try wiring("graph", "config-examples/services.yaml", "--context", "test", "--format", "mermaid")
        #expect(output.status == 0)
        #expect(output.stdout.hasPrefix("flowchart LR\n"))
        #expect(output.stdout.contains("factory: in-memory-note-store"))
        #expect(!output.stdout.contains("AuditedNoteStore"))   // switched off in test
        #expect(output.stdout.contains("-.->|implements|"))
    }

    // MARK: schema

    @Test func theCommittedSchemasAreTheGeneratedOnes() throws {
        for (flags, file) in [([String](), "wiring.schema.json"), (["--overlay"], "wiring-overlay.schema.json")] {
            let output = try BinaryRunner.run("wiring", ["schema"] + flags)
            let committed = try String(contentsOfFile: TestSupport.packageRoot + "/config-examples/" + file, encoding: .utf8)
            #expect(output.stdout == committed, "config-examples/\(file) is stale: run wiring schema \(flags.joined()) > config-examples/\(file)")
        }
    }

    @Test func everyExampleValidatesAgainstTheSchemaWithARealValidator() throws {
        let examples = try FileManager.default.contentsOfDirectory(atPath: TestSupport.packageRoot + "/config-examples")
            .filter { $0.hasSuffix(".yaml") }.sorted().map { "config-examples/" + $0 }
        #expect(examples.count == 3)
        let output = try BinaryRunner.python(["Tests/WiringTests/Commands/validate_with_schema.py"] + examples)
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(output.stdout == examples.map { "ok \($0)\n" }.joined())
        // And the schema does reject what the loader rejects.
        let bad = try TestSupport.temporaryFile("# yaml-language-server: $schema=\(TestSupport.packageRoot)/config-examples/wiring.schema.json\nwiring: 1\nservices:\n  A: { scop: unique }\n")
        let rejected = try BinaryRunner.python(["Tests/WiringTests/Commands/validate_with_schema.py", bad])
        #expect(rejected.status == 1)
        #expect(rejected.stdout.contains("'scop' does not match any of the regexes"))
    }

    // MARK: help

    @Test func helpHasAnAbstractADiscussionAndAnExampleForEveryCommand() throws {
        let top = try wiring("--help")
        #expect(top.stdout.contains("OVERVIEW: Check and describe Wiring manifests"))
        for command in ["validate", "explain", "graph", "schema"] {
            #expect(top.stdout.contains("  \(command) "))
            let help = try wiring(command, "--help")
            #expect(help.status == 0)
            #expect(help.stdout.contains("OVERVIEW: "))
            #expect(help.stdout.contains("wiring \(command) "), "the help of \(command) shows an example")
        }
    }

    // MARK: embedded in an app

    @Test func anAppsValidateChecksItsFactoriesAndDryRunsEveryService() throws {
        let output = try BinaryRunner.run("EmbeddedTool", ["validate", contexts, "--instantiate"])
        #expect(output.status == 1)
        #expect(output.stdout.hasPrefix("\(contexts):14:3: error: factory 'audit' of service Audit (\(contexts):14:3) threw: audit log is read-only"))
        let test = try BinaryRunner.run("EmbeddedTool", ["validate", contexts, "--context", "test", "--instantiate"])
        #expect(test.status == 0)
        let typo = try BinaryRunner.run("EmbeddedTool", ["validate", "Tests/WiringTests/Fixtures/container/unbound.yaml"])
        #expect(typo.stdout.contains("unbound.yaml:4:14: error: service 'Logger' uses factory 'loger', which is not registered"))
    }

    /// An app's `graph` draws the manifest's edges; with `--instantiate` it builds every
    /// service once and also draws, dashed, what factories resolved in code.
    @Test func anAppsGraphInstantiateDrawsWhatFactoriesResolve() throws {
        let path = try TestSupport.temporaryFile("""
            wiring: 1
            services:
              Greeter: { factory: greeter, scope: singleton, args: { greeting: hi } }
              Welcome: { factory: welcome }
            """, name: "services.yaml")
        let declared = try BinaryRunner.run("EmbeddedTool", ["graph", path])
        #expect(declared.status == 0, "\(declared.stderr)")
        #expect(declared.stdout.hasPrefix("digraph wiring {"))
        #expect(!declared.stdout.contains("resolves"))
        let instantiated = try BinaryRunner.run("EmbeddedTool", ["graph", path, "--instantiate", "--format", "mermaid"])
        #expect(instantiated.status == 0, "\(instantiated.stderr)")
        let resolves = instantiated.stdout.split(separator: "\n").filter { $0.contains("|resolves|") }
        #expect(resolves.count == 1 && resolves[0].contains("-.->"), "\(instantiated.stdout)")
        // A manifest with an error: its diagnostics, and exit status 1.
        let broken = try TestSupport.temporaryFile("wiring: 1\nservices:\n  Welcome: { factory: welcom }\n", name: "services.yaml")
        let failed = try BinaryRunner.run("EmbeddedTool", ["graph", broken, "--instantiate"])
        #expect(failed.status == 1)
        #expect(failed.stdout.contains("services.yaml:3:23: error: service 'Welcome' uses factory 'welcom', which is not registered"), "\(failed.stdout)")
    }

    @Test func anAppsValidateInstantiateNamesATaggedServiceOfTheWrongType() throws {
        let fixture = "Tests/WiringTests/Fixtures/container/tagged-mismatch.yaml"
        #expect(try BinaryRunner.run("EmbeddedTool", ["validate", fixture]).status == 0)
        let output = try BinaryRunner.run("EmbeddedTool", ["validate", fixture, "--instantiate"])
        #expect(output.status == 1)
        #expect(output.stdout.contains(
            "argument 'all' of service Greeters is a list of Greeter, but service Banner (\(fixture):5:3), tagged greeting, produced String, which is not a Greeter"),
            "\(output.stdout)")
    }

    @Test func anAppsValidateInstantiateReportsGeneratedKeysItsRegistryLacks() throws {
        let output = try BinaryRunner.run("EmbeddedTool", ["keyed", "validate", contexts, "--context", "test", "--instantiate"])
        #expect(output.status == 1)
        #expect(output.stdout.hasPrefix("error: factory 'smtp-mailer', which the app's manifests name (WiringFactoryKeys), is not registered\n"))
        // Without --instantiate the generated keys are not consulted.
        #expect(try BinaryRunner.run("EmbeddedTool", ["keyed", "validate", contexts, "--context", "test"]).status == 0)
    }

    @Test func anAppsCatalogFeedsWiringValidate() throws {
        let catalog = try BinaryRunner.run("EmbeddedTool", ["catalog"])
        #expect(catalog.status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(catalog.stdout.utf8)) as? [String: Any])
        #expect(json["factories"] as? [String] == ["audit", "banner", "fixed-clock", "greeter", "greeters", "pool", "system-clock", "welcome", "window"])
        let file = try TestSupport.temporaryFile(catalog.stdout, name: "factories.json")
        #expect(try wiring("validate", contexts, "--catalog", file).status == 0)
    }
}
