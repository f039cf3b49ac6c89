import Foundation
import Testing
@testable import Wiring

/// A manifest path that names a named pipe, a socket, a device or a folder is refused with a
/// positioned error before anything can block: as the root of `wiring validate`, as an import,
/// as an overlay file. A pipe with no writer would block a plain `open` forever, so the cases
/// that could hang run the real `wiring` binary in a child process with a time limit.
@Suite("Special files")
struct SpecialFileTests {
    /// A folder holding `root.yaml`, which imports `name`.
    private func rootImporting(_ name: String) throws -> URL {
        let folder = try TestSupport.temporaryFolder()
        try "wiring: 1\nimports: [\(name)]\nservices:\n  A: { factory: a }\n"
            .write(to: folder.appendingPathComponent("root.yaml"), atomically: true, encoding: .utf8)
        return folder
    }

    private func makeFIFO(_ url: URL) throws {
        #expect(mkfifo(url.path, 0o600) == 0, "mkfifo: \(String(cString: strerror(errno)))")
    }

    private func validate(_ path: String) throws -> BinaryRunner.Output {
        let output = try BinaryRunner.run("wiring", ["validate", path], timeout: .seconds(60))
        #expect(!output.timedOut, "wiring validate \(path) blocked")
        return output
    }

    @Test func anImportThatIsANamedPipeIsRefusedAtItsPosition() throws {
        let folder = try rootImporting("pipe.yaml")
        try makeFIFO(folder.appendingPathComponent("pipe.yaml"))
        let root = folder.appendingPathComponent("root.yaml").path
        let output = try validate(root)
        #expect(output.status == 1)
        #expect(output.stdout.contains(
            "\(root):2:11: error: cannot read import 'pipe.yaml' (\(folder.path)/pipe.yaml): not a regular file (a named pipe)"),
            "\(output.stdout)\(output.stderr)")
    }

    @Test func aRootManifestThatIsANamedPipeIsRefused() throws {
        let pipe = try TestSupport.temporaryFolder().appendingPathComponent("services.yaml")
        try makeFIFO(pipe)
        let output = try validate(pipe.path)
        #expect(output.status == 1)
        #expect(output.stdout.contains("cannot read manifest '\(pipe.path)': not a regular file (a named pipe)"),
                "\(output.stdout)\(output.stderr)")
    }

    @Test func anOverlayFileThatIsANamedPipeIsRefused() throws {
        let folder = try TestSupport.temporaryFolder()
        let root = folder.appendingPathComponent("services.yaml")
        try "wiring: 1\nservices:\n  A: { factory: a }\n".write(to: root, atomically: true, encoding: .utf8)
        try makeFIFO(folder.appendingPathComponent("services.staging.yaml"))
        let output = try validate(root.path)
        #expect(output.status == 1)
        #expect(output.stdout.contains(
            "cannot read overlay file '\(folder.path)/services.staging.yaml' of context 'staging': not a regular file (a named pipe)"),
            "\(output.stdout)\(output.stderr)")
    }

    @Test func anImportThatIsASocketIsRefusedAtItsPosition() throws {
        let folder = try rootImporting("socket.yaml")
        let path = folder.appendingPathComponent("socket.yaml").path
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        #expect(descriptor >= 0)
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        try #require(path.utf8.count < capacity, "the socket's path fits sun_path")
        withUnsafeMutableBytes(of: &address.sun_path) { bytes in
            for (offset, byte) in path.utf8.enumerated() { bytes[offset] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try #require(bound == 0, "bind: \(String(cString: strerror(errno)))")
        let result = ManifestLoader(environment: [:]).validate(folder.appendingPathComponent("root.yaml").path)
        #expect(result.diagnostics.map(\.message) == [
            "cannot read import 'socket.yaml' (\(path)): not a regular file (a socket)",
        ])
        #expect(result.diagnostics.first?.location?.line == 2)
    }

    @Test func anImportThatIsADeviceIsRefusedAtItsPosition() throws {
        let folder = try rootImporting("/dev/null")
        let result = ManifestLoader(environment: [:]).validate(folder.appendingPathComponent("root.yaml").path)
        #expect(result.diagnostics.map(\.message) == ["cannot read import '/dev/null': not a regular file (a device)"])
        #expect(result.diagnostics.first?.location?.line == 2 && result.diagnostics.first?.location?.column == 11)
    }

    /// Overlay files are found by listing the root's folder; a folder that cannot be listed is
    /// said (the loader's warning), with the reason the listing gives. As root, no folder of a
    /// readable manifest refuses a listing, so the listing itself is checked here.
    @Test func aFolderListingSaysWhyItFailed() throws {
        let folder = try TestSupport.temporaryFolder()
        try "wiring: 1\n".write(to: folder.appendingPathComponent("services.yaml"), atomically: true, encoding: .utf8)
        #expect(try SourceFiles.names(in: folder.path) == ["services.yaml"])
        #expect(throws: SourceFiles.ReadError.cannotOpen("Not a directory")) {
            try SourceFiles.names(in: folder.appendingPathComponent("services.yaml").path)
        }
    }

    @Test func aCatalogThatIsANamedPipeIsRefused() throws {
        let pipe = try TestSupport.temporaryFolder().appendingPathComponent("factories.json")
        try makeFIFO(pipe)
        let output = try BinaryRunner.run(
            "wiring", ["validate", "config-examples/services.yaml", "--catalog", pipe.path], timeout: .seconds(60))
        #expect(!output.timedOut, "wiring validate --catalog on a pipe blocked")
        #expect(output.status != 0)
        #expect((output.stdout + output.stderr).contains("cannot read catalog '\(pipe.path)': not a regular file (a named pipe)"),
                "\(output.stdout)\(output.stderr)")
    }
}
