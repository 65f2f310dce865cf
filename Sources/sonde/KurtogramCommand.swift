import ArgumentParser
import SondeCore
import SondeDSP
import SondeIO
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
        FreedMemoryPolicy.keepForReuse()
        try await reportingErrors {
            let source = try SampleSources.open(path: file, options: input.sampleSourceOptions())
            let rate = source.format.sampleRate
            let channels = try ChannelSamples.read(source, name: file)
            var results: [(name: String, kurtogram: Kurtogram, line: (frequency: Double, density: Double)?)] = []
            for (index, samples) in channels.enumerated() {
                let name = source.format.channelNames[index]
                do {
                    let kurtogram = try FastKurtogram.compute(samples, sampleRate: rate, levels: levels)
                    let best = kurtogram.best
                    let band = try FastKurtogram.bandSignal(samples, sampleRate: rate, row: best.row, band: best.band)
                    let spectrum = try SquaredEnvelopeSpectrum(band)
                    // The strongest line above the lowest bins (the envelope's slow drift).
                    let line = spectrum.peak(in: (2 * spectrum.resolution)...(band.sampleRate / 2))
                    results.append((name, kurtogram, line))
                } catch let error as KurtogramError {
                    throw SondeError(.invalidInput, "\(file), channel \(name): \(error.description)")
                }
            }
            if format == "json" {
                AccountOutput.line(JSONValue.array(results.map { Self.json($0.name, $0.kurtogram, $0.line) }).text)
                return
            }
            AccountOutput.line("channel,level,centre_hz,bandwidth_hz,kurtosis,envelope_line_hz")
            for (name, kurtogram, line) in results {
                let best = kurtogram.best
                let fields = [
                    name, best.level.compactDescription, best.centre.compactDescription,
                    best.bandwidth.compactDescription, best.kurtosis.compactDescription,
                    line.map { $0.frequency.compactDescription } ?? "",
                ]
                AccountOutput.line(fields.joined(separator: ","))
            }
        }
    }

    static func json(_ name: String, _ kurtogram: Kurtogram, _ line: (frequency: Double, density: Double)?) -> JSONValue
    {
        let best = kurtogram.best
        return .object([
            "channel": .string(name), "rate": .number(kurtogram.sampleRate), "levels": .integer(kurtogram.levels),
            "best": .object([
                "row": .integer(best.row), "level": .number(best.level), "band": .integer(best.band),
                "centre": .number(best.centre), "bandwidth": .number(best.bandwidth),
                "kurtosis": .number(best.kurtosis),
            ]),
            "envelope_line": .optional(line?.frequency),
            "grid": .array(
                kurtogram.rows.map { row in
                    .object([
                        "level": .number(row.level), "bandwidth": .number(row.bandwidth),
                        "kurtosis": .array(row.values.map(JSONValue.number)),
                    ])
                }),
        ])
    }
}
