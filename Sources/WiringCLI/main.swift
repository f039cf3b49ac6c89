import ArgumentParser
import WiringCommands

WiringCommand.main()
