/// Finds the nearest known name to a misspelt one, for "did you mean …?" hints.
package enum Suggestion {
    /// The candidate closest to `name` by edit distance, if it is close enough to be a likely typo.
    ///
    /// Close enough means at most a third of the longer name's length in edits (at least one), or
    /// the same name in another letter case.
    static func nearest(to name: String, in candidates: some Sequence<String>) -> String? {
        let lowered = name.lowercased()
        var best: (candidate: String, distance: Int)?
        for candidate in candidates where candidate != name {
            let distance = candidate.lowercased() == lowered ? 0 : editDistance(name, candidate)
            let allowed = max(1, max(name.count, candidate.count) / 3)
            guard distance <= allowed else { continue }
            if best == nil || distance < best!.distance
                || (distance == best!.distance && candidate < best!.candidate) {
                best = (candidate, distance)
            }
        }
        return best?.candidate
    }

    /// `"; did you mean 'x'?"`, or the empty string when no candidate is near.
    package static func hint(for name: String, in candidates: some Sequence<String>) -> String {
        guard let near = nearest(to: name, in: candidates) else { return "" }
        return "; did you mean '\(near)'?"
    }

    /// Levenshtein distance over characters, with adjacent transpositions counted as one edit.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previousPrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, previousPrevious[j - 2] + 1)
                }
                current[j] = value
            }
            (previousPrevious, previous, current) = (previous, current, previousPrevious)
        }
        return previous[b.count]
    }
}
