import Foundation
import Testing

/// Configuration keys on the command line, with the built binary: `wiring validate --config
/// FILE` checks a manifest's `${key}` references against the configuration the app's reader will
/// read; `explain` says where a key's value comes from.
@Suite("Configuration keys (binary)")
struct ValidateConfigTests {
    func run(_ arguments: [String]) throws -> BinaryRunner.Output {
        try BinaryRunner.run("wiring", arguments, environment: [:])
    }

    let manifest = """
        wiring: 1
        parameters:
          port: ${http.port:-8080}
        services:
          Server: { scope: singleton, args: { host: "${http.host}", port: $(port), token: "${auth.token}" } }
        """

    @Test func everyKeyTheManifestReadsIsCheckedAgainstTheFile() throws {
        let path = try TestSupport.temporaryFile(manifest, name: "services.yaml")
        let json = try TestSupport.temporaryFile(#"{"http": {"host": "api.example.org", "port": 443}}"#, name: "config.json")
        let output = try run(["validate", path, "--config", json])
        #expect(output.status == 1)
        // The missing key is an error at its value, naming it; the present ones pass.
        #expect(output.stdout.contains("\(path):5:83: error: configuration key 'auth.token' is not set and has no default"), "\(output.stdout)")
        #expect(!output.stdout.contains("key 'http.host'"))
        #expect(output.stdout.hasSuffix("1 error, 0 warnings in 1 manifest\n"), "\(output.stdout)")

        let yaml = try TestSupport.temporaryFile("http:\n  host: api.example.org\nauth:\n  token: s3cret\n", name: "config.yaml")
        let complete = try run(["validate", path, "--config", yaml])
        #expect(complete.status == 0, "\(complete.stdout)")
        #expect(!complete.stdout.contains("s3cret"))
    }

    @Test func withoutTheFileKeysAreListedNotGuessed() throws {
        let path = try TestSupport.temporaryFile(manifest, name: "services.yaml")
        let output = try run(["validate", path])
        #expect(output.status == 0, "\(output.stdout)")
        // Listed as configuration keys, not warned of as unset environment variables.
        #expect(output.stdout.contains("\(path):5:45: info: reads configuration key 'http.host', not checked: pass the configuration to check it"),
                "\(output.stdout)")
        #expect(output.stdout.contains("reads configuration key 'auth.token'"))
        #expect(!output.stdout.contains("environment variable"))
        #expect(output.stdout.hasSuffix("0 errors, 0 warnings in 1 manifest\n"), "\(output.stdout)")
    }

    @Test func aConfigurationFileThatCannotBeReadIsOneClearError() throws {
        let path = try TestSupport.temporaryFile(manifest, name: "services.yaml")
        let missing = try run(["validate", path, "--config", "no-such-config.json"])
        #expect(missing.status == 1)
        #expect(missing.stdout.hasPrefix("error: cannot read configuration file 'no-such-config.json': no such file or directory\n"), "\(missing.stdout)")
        let list = try TestSupport.temporaryFile("[1, 2]", name: "config.json")
        let notMapping = try run(["validate", path, "--config", list])
        #expect(notMapping.status == 1)
        #expect(notMapping.stdout.contains("\(list):1:1: error: configuration file '\(list)' is not a mapping of keys to values"), "\(notMapping.stdout)")
        let broken = try TestSupport.temporaryFile(#"{"http": {"port": 1"#, name: "config.json")
        let unreadable = try run(["validate", path, "--config", broken])
        #expect(unreadable.status == 1)
        #expect(unreadable.stdout.contains("\(broken):1:"), "\(unreadable.stdout)")
    }

    @Test func aListSwiftConfigurationCannotReadIsAnErrorAtItsElementNotDropped() throws {
        let path = try TestSupport.temporaryFile(manifest, name: "services.yaml")
        let config = try TestSupport.temporaryFile("""
            {"http": {"host": "example.org", "port": 8080, "origins": ["a.org", 2],
                      "ports": [1, {"x": 1}], "tags": [null]},
             "auth": {"token": null}}
            """, name: "config.json")
        let output = try run(["validate", path, "--config", config])
        #expect(output.status == 1)
        let errors = output.stdout.split(separator: "\n").filter { $0.contains(": error: ") }
        #expect(errors == [
            "\(config):1:69: error: configuration key 'http.origins': element 1 is an integer, where a list holds a string, as the list's first element is",
            "\(config):2:24: error: configuration key 'http.ports': element 1 is a mapping, where a list holds a number or a boolean, as the list's first element is",
            "\(config):2:44: error: configuration key 'http.tags': element 0 is null, where a list holds a string, a number or a boolean",
        ], "\(output.stdout)")
    }

    @Test func explainSaysAKeyComesFromConfiguration() throws {
        let path = try TestSupport.temporaryFile(manifest, name: "services.yaml")
        let output = try run(["explain", path, "Server"])
        #expect(output.status == 0, "\(output.stderr)")
        let host = output.stdout.split(separator: "\n").first { $0.contains("args.host") }
        #expect(host?.contains("<from configuration>") == true, "\(output.stdout)")
        #expect(!output.stdout.contains("unset environment variable"), "\(output.stdout)")
    }

    @Test func anAppsInstantiateBuildsItsDryRunOverTheFile() throws {
        let path = try TestSupport.temporaryFile("""
            wiring: 1
            services:
              Banner: { factory: banner, scope: singleton, args: { text: "${ui.banner}" } }
            """, name: "services.yaml")
        let config = try TestSupport.temporaryFile("ui:\n  banner: hello\n", name: "config.yaml")
        let read = try BinaryRunner.run("EmbeddedTool", ["validate", path, "--instantiate", "--config", config])
        #expect(read.status == 0, "\(read.stdout)")
        // Without the file, the dry run reads the environment, where no such variable is set.
        let unread = try BinaryRunner.run("EmbeddedTool", ["validate", path, "--instantiate"])
        #expect(unread.status == 1)
        #expect(unread.stdout.contains("environment variable 'ui.banner' is not set and has no default"), "\(unread.stdout)")
    }
}
