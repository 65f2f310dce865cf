import ArgumentParser
import SondeKit

struct KurtogramCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kurtogram",
        abstract: "The fast kurtogram of each channel: the band where the signal is most impulsive.",
        discussion: """
            Spectral kurtosis on Antoni's 1/3-binary grid of bands (J. Antoni, MSSP 21, 2007; \
            docs/kurtogram-definition.md in sonde's repository defines every step): for a \
            rolling-element bearing, the band to demodulate. Prints each channel's best band \
            (level, centre, bandwidth, kurtosis) and the strongest line of that band's \
            squared-envelope spectrum, which a bearing fault puts at its defect frequency. The \
            whole channel is held in memory (up to 2^26 samples); it needs at least \
            2^(levels+7) samples.

            Examples:
              # A bearing record at 12 kHz: the resonance band and the envelope's line
              sonde kurtogram 105.mat --variables X105_DE_time --rate 12000

              # The whole grid, as JSON
              sonde kurtogram bearing.f32le --rate 25600 --channels 2 --sample-type f32le --format json
            """
    )

    @Argument(help: ArgumentHelp("The recording.", valueName: "FILE"))
    var file: String

    @Option(name: .long, help: ArgumentHelp("Levels of the grid, 1 to 12 (6).", valueName: "L"))
    var levels: Int = 6

    @Option(name: .long, help: ArgumentHelp("table (default) or json (with the whole grid).", valueName: "F"))
    var format: String = "table"

    @OptionGroup(title: "Inputs") var input: InputOptions

    func validate() throws {
        guard (1...12).contains(levels) else { throw ValidationError("--levels \(levels): expected 1 to 12") }
        guard ["table", "json"].contains(format) else {
            throw ValidationError("--format \(format): expected table or json")
        }
    }

    func run() async throws {
        try await reportingErrors {
            let channels = try KurtogramRun(file: file, source: input.sampleSourceOptions(), levels: levels).channels()
            let lines = format == "json" ? [KurtogramText.json(channels).text] : KurtogramText.table(channels)
            for line in lines { AccountOutput.line(line) }
        }
    }
}
