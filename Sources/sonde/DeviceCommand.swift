import ArgumentParser
import Foundation
import SondeCapture
import SondeCore
import SondeIO
import SondeInstruments
import SondeKit
import SondePipeline

struct DeviceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "device",
        abstract:
            "Pair with a sensor (a sound card, an acquisition program, or the simulated pump), check it, forget it.",
        discussion: """
            Examples:
              sonde device list                                        # the ALSA capture devices
              sonde device pair --alsa hw:1,0 --rate 48000 --channels 2 --format S32_LE
              sonde device pair --command 'arecord -q -D hw:1 -f S32_LE -r 48000 -c 2 -t raw' \\
                  --rate 48000 --channels 2 --sample-type i32le        # any program writing raw samples
              sonde device pair                                        # the simulated healthy pump
              sonde device pair --profile sample-data/faulty-pump.toml --seed 7
              sonde device status
              sonde device unpair
              sonde device release                                     # stop whoever measures in sonde serve
              sonde device convert-profile old.profile -o pump.toml    # the format before 0.8
            """,
        subcommands: [List.self, Pair.self, Status.self, Unpair.self, Release.self, ConvertProfile.self]
    )

    /// Pairing lives in the configuration directory (`LocalServices.deviceConnection`).
    static func connection() throws -> any DeviceConnectionService {
        try LocalServices.deviceConnection()
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List the ALSA capture devices, with the channels and rates each accepts.")

        func run() async throws {
            try await reportingErrors {
                guard let lines = DeviceTable.lines(ALSADevices.list()) else {
                    print("No ALSA capture device found (no sound card, or none this user may open).")
                    return
                }
                for line in lines { print(line) }
            }
        }
    }

    struct Pair: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "pair", abstract: "Connect to the device and remember it.")

        @OptionGroup(title: "Real instrument") var instrument: InstrumentOptions
        @OptionGroup var device: DeviceOptions
        @OptionGroup var input: InputOptions

        func run() async throws {
            try await reportingErrors {
                if let settings = try instrument.settings(input: input) {
                    let buffering = try DevicePairing.pair(
                        instrument: settings, describesSimulated: device.profile != nil || device.describesDevice,
                        connection: DeviceCommand.connection())
                    print("Device connected: \(settings.deviceID) (\(settings.description))")
                    if let buffering { print("Captures read \(buffering).") }
                    return
                }
                let paired = try await DevicePairing.pairSimulated(
                    profile: try device.profileText(input: input), inputShape: input.sampleSourceOptions(),
                    seed: device.seed, connection: DeviceCommand.connection())
                print("Device connected: \(paired.id) (\(paired.kindDescription))")
            }
        }
    }

    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "status", abstract: "Say whether a device is paired.")

        func run() async throws {
            try await reportingErrors {
                if let paired = try DeviceCommand.connection().current() {
                    print("Device connected: \(paired.id) (\(paired.kindDescription))")
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

    struct Release: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "release",
            abstract: "Free the device from the measurement running in sonde serve (the administrator's stop).",
            discussion: """
                Asks the `sonde serve` that shares this home: its running measurement stops and \
                waits as an unsaved measurement for its owner, whose Main says "stopped by the \
                administrator"; the device is free for the next user at once. Like pairing, only \
                who can write this home may do it.
                """
        )

        @Option(help: ArgumentHelp("Seconds to wait for the server's answer.", valueName: "SECONDS"))
        var timeout: Double = 10

        func run() async throws {
            try await reportingErrors {
                let home = try SondeHome(environment: ProcessInfo.processInfo.environment)
                let request = DeviceReleaseRequest(directory: URL(fileURLWithPath: home.configDirectory))
                print(try await request.request(timeout: timeout))
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
                let toml = try DevicePairing.convertedProfile(path: file)
                guard let output else { return print(toml, terminator: "") }
                try OutputFile.write(toml.utf8, atomicallyTo: output)
            }
        }
    }
}
