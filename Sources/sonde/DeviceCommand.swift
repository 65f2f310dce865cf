import ArgumentParser
import Foundation
import SondeCapture
import SondeCore
import SondeIO
import SondePipeline

struct DeviceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "device",
        abstract: "Pair with the simulated sensor, check it, forget it.",
        discussion: """
            Examples:
              sonde device pair                                        # the default healthy pump
              sonde device pair --profile sample-data/faulty-pump.toml --seed 7
              sonde device status
              sonde device unpair
              sonde device convert-profile old.profile -o pump.toml    # the format before 0.8
            """,
        subcommands: [Pair.self, Status.self, Unpair.self, ConvertProfile.self]
    )

    /// Pairing lives in the configuration directory (`SondeHome`: `$SONDE_HOME` when set,
    /// else `$XDG_CONFIG_HOME/sonde`, else `~/.config/sonde`).
    static func connection() throws -> any DeviceConnectionService {
        let home = try SondeHome(environment: ProcessInfo.processInfo.environment)
        return FileDeviceConnection(directory: URL(fileURLWithPath: home.configDirectory))
    }

    struct Pair: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "pair", abstract: "Connect to the device and remember it.")

        @OptionGroup var device: DeviceOptions
        @OptionGroup var input: InputOptions

        func run() async throws {
            try await reportingErrors {
                let profile: (text: String, source: String)
                if let given = try device.profileText(input: input) {
                    profile = given
                } else {
                    try DeviceOptions.refuseInputShape(input, device: "the default device (the healthy pump)")
                    profile = (Instrument.defaultProfile, "default")
                }
                Diagnostics.progress("Connecting…")
                let paired = try await DeviceCommand.connection().pair(
                    profileText: profile.text, profileSource: profile.source, seed: device.seed)
                print("Device connected: \(paired.id)")
            }
        }
    }

    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "status", abstract: "Say whether a device is paired.")

        func run() async throws {
            try await reportingErrors {
                if let paired = try DeviceCommand.connection().current() {
                    print("Device connected: \(paired.id)")
                } else {
                    print("Device not connected")
                }
            }
        }
    }

    struct Unpair: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "unpair", abstract: "Forget the paired device.")

        func run() async throws {
            try await reportingErrors {
                print(try DeviceCommand.connection().unpair() ? "Device unpaired" : "Device not connected")
            }
        }
    }

    struct ConvertProfile: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "convert-profile",
            abstract: "Rewrite a device profile in the format before 0.8 as TOML.",
            discussion: """
                The TOML profile describes the same device: the same seed gives the same samples.
                Comments of the old file are not carried over.

                Example:
                  sonde device convert-profile old.profile -o pump.toml
                """
        )

        @Argument(help: ArgumentHelp("The old profile file.", valueName: "FILE"))
        var file: String

        @Option(
            name: .shortAndLong,
            help: ArgumentHelp("Write the TOML here (default: standard output).", valueName: "FILE"))
        var output: String?

        func run() async throws {
            try await reportingErrors {
                let text = try DeviceProfile.text(path: file)
                let toml = try DeviceProfile.parse(text, source: file).tomlText
                if let output {
                    let file = try OutputFile(atomicallyReplacing: output)
                    do {
                        try file.write(toml.utf8)
                        try file.commit()
                    } catch {
                        file.abandon()
                        throw error
                    }
                } else {
                    print(toml, terminator: "")
                }
            }
        }
    }
}
