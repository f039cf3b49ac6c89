import Foundation
import Testing
@testable import Wiring

/// The source line printed under a diagnostic is text a person can read, whatever encoding
/// libyaml read the file in, with the caret under the character the position names, and with
/// every value tagged `!secret` replaced by `<redacted>`.
@Suite("Source snippets")
struct SourceSnippetTests {
    private func validate(_ data: Data, name: String = "m.yaml", environment: [String: String] = [:]) throws -> [String] {
        let path = try TestSupport.temporaryFile(data, name: name)
        let folder = String(path.dropLast(name.count))
        return ManifestLoader(environment: environment).validate(path).diagnostics
            .map { $0.description.replacingOccurrences(of: folder, with: "") }
    }

    /// `text` in UTF-16 with a byte-order mark, in the byte order asked for.
    private func utf16(_ text: String, bigEndian: Bool) -> Data {
        var bytes: [UInt8] = bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]
        for unit in text.utf16 {
            let (high, low) = (UInt8(unit >> 8), UInt8(unit & 0xFF))
            bytes += bigEndian ? [high, low] : [low, high]
        }
        return Data(bytes)
    }

    private let manifest = "wiring: 1\nservices:\n  Café: { factory: café, scopé: x }\n"

    @Test(arguments: [false, true])
    func aUTF16ManifestShowsItsLineAsText(bigEndian: Bool) throws {
        let shown = try validate(utf16(manifest, bigEndian: bigEndian))
        #expect(shown == [
            """
            m.yaml:3:26: error: unknown key 'scopé' in service 'Café'; did you mean 'scope'?
              Café: { factory: café, scopé: x }
                                     ^
            """,
        ])
    }

    @Test func aUTF8ManifestWithAByteOrderMarkShowsTheSameLine() throws {
        let shown = try validate(Data([0xEF, 0xBB, 0xBF] + Array(manifest.utf8)))
        #expect(shown.first?.contains("\n  Café: { factory: café, scopé: x }\n                         ^") == true)
    }

    @Test func anInlineSecretIsRedactedAndTheCaretStillPointsAtTheProblem() throws {
        let text = "wiring: 1\nservices:\n  Api: { factory: api, args: { token: !secret S3CR3T-VALUE }, scopes: x }\n"
        let shown = try validate(Data(text.utf8))
        #expect(shown == [
            """
            m.yaml:3:63: error: unknown key 'scopes' in service 'Api'; did you mean 'scope'?
              Api: { factory: api, args: { token: !secret <redacted> }, scopes: x }
                                                                        ^
            """,
        ])
        #expect(!shown.joined().contains("S3CR3T"))
    }

    @Test func aSecretOnTheLineOfItsOwnProblemIsRedacted() throws {
        let text = "wiring: 1\nparameters:\n  token: !secret \"S3CR3T $(missing)\"\nservices:\n  A: { factory: a }\n"
        let shown = try validate(Data(text.utf8))
        #expect(shown.count == 1)
        #expect(shown.first?.contains("\n  token: !secret <redacted>\n") == true, "\(shown)")
        #expect(!shown.joined().contains("S3CR3T"))
    }

    @Test func aSecretWrittenOverSeveralLinesIsRedactedOnEach() {
        let text = "a: !secret |\n  line one S3CR3T\n  line two S3CR3T\nb: 1\n"
        let read = YAMLReader.read(Array(text.utf8), file: "s.yaml")
        let source = SourceText(bytes: Array(text.utf8), secrets: read.secrets)
        #expect(source.line(1, column: 1)?.text == "a: !secret <redacted>")
        #expect(source.line(2, column: 1)?.text == "  <redacted>")
        #expect(source.line(3, column: 1)?.text == "  <redacted>")
        #expect(source.line(4, column: 1)?.text == "b: 1")
    }
}
