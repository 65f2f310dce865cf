import ArgumentParser

@main
struct Sonde: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sonde",
        abstract: "Turn sensor samples into per-window measurements.",
        discussion: """
            Examples:
              sonde process recording.wav
              sonde process vibration.csv --filter highpass:10 --bands 0-1000,1000-5000 -o features.csv
              sonde process bearing.f32le --rate 25600 --channels 2 --sample-type f32le --format ndjson

            Every number is defined in FEATURES.md; run `sonde process --help` for the options.
            """,
        subcommands: [
            ProcessCommand.self, StreamCommand.self, DeviceCommand.self, BenchCommand.self,
            RegisterCommand.self, LoginCommand.self, LogoutCommand.self, WhoamiCommand.self,
            ForgotPasswordCommand.self, ResetPasswordCommand.self,
            MeasureCommand.self, MeasurementsCommand.self, DebugSaveLoopCommand.self,
        ]
    )
}
