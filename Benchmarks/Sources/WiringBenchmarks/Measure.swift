import Foundation

/// Timing of one operation over several repetitions.
struct Measurement {
    let name: String
    /// Seconds per run, sorted.
    let samples: [Double]

    var median: Double { samples[samples.count / 2] }
    var spread: Double { (samples.last! - samples.first!) / median }

    /// Runs `body` `repetitions` times after one warm-up run.
    static func run(_ name: String, repetitions: Int, _ body: () throws -> Void) rethrows -> Measurement {
        try body()
        var samples: [Double] = []
        for _ in 0..<repetitions {
            let start = ContinuousClock.now
            try body()
            let elapsed = ContinuousClock.now - start
            samples.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        }
        return Measurement(name: name, samples: samples.sorted())
    }
}

func formatTime(_ seconds: Double) -> String {
    switch seconds {
    case ..<1e-6: String(format: "%.1f ns", seconds * 1e9)
    case ..<1e-3: String(format: "%.2f µs", seconds * 1e6)
    case ..<1: String(format: "%.2f ms", seconds * 1e3)
    default: String(format: "%.2f s", seconds)
    }
}

/// Prints rows as an aligned table.
func printTable(_ header: [String], _ rows: [[String]]) {
    let widths = header.indices.map { column in
        ([header] + rows).map { $0[column].count }.max()!
    }
    func line(_ cells: [String]) -> String {
        cells.enumerated().map { index, cell in
            index == 0 ? cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
                : String(repeating: " ", count: widths[index] - cell.count) + cell
        }.joined(separator: "  ")
    }
    print(line(header))
    print(widths.map { String(repeating: "-", count: $0) }.joined(separator: "  "))
    rows.forEach { print(line($0)) }
}

/// Peak resident memory of this process so far, in bytes.
func maxResidentBytes() -> Int {
    var usage = rusage()
    #if os(Linux)
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return usage.ru_maxrss * 1024
    #else
    getrusage(RUSAGE_SELF, &usage)
    return usage.ru_maxrss
    #endif
}
