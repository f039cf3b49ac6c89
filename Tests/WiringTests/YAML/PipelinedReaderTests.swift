import Foundation
import Testing
@testable import Wiring

/// The reader parses large files on a second thread (`YAMLPipelining`). These tests hold it to
/// giving exactly what reading on one thread gives: the same tree, the same diagnostics, the
/// same stop at a fatal problem, on every fixture and on files past the size where it starts.
@Suite("Pipelined YAML reader")
struct PipelinedReaderTests {
    private func read(_ bytes: [UInt8], _ pipelining: YAMLPipelining, limits: YAMLLimits = .default) -> String {
        ReaderDump.read(bytes, pipelining, limits: limits).text
    }

    private func yamlFiles(under folder: String) throws -> [String] {
        let root = TestSupport.fixture(folder)
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
        return walker.compactMap { $0 as? String }.filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }
            .sorted().map { root + "/" + $0 }
    }

    @Test(arguments: ["bad-input", "invalid", "valid", "contexts", "imports", "container"])
    func everyFixtureReadsTheSameOnTwoThreads(folder: String) throws {
        let files = try yamlFiles(under: folder)
        #expect(!files.isEmpty, "no fixtures under \(folder)")
        for file in files {
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: file)))
            let alone = read(bytes, .never)
            let pipelined = read(bytes, .always)
            #expect(pipelined == alone, "\(file) reads differently on two threads")
            #expect(read(bytes, .split) == alone, "\(file) reads differently split")
        }
    }

    /// A manifest of `count` services, each with a few fields: well past the pipelining size.
    private func largeManifest(services count: Int, tail: String = "") -> [UInt8] {
        var text = "wiring: 1\nx-defaults:\n  base: &base { scope: singleton }\nservices:\n"
        for index in 0..<count {
            text += "  Service\(index):\n    <<: *base\n    factory: f-\(index % 7)\n"
            text += "    implements: [P\(index)]\n    args: { url: \"http://h/\(index)\", tags: [a, b] }\n"
        }
        return Array((text + tail).utf8)
    }

    /// The processors this process may run on: on Linux, from the affinity mask in
    /// /proc/self/status (taskset and cpusets narrow it); elsewhere, the active ones.
    private func allowedProcessors() -> Int {
        #if os(Linux)
        if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
           let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed:") }) {
            let hex = line.dropFirst("Cpus_allowed:".count).filter(\.isHexDigit)
            return hex.reduce(0) { $0 + (Int(String($1), radix: 16) ?? 0).nonzeroBitCount }
        }
        #endif
        return ProcessInfo.processInfo.activeProcessorCount
    }

    @Test func aLargeFileUsesASecondThreadAndReadsTheSame() {
        let bytes = largeManifest(services: 4_000)
        let parallel = allowedProcessors() > 1
        #expect(bytes.count >= YAMLPipelining.threshold)
        #expect(YAMLPipelining.automatic.pipelines(toBytes: bytes.count) == parallel)
        #expect(YAMLPipelining.automatic.splits(toBytes: bytes.count) == parallel)
        #expect(!YAMLPipelining.automatic.pipelines(toBytes: YAMLPipelining.threshold - 1))
        #expect(!YAMLPipelining.automatic.splits(toBytes: YAMLPipelining.threshold - 1))
        let alone = read(bytes, .never)
        // Its services can be cut into pieces, so a second processor reads some of them.
        let automatic = ReaderDump.read(bytes, .automatic)
        #expect(automatic.text == alone)
        #expect(automatic.split == parallel)
        #expect(read(bytes, .always) == alone)
        #expect(alone.contains("streamed:") && alone.contains("\"Service3999\""))
    }

    @Test func aSyntaxErrorAtTheEndOfALargeFileIsReportedAtItsPlace() {
        let bytes = largeManifest(services: 4_000, tail: "contexts: [unclosed\n")
        let pipelined = read(bytes, .always)
        #expect(pipelined == read(bytes, .never))
        #expect(read(bytes, .split) == pipelined)
        #expect(read(bytes, .automatic) == pipelined)
        let lastLine = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).count
        #expect(pipelined.contains("error \(lastLine):1 did not find expected ',' or ']'"), "\(pipelined.suffix(400))")
        #expect(pipelined.hasPrefix("(none)"))
    }

    @Test func aFatalProblemEarlyInALargeFileStopsTheParsingThread() {
        // Too deep at the start: the reader stops while the other thread still has most of the
        // file to parse. It must be stopped and joined, not left running or waited on forever.
        let deep = String(repeating: "[", count: 200) + String(repeating: "]", count: 200) + "\n"
        let bytes = Array(deep.utf8) + largeManifest(services: 4_000)
        for _ in 0..<20 {
            let pipelined = read(bytes, .always)
            #expect(pipelined == read(bytes, .never))
            #expect(pipelined.contains("nesting is deeper than 128 levels"))
        }
    }

    @Test func manyPipelinedReadsAtOnceStayIndependent() async {
        let bytes = largeManifest(services: 1_500)
        let expected = read(bytes, .never)
        await withTaskGroup(of: String.self) { group in
            for _ in 0..<8 { group.addTask { read(bytes, .always) } }
            for await result in group { #expect(result == expected) }
        }
    }
}
