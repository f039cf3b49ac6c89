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
        /// Not a regular file: what it is instead ("a folder", "a named pipe", …).
        case notAFile(String)

        /// The reason, as a diagnostic says it after "cannot read …: ", for a read whose size
        /// limit was `limit`.
        package func reason(limit: Int) -> String {
            switch self {
            case .cannotOpen(let message): message.lowercased()
            case .notAFile(let kind): "not a regular file (\(kind))"
            case .tooLarge(let size): "the file is \(size) bytes, more than the limit of \(limit) bytes"
            }
        }
    }

    /// Reads a whole regular file, refusing one larger than `limit` bytes before reading it.
    ///
    /// A named pipe, socket, device or folder is refused before anything can block: the file's
    /// type is checked before it is opened, and it is opened without waiting (a pipe with no
    /// writer would otherwise block `open` forever), then checked again in case it changed.
    package static func read(_ path: String, limit: Int) throws(ReadError) -> [UInt8] {
        var info = stat()
        guard stat(path, &info) == 0 else { throw .cannotOpen(String(cString: strerror(errno))) }
        if let kind = kind(of: info) { throw .notAFile(kind) }
        let descriptor = open(path, O_RDONLY | O_NONBLOCK)
        guard descriptor >= 0 else { throw .cannotOpen(String(cString: strerror(errno))) }
        defer { close(descriptor) }
        guard fstat(descriptor, &info) == 0 else { throw .cannotOpen(String(cString: strerror(errno))) }
        if let kind = kind(of: info) { throw .notAFile(kind) }
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

    /// The names of the entries of `folder`, but `.` and `..`, in the order the system gives.
    static func names(in folder: String) throws(ReadError) -> [String] {
        guard let directory = opendir(folder) else { throw .cannotOpen(String(cString: strerror(errno))) }
        defer { closedir(directory) }
        var names: [String] = []
        // The name is read in place, up to its end: an entry is allocated only as long as its
        // name, so a copy of the whole `d_name` array would read past it.
        let nameOffset = MemoryLayout<dirent>.offset(of: \.d_name)!   // a stored field: its offset is known
        while let entry = readdir(directory) {
            let name = String(cString: (UnsafeRawPointer(entry) + nameOffset).assumingMemoryBound(to: CChar.self))
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    /// What a file that is not a regular file is, for a message; `nil` for a regular file.
    private static func kind(of info: stat) -> String? {
        switch info.st_mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: "a folder"
        case S_IFIFO: "a named pipe"
        case S_IFSOCK: "a socket"
        case S_IFCHR, S_IFBLK: "a device"
        default: "a special file"
        }
    }

    /// The canonical path of an existing file (symbolic links resolved), for telling files apart.
    static func canonical(_ path: String) -> String {
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
    static func normalize(_ path: String) -> String {
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
}

#if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
private func Glibc_read(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
#endif
