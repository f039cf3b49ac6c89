import Foundation

/// Writes realistic manifests of a given size: scopes, implements, names, args with parameter
/// and environment references, decorators, merge keys, a contexts block and an import.
enum ManifestGenerator {
    /// Writes `services` services into a fresh folder; returns the root manifest's path.
    static func write(services count: Int) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wiring-bench-\(count)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let imported = min(100, count / 10)
        try manifest(range: 0..<imported, imports: [], contexts: false)
            .write(to: folder.appendingPathComponent("shared.yaml"), atomically: true, encoding: .utf8)
        try manifest(range: imported..<count, imports: ["shared.yaml"], contexts: true)
            .write(to: folder.appendingPathComponent("services.yaml"), atomically: true, encoding: .utf8)
        return folder.appendingPathComponent("services.yaml").path
    }

    /// How many factory keys the services use (`factory-0` …), and mock factories the test
    /// context uses (`mock-0` …).
    static let factories = 500
    static let mocks = 50

    private static let scopes = ["singleton", "graph", "unique", "shared", "cached"]

    static func manifest(range: Range<Int>, imports: [String], contexts: Bool) -> String {
        var out = "wiring: 1\n"
        if !imports.isEmpty { out += "imports: [\(imports.joined(separator: ", "))]\n" }
        out += """
            x-defaults:
              durable: &durable { scope: singleton }
              http: &http { timeout: 5, retries: 3, compress: true }

            """
        if contexts {
            out += """
                parameters:
                  baseURL: ${API_BASE_URL:-https://api.example.com}
                  replicaURL: https://replica.example.com
                  region: eu-west-1
                scopes:
                  default: graph
                  custom:
                    session: { ttl: 15m }

                """
        }
        out += "services:\n"
        for i in range {
            out += "  Service\(i):\n"
            if i % 4 == 0 {
                out += "    <<: *durable\n"
            } else {
                let scope = scopes[i % scopes.count]
                out += "    scope: \(scope)\n"
                if scope == "cached" { out += "    ttl: 30s\n" }
            }
            out += "    factory: factory-\(i % factories)\n"
            if i % 2 == 0 { out += "    implements: [Reading\(i), Writing\(i)]\n" }
            if i % 4 == 0 {
                out += "    args:\n      <<: *http\n      url: \"$(baseURL)/s\(i)\"\n      region: $(region)\n"
            } else {
                out += "    args: { url: \"$(baseURL)/s\(i)\", pool: { min: 1, max: 8 }, tags: [a, b] }\n"
            }
            if i % 3 == 0 {
                out += "    names:\n      replica: { args: { url: \"$(replicaURL)/s\(i)\" } }\n"
            }
            if i % 10 == 5 { out += "    decorates: Service\(i - 1)\n" }
        }
        if contexts {
            out += "contexts:\n  test:\n    parameters: { baseURL: http://localhost:8080 }\n    services:\n"
            for i in range where i % 10 == 0 {
                out += "      Service\(i): { factory: mock-\(i % mocks), scope: unique }\n"
            }
            out += "  staging:\n    parameters: { region: us-east-1 }\n"
        }
        return out
    }
}
