import Foundation
import Testing

/// Runs the built `wiring` binary, as users and CI do.
@Suite("wiring validate (binary)")
struct ValidateCommandTests {
    func run(_ arguments: [String], environment: [String: String] = [:]) throws -> BinaryRunner.Output {
        try BinaryRunner.run("wiring", arguments, environment: environment)
    }

    @Test func cleanManifestExitsZero() throws {
        let output = try run(["validate", "config-examples/services.yaml"])
        #expect(output.status == 0)
        #expect(output.stdout == """
            config-examples/services.yaml: 9 services, 3 contexts, 3 files
            0 errors, 0 warnings in 1 manifest; each context checked: production, staging, test

            """)
    }

    @Test func errorsPrintWithSourceAndExitOne() throws {
        let output = try run(["validate", "Tests/WiringTests/Fixtures/invalid/decorators.yaml"])
        #expect(output.status == 1)
        #expect(output.stdout == """
            Tests/WiringTests/Fixtures/invalid/decorators.yaml:3:19: error: decorator cycle: A → B → C → A
              A: { decorates: B }
                              ^
            Tests/WiringTests/Fixtures/invalid/decorators.yaml:6:19: error: service 'D' decorates itself
              D: { decorates: D }
                              ^
            Tests/WiringTests/Fixtures/invalid/decorators.yaml:7:19: error: service 'E' decorates unknown service 'Stor'; did you mean 'Store'?
              E: { decorates: Stor }
                              ^
            3 errors, 0 warnings in 1 manifest

            """)
    }

    @Test func strictTurnsACaptiveDependencyIntoAnError() throws {
        let path = try TestSupport.temporaryFile("""
            wiring: 1
            services:
              App: { scope: singleton, args: { clock: !service Clock } }
              Clock: { scope: unique }
            """, name: "services.yaml")
        let relaxed = try run(["validate", path])
        #expect(relaxed.status == 0)
        #expect(relaxed.stdout.contains("services.yaml:3:43: warning: captive dependency: App (singleton) → Clock (unique) through argument 'clock'"))
        let strict = try run(["validate", "--strict", path])
        #expect(strict.status == 1)
        #expect(strict.stdout.contains("services.yaml:3:43: error: captive dependency: App (singleton) → Clock (unique) through argument 'clock'"))
        #expect(strict.stdout.hasSuffix("1 error, 0 warnings in 1 manifest\n"))
    }

    @Test func warningsAloneExitZero() throws {
        let path = try TestSupport.temporaryFile("wiring: 1\nparameters:\n  url: ${WIRING_TEST_UNSET_VAR}\n")
        let output = try run(["validate", path])
        #expect(output.status == 0)
        #expect(output.stdout.contains("\(path):3:8: warning: environment variable 'WIRING_TEST_UNSET_VAR' is not set"))
        #expect(output.stdout.hasSuffix("0 errors, 1 warning in 1 manifest\n"))
    }

    @Test func missingFileIsOneClearLine() throws {
        let output = try run(["validate", "nope.yaml"])
        #expect(output.status == 1)
        #expect(output.stdout == """
            error: cannot read manifest 'nope.yaml': no such file or directory
            1 error, 0 warnings in 1 manifest

            """)
    }

    @Test func missingArgumentIsAUsageError() throws {
        let output = try run(["validate"])
        #expect(output.status == 64)
        #expect(output.stderr.contains("Missing expected argument '<paths> ...'"))
    }
}
