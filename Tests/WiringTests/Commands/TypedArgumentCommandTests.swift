import Foundation
import Testing

/// Typed arguments checked without the app running: an app's `validate`, its `catalog` fed to
/// `wiring validate --catalog`, and `wiring schema --catalog` for editors, as built binaries.
@Suite("Typed arguments in the commands (binary)")
struct TypedArgumentCommandTests {
    let bad = "Tests/WiringTests/Fixtures/typed-args/cli.yaml"
    let good = "Tests/WiringTests/Fixtures/typed-args/cli-good.yaml"

    /// The problems of `bad`, each at its line: the same from every command that checks them.
    var expected: [String] {
        [
            "\(bad):6:7: error: service Pool: missing argument 'url' (a string)",
            "\(bad):6:13: error: service Pool: argument 'size': expected an integer, found a string 'ten'",
            "\(bad):7:13: error: service Pool: argument 'mode': 'fsat' is not a case of Mode (fast, safe); did you mean 'fast'?",
            "\(bad):8:7: error: service Pool: unknown argument 'urll'; did you mean 'url'?",
            "\(bad):10:60: error: service Pool[replica]: argument 'timeout': expected a duration (seconds, or text like 500ms, 30s, 5m, 2h, 1d; at most 100 years), found a string 'soon'",
        ]
    }

    func catalogFile() throws -> String {
        let catalog = try BinaryRunner.run("EmbeddedTool", ["catalog"])
        #expect(catalog.status == 0)
        return try TestSupport.temporaryFile(catalog.stdout, name: "factories.json")
    }

    static func errors(_ output: BinaryRunner.Output) -> [String] {
        output.stdout.split(separator: "\n").map(String.init).filter { $0.contains(": error: ") }
    }

    @Test func theCatalogCarriesEachTypedFactorysFields() throws {
        let catalog = try BinaryRunner.run("EmbeddedTool", ["catalog"])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(catalog.stdout.utf8)) as? [String: Any])
        #expect(json["wiring-catalog"] as? Int == 2)
        let pool = try #require((json["arguments"] as? [String: Any])?["pool"] as? [String: Any])
        #expect(pool["type"] as? String == "object")
        #expect(pool["swiftType"] as? String == "PoolArgs")
        let fields = try #require(pool["fields"] as? [[String: Any]])
        #expect(fields.map { $0["name"] as? String } == ["url", "size", "mode", "timeout"])
        #expect(fields.map { $0["required"] as? Bool } == [true, false, true, false])
        #expect((fields[2]["schema"] as? [String: Any])?["cases"] as? [String] == ["fast", "safe"])
    }

    @Test func wiringValidateWithTheCatalogReportsEveryArgumentAtItsLine() throws {
        let output = try BinaryRunner.run("wiring", ["validate", bad, "--catalog", try catalogFile()])
        #expect(output.status == 1)
        #expect(Self.errors(output) == expected + [
            "\(bad):14:44: error: service Spare: argument 'url': expected a string, found an integer (5)",
        ])
        #expect(output.stdout.contains("note: with context test applied"))
        #expect(try BinaryRunner.run("wiring", ["validate", good, "--catalog", try catalogFile()]).status == 0)
    }

    @Test func anAppsValidateReportsTheSameWithoutRunningFactories() throws {
        let output = try BinaryRunner.run("EmbeddedTool", ["validate", bad])
        #expect(output.status == 1)
        #expect(Self.errors(output).prefix(expected.count) == ArraySlice(expected))
        #expect(try BinaryRunner.run("EmbeddedTool", ["validate", good]).status == 0)
    }

    @Test func anAppsValidateDecodesAsAContainerDoes() throws {
        // A type's own check is found by decoding: the app's validate does, a catalog cannot.
        let fixture = "Tests/WiringTests/Fixtures/typed-args/own-check.yaml"
        let output = try BinaryRunner.run("EmbeddedTool", ["validate", fixture])
        #expect(output.status == 1)
        #expect(Self.errors(output) == ["\(fixture):3:52: error: service Window: argument 'high': high below low"])
        #expect(try BinaryRunner.run("wiring", ["validate", fixture, "--catalog", try catalogFile()]).status == 0)
    }

    @Test func theSchemaWithACatalogTypesEachServicesArgsForEditors() throws {
        let schema = try BinaryRunner.run("wiring", ["schema", "--catalog", try catalogFile()])
        #expect(schema.status == 0)
        let folder = try TestSupport.temporaryFolder()
        try Data(schema.stdout.utf8).write(to: folder.appendingPathComponent("wiring.schema.json"))
        let header = "# yaml-language-server: $schema=wiring.schema.json\n"
        let goodCopy = folder.appendingPathComponent("good.yaml")
        try Data((header + (try String(contentsOfFile: good, encoding: .utf8))).utf8).write(to: goodCopy)
        let typo = folder.appendingPathComponent("typo.yaml")
        try Data((header + "wiring: 1\nservices:\n  Pool: { factory: pool, args: { urll: x, mode: fast } }\n").utf8).write(to: typo)
        let enumCase = folder.appendingPathComponent("case.yaml")
        try Data((header + "wiring: 1\nservices:\n  pool: { args: { url: x, mode: fsat } }\n").utf8).write(to: enumCase)
        let templated = folder.appendingPathComponent("templated.yaml")
        try Data((header + "wiring: 1\nservices:\n  Pool: { factory: pool, args: { url: x, mode: \"${MODE}\", size: \"${SIZE:-4}\" } }\n").utf8)
            .write(to: templated)
        let output = try BinaryRunner.python(["Tests/WiringTests/Commands/validate_with_schema.py", goodCopy.path, typo.path, enumCase.path, templated.path])
        let lines = output.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 4, "\(output.stdout)\(output.stderr)")
        #expect(lines.first == "ok \(goodCopy.path)")
        #expect(lines.dropFirst().first?.hasPrefix("invalid \(typo.path): services/Pool") == true)
        #expect(lines.dropFirst(2).first?.hasPrefix("invalid \(enumCase.path): services/pool") == true)
        #expect(lines.last == "ok \(templated.path)")
    }
}
