import ArgumentParser
import SondeCore
import SondeDSP

#if canImport(Glibc)
    import Glibc
#endif

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
        version: "sonde \(SondeVersion.number) (commit \(BuildTarget.commit), \(BuildTarget.name) build)",
        subcommands: [
            ProcessCommand.self, SpectrumCommand.self, ReportCommand.self, MergeCommand.self, StreamCommand.self, DeviceCommand.self, BenchCommand.self,
            RegisterCommand.self, LoginCommand.self, LogoutCommand.self, WhoamiCommand.self,
            ForgotPasswordCommand.self, ResetPasswordCommand.self,
            MeasureCommand.self, MeasurementsCommand.self, DebugSaveLoopCommand.self,
        ]
    )

    /// Checks that this CPU can run the build before anything else runs: an AVX2 build on an
    /// older node would otherwise die by SIGILL with no message.
    static func main() async {
        if let message = BuildTarget.unsupportedCPUMessage() {
            Diagnostics.error(message)
            Glibc.exit(69)  // EX_UNAVAILABLE
        }
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}
