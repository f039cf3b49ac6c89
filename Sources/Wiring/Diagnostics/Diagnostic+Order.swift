extension [Diagnostic] {
    /// These diagnostics in manifest order: by file as the manifest loaded them, then line and
    /// column, with places in other files (Swift code) after the manifest's. Diagnostics with
    /// the same place keep their order.
    ///
    /// Each diagnostic's key is computed once, by file identifier: comparing paths would look
    /// each one up in the process's file table, under its lock, at every comparison.
    ///
    /// - Parameters:
    ///   - files: The manifest's files, the root first.
    ///   - bySeverity: Errors first, then warnings, then information, each in manifest order.
    ///   - unplacedFirst: Diagnostics with no place go before the others; else after them.
    func inManifestOrder(files: [String], bySeverity: Bool, unplacedFirst: Bool) -> [Diagnostic] {
        var rank: [UInt32: Int] = [:]
        for (index, file) in files.enumerated() {
            let id = SourceFileTable.intern(file)
            if rank[id] == nil { rank[id] = index }
        }
        let unplaced = unplacedFirst ? -1 : files.count + 1
        let keyed = enumerated().map { offset, diagnostic in
            let location = diagnostic.location
            let file = location.map { rank[$0.fileID] ?? files.count } ?? unplaced
            let severity = bySeverity ? -diagnostic.severity.rank : 0
            return (key: (severity, file, location?.line ?? 0, location?.column ?? 0, offset), diagnostic: diagnostic)
        }
        return keyed.sorted { $0.key < $1.key }.map(\.diagnostic)
    }
}
