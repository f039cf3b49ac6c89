import Foundation
import Testing
@testable import Wiring

/// Every file of Fixtures/bad-input is rejected with the diagnostics expected.txt lists for it,
/// at their positions, and nothing takes long or grows memory: the manifest a user gets wrong
/// never crashes, hangs or exhausts the process.
@Suite("Bad-input corpus")
struct BadInputCorpusTests {
    static let folder = TestSupport.fixture("bad-input")

    /// expected.txt: `== file` then the file's diagnostics, positions relative to the folder.
    static let expectations = TestSupport.expectations(in: folder)

    static func headlines(_ diagnostics: [Diagnostic]) -> [String] {
        diagnostics.map { diagnostic in
            var line = diagnostic.headline
            if let file = diagnostic.location?.file {
                line = line.replacingOccurrences(of: file, with: (file as NSString).lastPathComponent)
            }
            return line.replacingOccurrences(of: folder + "/", with: "").replacingOccurrences(of: folder, with: ".")
        }
    }

    @Test func theCorpusHasOneExpectationPerFileAndAtLeastSixtyFiles() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder).filter { $0.hasSuffix(".yaml") }.sorted()
        #expect(files.count >= 60)
        #expect(Self.expectations.map(\.file) == files)
    }

    @Test(arguments: BadInputCorpusTests.expectations.map(\.file))
    func eachBadInputIsRejectedAtItsPosition(_ file: String) throws {
        let expected = try #require(Self.expectations.first { $0.file == file }).lines
        let started = ContinuousClock.now
        let result = ManifestLoader(environment: [:]).validate(Self.folder + "/" + file)
        let elapsed = ContinuousClock.now - started
        #expect(Self.headlines(result.diagnostics) == expected)
        #expect(!expected.isEmpty)
        #expect(elapsed < .seconds(10), "a bad input must not hang the loader")
    }

    @Test func aFiftyMegabyteFileIsRefusedBeforeItIsRead() throws {
        let path = try TestSupport.temporaryFile("wiring: 1\n", name: "huge.yaml")
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        handle.seekToEndOfFile()
        let chunk = Data(String(repeating: "# padding\n", count: 100_000).utf8)
        for _ in 0..<50 { handle.write(chunk) }
        try handle.close()
        let before = Self.peakResidentBytes()
        let started = ContinuousClock.now
        let result = ManifestLoader().validate(path)
        #expect(ContinuousClock.now - started < .seconds(5))
        #expect(result.diagnostics.map(\.message) == [
            "cannot read manifest '\(path)': the file is 50000010 bytes, more than the limit of 33554432 bytes",
        ])
        #expect(Self.peakResidentBytes() - before < 20 << 20, "the file must not be read into memory")
    }

    @Test func aHundredThousandLevelsOfNestingStopAtTheLimit() throws {
        let deep = "wiring: 1\nparameters:\n  p: " + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "\n"
        let path = try TestSupport.temporaryFile(deep)
        let started = ContinuousClock.now
        let result = ManifestLoader().validate(path)
        #expect(ContinuousClock.now - started < .seconds(5))
        #expect(Self.headlines(result.diagnostics) == ["manifest.yaml:3:132: error: nesting is deeper than 128 levels"])
    }

    @Test func deeplyNestedBlockMappingsStopAtTheLimitToo() throws {
        var text = "wiring: 1\nparameters:\n"
        for depth in 1...300 { text += String(repeating: " ", count: depth * 2) + "k\(depth):\n" }
        let path = try TestSupport.temporaryFile(text)
        let result = ManifestLoader().validate(path)
        #expect(result.diagnostics.first?.message == "nesting is deeper than 128 levels")
    }

    static func peakResidentBytes() -> Int {
        var usage = rusage()
        #if os(Linux)
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return usage.ru_maxrss * 1024
        #else
        getrusage(RUSAGE_SELF, &usage)
        return usage.ru_maxrss
        #endif
    }
}
