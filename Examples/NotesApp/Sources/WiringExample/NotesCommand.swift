import ArgumentParser
import Foundation
import Wiring
import WiringCommands

/// `wiring-example`: a notes tool whose wiring comes from config-examples/ and changes with
/// `WIRING_CONTEXT` (or `--wiring-context`).
@main
struct NotesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wiring-example",
        abstract: "A small notes tool wired by config-examples/services.yaml.",
        discussion: """
            Storage, clock, notifier and audit log come from the manifest; choose an \
            environment with WIRING_CONTEXT=test|staging|production (or --wiring-context).

            Examples:
              wiring-example demo
              WIRING_CONTEXT=test wiring-example add "Groceries" "milk, eggs"
              wiring-example validate config-examples/services.yaml --instantiate
            """,
        subcommands: [Demo.self, Add.self, List.self, AppValidateCommand<NotesRegistry>.self, AppCatalogCommand<NotesRegistry>.self, AppGraphCommand<NotesRegistry>.self],
        defaultSubcommand: Demo.self)
}

/// Options shared by the commands that use the container.
struct ContainerOptions: ParsableArguments {
    @Option(help: "The root manifest.")
    var manifest = "config-examples/services.yaml"

    @Option(name: .customLong("wiring-context"), help: "Contexts to apply (also read from WIRING_CONTEXT).")
    var contexts: [String] = []

    /// Builds the shared container, starts it (opening the activity journal), runs `body`,
    /// then shuts the container down (closing the journal), also when `body` throws.
    func withContainer(_ body: (Container) throws -> Void) async throws {
        let container = try bootstrap()
        try await container.start()
        do {
            try body(container)
        } catch {
            try await container.shutdown()
            throw error
        }
        try await container.shutdown()
    }

    /// Builds the shared container with the contexts chosen at launch.
    private func bootstrap() throws -> Container {
        do {
            return try Container.bootstrap(
                manifest: manifest, registry: NotesRegistry.makeRegistry(),
                contexts: .launch(detectsTests: false).adding(contexts))
        } catch {
            for diagnostic in error.diagnostics { FileHandle.standardError.write(Data((diagnostic.formatted() + "\n").utf8)) }
            throw ExitCode(1)
        }
    }
}

extension ContextSelection {
    /// This selection with `names` as launch arguments (already parsed by ArgumentParser).
    func adding(_ names: [String]) -> ContextSelection {
        var selection = self
        selection.arguments = names.isEmpty ? [] : ["wiring-example", "--wiring-context", names.joined(separator: ",")]
        return selection
    }
}

struct Add: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Save a note.")
    @OptionGroup var options: ContainerOptions
    @Argument var title: String
    @Argument var body: String = ""

    func run() async throws {
        try await options.withContainer { container in
            try container.resolve(NotesApp.self).add(title: title, body: body)
        }
    }
}

struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List the notes (or the archived ones).")
    @OptionGroup var options: ContainerOptions
    @Flag(help: "List the archive: the 'archive' named variant of NoteStore.")
    var archive = false

    func run() async throws {
        try await options.withContainer { container in
            let notes = archive ? try container.resolve(NoteStore.self, name: "archive").all() : try container.resolve(NotesApp.self).list()
            for note in notes {
                print("\(Int(note.created.timeIntervalSince1970))  \(note.title)\(note.body.isEmpty ? "" : ": \(note.body)")")
            }
        }
    }
}

/// Shows the wiring at work in one run: the active contexts, a saved note, the notes.
struct Demo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Save a note and list the notes, showing which wiring applied.")
    @OptionGroup var options: ContainerOptions

    func run() async throws {
        try await options.withContainer { container in
            let contexts = container.activeContexts
            print("contexts: " + (contexts.isEmpty ? "none" : contexts.map(\.description).joined(separator: ", ")))
            print("store: \(String(describing: type(of: try container.resolve(NoteStore.self))))")
            let app = try container.resolve(NotesApp.self)
            print("api: \(app.api.baseURL) (timeout \(app.api.timeout)s)")
            try app.add(title: "Hello from Wiring", body: "saved through \(type(of: app.writer))")
            print("notes: \(try app.list().count)")
            print("journal: \(app.journal.path)")
            print("health checks: \(try container.resolveAll(Any.self, tagged: "health-check").count)")
        }
    }
}
