import Foundation
import Testing
import Wiring
import WiringCommands
@testable import WiringCommands

/// `wiring build-check`, what the build plugin runs, on real files with the real binary; and
/// the pieces it is made of.
@Suite("wiring build-check (the build plugin's tool)")
struct BuildCheckTests {
    /// A target's folder: a root manifest, a file it imports, an overlay, and Swift sources.
    func target(manifest: String = "wiring: 1\nimports: [clock.yaml]\nservices:\n  Greeter: { factory: console-greeter }\n",
                source: String = "registry.factory(WiringFactoryKeys.consoleGreeter) { _ in 1 }\nregistry.factory(\"system-clock\") { _ in 2 }\n",
                config: String? = nil) throws -> URL {
        let folder = try TestSupport.temporaryFolder()
        try manifest.write(to: folder.appendingPathComponent("services.yaml"), atomically: true, encoding: .utf8)
        try "wiring: 1\nservices:\n  Clock: { factory: system-clock }\n"
            .write(to: folder.appendingPathComponent("clock.yaml"), atomically: true, encoding: .utf8)
        try "wiring: 1\nservices:\n  Clock: { factory: fixed-clock }\n"
            .write(to: folder.appendingPathComponent("services.test.yaml"), atomically: true, encoding: .utf8)
        try source.write(to: folder.appendingPathComponent("main.swift"), atomically: true, encoding: .utf8)
        try folder.appendingPathComponent("main.swift").path
            .write(to: folder.appendingPathComponent("sources.txt"), atomically: true, encoding: .utf8)
        if let config { try config.write(to: folder.appendingPathComponent("wiring-plugin.json"), atomically: true, encoding: .utf8) }
        return folder
    }

    func check(_ folder: URL, config: Bool = false) throws -> BinaryRunner.Output {
        var arguments = ["build-check", "--sources", folder.appendingPathComponent("sources.txt").path,
                         "--output", folder.appendingPathComponent("out/WiringFactoryKeys.swift").path]
        for name in ["clock.yaml", "services.test.yaml", "services.yaml"] {
            arguments += ["--manifest", folder.appendingPathComponent(name).path]
        }
        if config { arguments += ["--config", folder.appendingPathComponent("wiring-plugin.json").path] }
        return try BinaryRunner.run("wiring", arguments)
    }

    func generated(_ folder: URL) throws -> String {
        try String(contentsOf: folder.appendingPathComponent("out/WiringFactoryKeys.swift"), encoding: .utf8)
    }

    @Test func checksOnlyRootsAndGeneratesEveryKeyOnce() throws {
        let folder = try target()
        let output = try check(folder)
        #expect(output.status == 0)
        // The overlay's fixed-clock is named nowhere in the sources: a warning at its line.
        #expect(output.stdout == "\(folder.path)/services.test.yaml:3:21: warning: service 'Clock' uses factory 'fixed-clock', which no Swift source of this target registers: register it with registry.factory(WiringFactoryKeys.fixedClock) { … }\n")
        let text = try generated(folder)
        #expect(text.contains("    /// `console-greeter`: Greeter (services.yaml:4:23).\n    static let consoleGreeter: FactoryKey = \"console-greeter\"\n"))
        #expect(text.contains("    static let systemClock: FactoryKey = \"system-clock\"\n"))
        #expect(text.contains("    /// `fixed-clock`: Clock in context test (services.test.yaml:3:21).\n"))
        #expect(text.contains("    static let all: [FactoryKey] = [consoleGreeter, systemClock, fixedClock]\n"))
    }

    /// A listed source that cannot be read is said, not skipped: the factories it registers
    /// would otherwise be reported as registered nowhere. A list that cannot be read is an error.
    @Test func aSourceThatCannotBeReadIsSaidNotSkipped() throws {
        let folder = try target()
        let missing = folder.appendingPathComponent("Gone.swift").path
        try (folder.appendingPathComponent("main.swift").path + "\n" + missing + "\n" + folder.path + "\n")
            .write(to: folder.appendingPathComponent("sources.txt"), atomically: true, encoding: .utf8)
        let output = try check(folder)
        #expect(output.status == 0)
        #expect(output.stdout.contains("warning: cannot read Swift source '\(missing)' to find the factories it registers: no such file or directory"), "\(output.stdout)")
        #expect(output.stdout.contains("warning: cannot read Swift source '\(folder.path)' to find the factories it registers: not a regular file (a folder)"), "\(output.stdout)")
        try FileManager.default.removeItem(at: folder.appendingPathComponent("sources.txt"))
        let noList = try check(folder)
        #expect(noList.status == 1)
        #expect(noList.stdout.contains("error: cannot read the list of Swift sources '\(folder.path)/sources.txt': no such file or directory"), "\(noList.stdout)")
        // The keys are still generated, so the target still compiles.
        #expect(try generated(folder).contains("static let consoleGreeter"))
    }

    @Test func aCatalogInTheConfigurationChecksTypedArgumentsAtTheirLines() throws {
        let folder = try target(
            manifest: "wiring: 1\nimports: [clock.yaml]\nservices:\n  Greeter: { factory: console-greeter, args: { greeting: 5, loud: yes } }\n",
            config: #"{ "registrations": "off", "catalog": "factories.json" }"#)
        let schema = ArgumentSchema.object(type: "GreeterArgs", fields: [
            ArgumentField(name: "greeting", schema: .string, isRequired: true),
            ArgumentField(name: "loud", schema: .boolean, isRequired: false),
        ])
        try FactoryCatalog(factories: ["console-greeter"], arguments: ["console-greeter": schema]).jsonData()
            .write(to: folder.appendingPathComponent("factories.json"))
        let output = try check(folder, config: true)
        #expect(output.status == 1)
        let errors = output.stdout.split(separator: "\n").filter { $0.contains(": error: ") }
        #expect(errors == [
            "\(folder.path)/services.yaml:4:58: error: service Greeter: argument 'greeting': expected a string, found an integer (5)",
            "\(folder.path)/services.yaml:4:67: error: service Greeter: argument 'loud': expected a boolean, found a string 'yes'",
        ])
        // A catalog that cannot be read is an error of the configuration.
        try Data("{}".utf8).write(to: folder.appendingPathComponent("factories.json"))
        #expect(try check(folder, config: true).stdout.contains("is not a factory catalog"))
    }

    @Test func anErrorFailsAndTheConfigurationDecidesTheRest() throws {
        let broken = try target(manifest: "wiring: 1\nimports: [clock.yaml]\nservices:\n  Greeter: { factory: console-greeter, scope: singelton }\n")
        let failed = try check(broken)
        #expect(failed.status == 1)
        #expect(failed.stdout.hasPrefix("\(broken.path)/services.yaml:4:47: error: unknown scope 'singelton'; did you mean 'singleton'?"))
        // The keys are still generated from what could be read, so the sources still compile.
        #expect(try generated(broken).contains("static let consoleGreeter"))

        let strict = try target(config: #"{ "strict": true }"#)
        #expect(try check(strict, config: true).status == 1)
        let off = try target(config: #"{ "registrations": "off" }"#)
        let quiet = try check(off, config: true)
        #expect(quiet.status == 0 && quiet.stdout.isEmpty)
        let typo = try target(config: #"{ "registration": "off" }"#)
        let bad = try check(typo, config: true)
        #expect(bad.status == 1)
        #expect(bad.stdout.contains("wiring-plugin.json: unknown key 'registration'; did you mean 'registrations'? (keys: manifests, contexts, strict, registrations, catalog)"))
        let value = try target(config: #"{ "registrations": "loud" }"#)
        #expect(try check(value, config: true).stdout.contains("wiring-plugin.json: 'registrations': expected \"warning\", \"error\" or \"off\""))
        let mistyped = try target(config: #"{ "manifests": "services.yaml" }"#)
        #expect(try check(mistyped, config: true).stdout.contains("wiring-plugin.json: not a Wiring plugin configuration: manifests should be an array"))
    }

    /// A configuration that is not a regular file (a folder, a named pipe) is refused by what it
    /// is, before anything can block, as a manifest is.
    @Test func aConfigurationThatIsNotAFileIsRefusedByWhatItIs() throws {
        let folder = try target()
        let configuration = folder.appendingPathComponent("wiring-plugin.json")
        try FileManager.default.createDirectory(at: configuration, withIntermediateDirectories: false)
        #expect(try check(folder, config: true).stdout.contains("cannot read plugin configuration '\(configuration.path)': not a regular file (a folder)"))
        try FileManager.default.removeItem(at: configuration)
        #expect(mkfifo(configuration.path, 0o600) == 0)
        let piped = try check(folder, config: true)
        #expect(piped.status == 1)
        #expect(piped.stdout.contains("cannot read plugin configuration '\(configuration.path)': not a regular file (a named pipe)"))
    }

    @Test func aListedManifestOutsideTheFolderIsChecked() throws {
        let folder = try target()
        let outside = try TestSupport.temporaryFile("wiring: 1\nservices:\n  Mailer: { factory: smtp-mailer, scope: singletn }\n", name: "mail.yaml")
        try #"{ "manifests": ["\#(outside)"], "registrations": "error" }"#
            .write(to: folder.appendingPathComponent("wiring-plugin.json"), atomically: true, encoding: .utf8)
        let output = try check(folder, config: true)
        #expect(output.status == 1)
        #expect(output.stdout.contains("\(outside):3:42: error: unknown scope 'singletn'"))
        #expect(output.stdout.contains("\(outside):3:22: error: service 'Mailer' uses factory 'smtp-mailer', which no Swift source"))
    }

    @Test func identifiersForKeys() {
        #expect(FactoryKeysSource.identifier(for: "file-note-store") == "fileNoteStore")
        #expect(FactoryKeysSource.identifier(for: "HTTPClient") == "httpClient")
        #expect(FactoryKeysSource.identifier(for: "URL") == "url")
        #expect(FactoryKeysSource.identifier(for: "2fa.sms") == "_2faSms")
        #expect(FactoryKeysSource.identifier(for: "---") == "key")
        #expect(FactoryKeysSource.literal("a\"b\\c") == #""a\"b\\c""#)
        // Keys that make the same name, or a keyword, still compile.
        let source = FactoryKeysSource(uses: ["a-b", "a_b", "default", "all"].map {
            .init(key: $0, owner: "S", location: nil, context: nil)
        })
        #expect(source.constants.map(\.name) == ["aB", "a_b", "default", "all2"])
        #expect(source.text.contains("static let `default`: FactoryKey = \"default\""))
    }

    @Test func theScanFindsLiteralsAndGeneratedConstantsInOnePass() {
        var scan = RegistrationScan()
        scan.scan("""
            registry.factory("console-logger") { _ in 1 }
            registry.factory(WiringFactoryKeys . fileNoteStore) { _ in 2 }
            let text = "escaped \\" quote"   // "commented"
            """)
        #expect(scan.names("console-logger", constant: "consoleLogger"))
        #expect(scan.names("file-note-store", constant: "fileNoteStore"))
        #expect(scan.names("commented", constant: "commented"))
        #expect(!scan.names("smtp-mailer", constant: "smtpMailer"))
    }
}
