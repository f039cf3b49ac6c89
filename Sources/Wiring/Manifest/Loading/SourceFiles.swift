#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading manifest files and working with their paths, without Foundation on the hot path.
package enum SourceFiles {
    /// Why a file could not be read.
    package enum ReadError: Error, Equatable {
        case cannotOpen(String)
        case tooLarge(Int)
        case notAFile
    }

    /// Reads a whole file, refusing one larger than `limit` bytes before reading it.
    package static func read(_ path: String, limit: Int) throws(ReadError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw .cannotOpen(String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .cannotOpen(String(cString: strerror(errno))) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw .notAFile }
        let size = Int(info.st_size)
        guard size <= limit else { throw .tooLarge(size) }
        // Read into memory not set first: zeroing 2 MB only for `read` to overwrite it cost
        // about 2 M instructions a load.
        var failure: Int32?
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            var filled = 0
            while filled < size {
                let count = Glibc_read(descriptor, buffer.baseAddress! + filled, size - filled)
                if count < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    break
                }
                if count == 0 { break }
                filled += count
            }
            initialized = filled
        }
        if let failure { throw .cannotOpen(String(cString: strerror(failure))) }
        return bytes
    }

    /// The canonical path of an existing file (symbolic links resolved), for telling files apart.
    package static func canonical(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return normalize(path) }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// `path` resolved against the folder of `file`, unless it is absolute.
    package static func resolve(_ path: String, relativeTo file: String) -> String {
        if path.hasPrefix("/") { return normalize(path) }
        guard let slash = file.lastIndex(of: "/") else { return normalize(path) }
        return normalize(String(file[...slash]) + path)
    }

    /// Removes `.` and folds `name/..` segments, keeping the path relative when it was.
    package static func normalize(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == "..", let last = parts.last, last != ".." {
                parts.removeLast()
                continue
            }
            if part == "..", absolute { continue }
            parts.append(part)
        }
        let joined = parts.joined(separator: "/")
        return absolute ? "/" + joined : (joined.isEmpty ? "." : joined)
    }

    /// The text of 1-based line `line` in `bytes`, without its line break.
    package static func line(_ line: Int, in bytes: [UInt8]) -> String? {
        var current = 1
        var start = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        var index = start
        while index < bytes.count, current < line {
            if bytes[index] == UInt8(ascii: "\n") {
                current += 1
                start = index + 1
            }
            index += 1
        }
        guard current == line, start <= bytes.count else { return nil }
        var end = start
        while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
        if end > start, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }
}

#if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
private func Glibc_read(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
#endif
