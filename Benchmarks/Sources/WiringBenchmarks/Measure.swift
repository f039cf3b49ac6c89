import Foundation

/// Timing of one operation over several repetitions.
struct Measurement {
    let name: String
    /// Seconds per run, sorted.
    let samples: [Double]

    var median: Double { samples[samples.count / 2] }
    var spread: Double { (samples.last! - samples.first!) / median }

    /// Runs `body` `repetitions` times after one warm-up run. What `body` returns is released
    /// after the clock stops: the time is that of producing the result, not of freeing it.
    static func run<Result>(_ name: String, repetitions: Int, _ body: () throws -> Result) rethrows -> Measurement {
        _ = try body()
        var samples: [Double] = []
        for _ in 0..<repetitions {
            let start = ContinuousClock.now
            let result = try body()
            let elapsed = ContinuousClock.now - start
            withExtendedLifetime(result) {}
            samples.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        }
        return Measurement(name: name, samples: samples.sorted())
    }
}

/// Times several operations in turn, once each per round, so that all of them see the same
/// machine: on a noisy machine a slow stretch then hits every operation of a round alike.
/// Returns one measurement per operation and, per operation, the median over rounds of its
/// time divided by the first operation's time in the same round.
func interleaved(
    repetitions: Int, _ operations: [(name: String, body: () throws -> Any)]
) throws -> (measurements: [Measurement], ratios: [Double]) {
    for operation in operations { _ = try operation.body() }
    var samples = Array(repeating: [Double](), count: operations.count)
    for _ in 0..<repetitions {
        for (index, operation) in operations.enumerated() {
            let start = ContinuousClock.now
            let result = try operation.body()
            let elapsed = ContinuousClock.now - start
            withExtendedLifetime(result) {}
            samples[index].append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        }
    }
    let ratios = samples.map { column in
        let perRound = zip(column, samples[0]).map { $0 / $1 }.sorted()
        return perRound[perRound.count / 2]
    }
    return (zip(operations, samples).map { Measurement(name: $0.name, samples: $1.sorted()) }, ratios)
}

/// A table row comparing two ways of doing the operation `name`, interleaved round by round:
/// the name, each way's time per operation, and the second's ratio to the first.
func comparedRow(
    _ name: String, repetitions: Int, iterations: Int, _ first: (String, () throws -> Void), _ second: (String, () throws -> Void)
) throws -> [String] {
    let (measured, ratios) = try interleaved(repetitions: repetitions, [
        (first.0, { for _ in 0..<iterations { try first.1() }; return 0 }),
        (second.0, { for _ in 0..<iterations { try second.1() }; return 0 }),
    ])
    return [name, formatTime(measured[0].median / Double(iterations)), formatTime(measured[1].median / Double(iterations)),
            String(format: "%.2f×", ratios[1])]
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
///
/// `getrusage`'s `ru_maxrss`, except on Linux, where a child started by `Process` inherits its
/// parent's `ru_maxrss` (the kernel carries it over `fork` and `exec`): there the peak of this
/// process's own address space, `VmHWM` in `/proc/self/status`, is the same figure without it.
func maxResidentBytes() -> Int {
    var usage = rusage()
    #if os(Linux)
    if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
       let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
       let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) {
        return kilobytes * 1024
    }
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return usage.ru_maxrss * 1024
    #else
    getrusage(RUSAGE_SELF, &usage)
    return usage.ru_maxrss
    #endif
}

/// Resident memory of this process now, in bytes, and how much of it is backed by files (its
/// code and its libraries' first of all), read in one go (Linux: `/proc/self/statm`; elsewhere
/// the peak, and none).
func residentBytes() -> (total: Int, fileBacked: Int) {
    #if os(Linux)
    guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return (0, 0) }
    // Pages: size, resident, shared (file-backed), text, lib, data, dirty.
    let pages = statm.split(separator: " ").map { Int($0) ?? 0 }
    let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
    guard pages.count >= 3 else { return (0, 0) }
    return (pages[1] * pageSize, pages[2] * pageSize)
    #else
    return (maxResidentBytes(), 0)
    #endif
}

func formatBytes(_ bytes: Int) -> String {
    switch bytes {
    case ..<10_240: "\(bytes) B"
    case ..<10_485_760: String(format: "%.1f KB", Double(bytes) / 1024)
    default: String(format: "%.1f MB", Double(bytes) / 1_048_576)
    }
}
