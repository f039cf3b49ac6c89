import Foundation
import Testing
@testable import Wiring

/// When the services of a large file are read in pieces, the decoder decodes the rest of the
/// file (version, imports, parameters, scopes, contexts) while the pieces are read, and only
/// the services once they are joined. What it gives must be what decoding on one thread gives:
/// the same model, the same problems in the same order, the same parameter references.
@Suite("Decoding a file read in pieces")
struct SplitDecodingTests {
    /// A manifest with problems before the services (an unknown top-level key, a parameter
    /// reading an unset variable, a bad scope), in the services (an unknown key, a reference
    /// to an undeclared parameter) and after them (a context overriding with an unknown key,
    /// a context parameter reading an unset variable).
    private let text: String = {
        var text = """
            wiring: 1
            imports: [shared.yaml, "other.yaml"]
            colour: blue
            parameters:
              base: ${SPLIT_DECODING_UNSET}/api
              region: eu-west-1
            scopes:
              default: graph
              custom:
                session: { ttl: 15m }
                broken: { ttl: soon }
            services:

            """
        for index in 0..<3_000 {
            text += "  Service\(index):\n    factory: f\(index % 9)\n    args: { url: \"$(base)/\(index)\", region: $(region) }\n"
            if index % 500 == 7 { text += "    factori: typo\n" }
            if index % 700 == 3 { text += "    names:\n      alt: { args: { url: \"$(missing\(index))\" } }\n" }
        }
        text += """
            contexts:
              test:
                parameters: { base: "${SPLIT_DECODING_ALSO_UNSET}" }
                services:
                  Service1: { factory: mock, scop: unique }
                  Service2: { args: { url: "$(region)/test" } }
              staging:
                parameters: { region: us-east-1 }

            """
        return text
    }()

    private func decoded(_ pipelining: YAMLPipelining) -> (file: ManifestFile, diagnostics: [String], split: Bool) {
        var decoder = ManifestFileDecoder(file: "m.yaml", environment: [:])
        let read = YAMLReader.read(Array(text.utf8), file: "m.yaml", streaming: "services", into: &decoder, pipelining: pipelining)
        let file = decoder.decode(read.root, sectionIndex: read.sectionIndex)
        return (file, (read.diagnostics + decoder.diagnostics).map(\.description), read.readSplit)
    }

    /// What a file declares, written out with every position.
    private func summary(_ file: ManifestFile) -> [String] {
        func describe(_ map: ManifestMap?) -> String {
            map.map { $0.entries.map { "\($0.key)\(at($0.keyLocation))=\($0.value)\(at($0.value.location))" }.joined(separator: ",") } ?? "-"
        }
        func at(_ location: Wiring.SourceLocation?) -> String { location.map { "@\($0.line):\($0.column)" } ?? "@-" }
        var lines = ["version \(file.version.map { "\($0.value)" } ?? "-")\(at(file.version?.location))"]
        lines += file.imports.map { "import \($0.value)\(at($0.location))" }
        lines += file.parameters.map { "parameter \($0.name)\(at($0.location)) = \($0.value)\(at($0.value.location))" }
        lines.append("default scope \(file.defaultScope.map { $0.value.name } ?? "-")\(at(file.defaultScope?.location))")
        lines += file.customScopes.map { "custom scope \($0.name) \(String(describing: $0.timeToLive?.value))" }
        for service in file.services {
            let args = describe(service.args)
            let names = service.names.map { variant -> String in
                let variantArgs = describe(variant.args)
                return variant.name + at(variant.location) + " " + variantArgs
            }
            lines.append("service \(service.key)\(at(service.location)) \(service.factoryKey) \(args) " + names.joined(separator: ","))
        }
        for context in file.contexts {
            let parameters = context.parameters.map { "\($0.name)=\($0.value)" }
            let overrides = context.services.map { override -> String in
                let args = describe(override.args)
                return override.key + at(override.location) + " " + (override.factory?.value ?? "-") + " " + args
            }
            lines.append("context \(context.name)\(at(context.location)) " + parameters.joined(separator: ",") + " "
                         + overrides.joined(separator: ","))
        }
        lines += file.parameterReferences.all.map { "reference \($0.value)\(at($0.location))" }
        return lines
    }

    @Test func theRestOfTheFileDecodesWhileThePiecesAreReadAsItWouldOnOneThread() {
        let alone = decoded(.never)
        let pieces = decoded(.split)
        #expect(pieces.split && !alone.split)
        #expect(pieces.diagnostics == alone.diagnostics)
        let (split, whole) = (summary(pieces.file), summary(alone.file))
        #expect(split.count == whole.count)
        let differences = zip(split, whole).filter { $0 != $1 }
        #expect(differences.isEmpty, "first differences: \(differences.prefix(3))")
        // The services' problems as they were read, then those of the top level before the
        // services, then the contexts'.
        #expect(alone.diagnostics.count == 11)
        #expect(alone.diagnostics[0].contains("'Service7'") && alone.diagnostics[5].contains("'Service2507'"))
        #expect(alone.diagnostics[6].contains("'colour'") && alone.diagnostics[8].contains("'broken'"))
        #expect(alone.diagnostics[9].contains("'scop'") && alone.diagnostics[10].contains("SPLIT_DECODING_ALSO_UNSET"))
        #expect(alone.file.parameterReferences.count == 3_000 * 2 + 5 + 1)
        #expect(alone.file.services.count == 3_000 && alone.file.contexts.count == 2)
    }
}
