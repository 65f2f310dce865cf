import ArgumentParser
import SondeCore
import SondeDSP
import SondeKit

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

            Every column is defined in docs/features.md of sonde's repository; run
            `sonde process --help` for the options.

            Exit status:
              0    success; for stream also when the reader of its output closes it early
              1    an error, described in one line on standard error
              2    some inputs failed (process --keep-going) or merge found outputs missing
              64   usage: an unknown option, or a value outside its range
              69   this CPU cannot run this build (an AVX2 build on an older CPU)
              130  interrupted by SIGINT (143: SIGTERM); completed records are written
              141  the reader of standard output closed it early (SIGPIPE, as other tools)
            """,
        version: SondeVersion.named,
        subcommands: [
            InfoCommand.self, ProcessCommand.self, SpectrumCommand.self, ReportCommand.self, MergeCommand.self,
            StreamCommand.self, KurtogramCommand.self, DiagnoseCommand.self,
            DeviceCommand.self, BenchCommand.self,
            RegisterCommand.self, LoginCommand.self, LogoutCommand.self, WhoamiCommand.self,
            ForgotPasswordCommand.self, ResetPasswordCommand.self,
            MeasureCommand.self, MeasurementsCommand.self, StoreCommand.self, ServeCommand.self,
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
