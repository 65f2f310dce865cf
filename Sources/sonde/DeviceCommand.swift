import ArgumentParser
import Foundation
import SondeCore
import SondePipeline

struct DeviceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "device",
        abstract: "Pair with the simulated sensor, check it, forget it.",
        discussion: """
            Examples:
              sonde device pair                                        # the default healthy pump
              sonde device pair --profile sample-data/faulty-pump.profile --seed 7
              sonde device status
              sonde device unpair
            """,
        subcommands: [Pair.self, Status.self, Unpair.self]
    )

    /// Pairing lives in the configuration directory (`SondeHome`: `$SONDE_HOME` when set,
    /// else `$XDG_CONFIG_HOME/sonde`, else `~/.config/sonde`).
    static func connection() throws -> any DeviceConnectionService {
        let home = try SondeHome(environment: ProcessInfo.processInfo.environment)
        return FileDeviceConnection(directory: URL(fileURLWithPath: home.configDirectory))
    }

    struct Pair: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Connect to the device and remember it.")

        @OptionGroup var device: DeviceOptions
        @OptionGroup var input: InputOptions

        func run() async throws {
            try await reportingErrors {
                let profile = try device.profileText(rate: input.rate, channels: input.channels)
                    ?? (DeviceOptions.defaultProfile, "default")
                Diagnostics.progress("Connecting…")
                let paired = try await DeviceCommand.connection().pair(profileText: profile.text, profileSource: profile.source, seed: device.seed)
                print("Device connected: \(paired.id)")
            }
        }
    }

    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Say whether a device is paired.")

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
        static let configuration = CommandConfiguration(abstract: "Forget the paired device.")

        func run() async throws {
            try await reportingErrors {
                print(try DeviceCommand.connection().unpair() ? "Device unpaired" : "Device not connected")
            }
        }
    }
}
