import ArgumentParser
import WiringCommands

/// The `wiring` tool's entry point: Wiring's commands, some of which await.
@main
enum WiringCLI {
    static func main() async {
        await WiringCommand.main(nil)
    }
}
