import Foundation
import Wiring

/// Scaling: grows one dimension of a manifest tenfold from a realistic size and reports how
/// the time to validate it (every context checked) and build a container from it grows. Near
/// linear is a ratio near 10; each ratio must stay at or under 15.
enum ScalingBenchmark {
    /// One dimension: its name, the size it starts from, and the files of a manifest of a size.
    struct Dimension: Sendable {
        let name: String
        let base: Int
        /// The files (name → text) of a manifest of size `n`; the root is `services.yaml`.
        let files: @Sendable (_ n: Int) -> [String: String]
    }

    /// The registry every generated manifest binds to: it names one factory, `f`.
    static let registry: FactoryRegistry = {
        let registry = FactoryRegistry()
        registry.factory("f") { _ in Shared() }
        return registry
    }()

    /// The largest ratio the table accepts for a tenfold step.
    static let limit = 15.0

    static func run(repetitions: Int, only: String?) throws {
        var rows: [[String]] = []
        var worst = 0.0
        for dimension in dimensions where only.map({ dimension.name.hasPrefix($0) }) ?? true {
            let small = try GeneratedManifest(dimension.files(dimension.base))
            let large = try GeneratedManifest(dimension.files(dimension.base * 10))
            defer { small.remove(); large.remove() }
            let (measured, ratios) = try interleaved(repetitions: repetitions, [
                ("small", { try work(small.root) }),
                ("large", { try work(large.root) }),
            ])
            worst = max(worst, ratios[1])
            rows.append([
                dimension.name, "\(dimension.base) → \(dimension.base * 10)",
                formatTime(measured[0].median), formatTime(measured[1].median),
                String(format: "%.1f", ratios[1]) + (ratios[1] > limit ? "  (over \(Int(limit)))" : ""),
            ])
        }
        printTable(["dimension", "size", "small", "large", "large / small"], rows)
        print(String(format: "worst ratio %.1f for a tenfold step (limit %.0f)", worst, limit))
        guard only == nil || only == "declared" else { return }
        try declaredReferences(repetitions: repetitions)
    }

    /// Validating 10,000 services that each declare a `!service` reference (to the next one,
    /// so that the graph is one long chain), against the same services without references.
    static func declaredReferences(repetitions: Int) throws {
        let count = 10_000
        let plain = try GeneratedManifest(["services.yaml": head() + services(count, body: { i in "scope: singleton, args: { url: \"$(base)/s\(i)\" }" })])
        let declared = try GeneratedManifest(["services.yaml": head() + services(count, body: { i in
            "scope: singleton, args: { url: \"$(base)/s\(i)\"" + (i + 1 < count ? ", next: !service S\(i + 1)" : "") + " }"
        })])
        // The same bytes as a plain string: what the references cost beyond their text.
        let sameText = try GeneratedManifest(["services.yaml": head() + services(count, body: { i in
            "scope: singleton, args: { url: \"$(base)/s\(i)\"" + (i + 1 < count ? ", next: !!str S\(i + 1)" : "") + " }"
        })])
        defer { plain.remove(); declared.remove(); sameText.remove() }
        func validate(_ path: String) throws -> Any {
            let validation = ManifestLoader(environment: [:]).validate(path)
            guard validation.manifest != nil, !validation.diagnostics.containsErrors else {
                throw BenchmarkError("\(path) does not validate: \(validation.errors.prefix(3))")
            }
            return validation
        }
        let (measured, ratios) = try interleaved(repetitions: repetitions, [
            ("plain", { try validate(plain.root) }),
            ("declared", { try validate(declared.root) }),
            ("same text", { try validate(sameText.root) }),
        ])
        print()
        printTable(["validate 10,000 services", "time", "ratio"], [
            ["without references", formatTime(measured[0].median), "1.00×"],
            ["the same bytes as a tagged string", formatTime(measured[2].median), String(format: "%.2f×", ratios[2])],
            ["a !service reference each", formatTime(measured[1].median), String(format: "%.2f×", ratios[1])],
        ])
    }

    /// Validates one manifest, for a profiler (`--profile-validate PATH`).
    static func profileValidate(_ path: String) {
        let validation = ManifestLoader(environment: [:]).validate(path)
        print("\(path): \(validation.diagnostics.count) diagnostics")
    }

    /// What is timed: validating the manifest with every context checked, then building a
    /// container from the validated manifest.
    static func work(_ path: String) throws -> Any {
        let validation = ManifestLoader(environment: [:]).validate(path)
        guard let manifest = validation.manifest else {
            throw BenchmarkError("the generated manifest \(path) does not validate: \(validation.errors.prefix(3))")
        }
        return try Wiring.Container(manifest: manifest, registry: registry, contexts: .none, options: .init(environment: [:]))
    }

    static let dimensions: [Dimension] = [
        Dimension(name: "services", base: 500) { n in
            ["services.yaml": head() + services(n, body: { i in "scope: singleton, implements: [I\(i)], args: { url: \"$(base)/s\(i)\" }" })]
        },
        Dimension(name: "parameters in a chain", base: 100) { n in
            var text = head(parameters: false) + "parameters:\n  p0: x\n"
            for i in 1..<n { text += "  p\(i): $(p\(i - 1))y\n" }
            return ["services.yaml": text + services(10, body: { _ in "args: { v: $(p\(n - 1)) }" })]
        },
        Dimension(name: "parameters fanning out", base: 100) { n in
            var text = head(parameters: false) + "parameters:\n  root: https://example.com\n"
            for i in 0..<n { text += "  p\(i): $(root)/p\(i)\n" }
            return ["services.yaml": text + services(n, body: { i in "args: { v: $(p\(i)) }" })]
        },
        Dimension(name: "references per value", base: 10) { n in
            let value = String(repeating: "$(base)", count: n)
            return ["services.yaml": head() + services(50, body: { _ in "args: { v: \"\(value)\" }" })]
        },
        Dimension(name: "contexts", base: 5) { n in
            var text = head() + services(50) + "contexts:\n"
            for c in 0..<n { text += "  c\(c):\n    services:\n      S\(c % 50): { scope: unique }\n    parameters: { base: https://c\(c).example.com }\n" }
            return ["services.yaml": text]
        },
        Dimension(name: "overrides per context", base: 100) { n in
            var text = head() + services(n) + "contexts:\n  test:\n    services:\n"
            for i in 0..<n { text += "      S\(i): { scope: unique, args: { extra: \(i) } }\n" }
            return ["services.yaml": text]
        },
        Dimension(name: "imports (chain)", base: 5) { n in
            var files: [String: String] = [:]
            for f in 0..<n {
                let next = f + 1 < n ? "imports: [f\(f + 1).yaml]\n" : ""
                files[f == 0 ? "services.yaml" : "f\(f).yaml"] = "wiring: 1\n" + next + services(20, prefix: "F\(f)S")
            }
            files["services.yaml"]! += "parameters: { base: x }\n"
            return files
        },
        Dimension(name: "imports (fan-out)", base: 5) { n in
            var files = ["services.yaml": head() + "imports: [" + (0..<n).map { "f\($0).yaml" }.joined(separator: ", ") + "]\n"]
            for f in 0..<n { files["f\(f).yaml"] = "wiring: 1\n" + services(20, prefix: "F\(f)S") }
            return files
        },
        Dimension(name: "overlay files", base: 3) { n in
            var files = ["services.yaml": head() + services(50)]
            for c in 0..<n { files["services.c\(c).yaml"] = "wiring: 1\nservices:\n  S\(c % 50): { scope: unique }\n" }
            return files
        },
        Dimension(name: "named variants per service", base: 5) { n in
            let names = (0..<n).map { "v\($0): { args: { n: \($0) } }" }.joined(separator: ", ")
            return ["services.yaml": head() + services(50, body: { _ in "names: { \(names) }" })]
        },
        Dimension(name: "implements entries", base: 5) { n in
            ["services.yaml": head() + services(50, body: { i in "implements: [" + (0..<n).map { "T\(i)x\($0)" }.joined(separator: ", ") + "]" })]
        },
        Dimension(name: "decorator chain", base: 10) { n in
            var text = head() + services(10)
            for d in 0..<n { text += "  D\(d): { factory: f, decorates: \(d == 0 ? "S0" : "D\(d - 1)") }\n" }
            return ["services.yaml": text]
        },
        Dimension(name: "anchors and merge keys", base: 20) { n in
            var text = head() + "x-defaults:\n"
            for a in 0..<n { text += "  d\(a): &d\(a) { factory: f, scope: singleton, args: { a\(a): \(a) } }\n" }
            text += "services:\n"
            for i in 0..<(n * 5) { text += "  S\(i): { <<: *d\(i % n), implements: [I\(i)] }\n" }
            return ["services.yaml": text]
        },
        Dimension(name: "args nesting depth", base: 10) { n in
            let nested = String(repeating: "{ a: ", count: n) + "1" + String(repeating: " }", count: n)
            return ["services.yaml": head() + services(50, body: { _ in "args: { v: \(nested) }" })]
        },
        Dimension(name: "key length", base: 20) { n in
            var text = head() + "services:\n"
            for i in 0..<200 {
                let key = "S\(i)" + String(repeating: "k", count: n)
                text += "  \(key): { factory: f, args: { \(String(repeating: "a", count: n)): 1 } }\n"
            }
            return ["services.yaml": text]
        },
        Dimension(name: "scalar length", base: 100) { n in
            let long = String(repeating: "x", count: n)
            return ["services.yaml": head() + services(200, body: { _ in "args: { v: \(long), w: \"$(base)\(long)\" }" })]
        },
    ]

    /// The format version and a parameter services read.
    private static func head(parameters: Bool = true) -> String {
        "wiring: 1\n" + (parameters ? "parameters: { base: https://example.com }\n" : "")
    }

    /// A `services:` section of `count` services built by `f`, each with `body` in its braces.
    private static func services(_ count: Int, prefix: String = "S", body: (Int) -> String = { _ in "" }) -> String {
        var text = "services:\n"
        for i in 0..<count {
            let extra = body(i)
            text += "  \(prefix)\(i): { factory: f\(extra.isEmpty ? "" : ", " + extra) }\n"
        }
        return text
    }
}

/// Generated files written to a folder of their own.
private struct GeneratedManifest {
    let folder: String
    var root: String { folder + "/services.yaml" }

    init(_ files: [String: String]) throws {
        folder = NSTemporaryDirectory() + "wiring-scaling-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (name, text) in files {
            try text.write(toFile: folder + "/" + name, atomically: true, encoding: .utf8)
        }
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: folder)
    }
}
