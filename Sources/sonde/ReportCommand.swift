import ArgumentParser
import Foundation
import SondeCore
import SondeDSP
import SondeKit
import SondePipeline

struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "One self-contained HTML page of figures and summaries per input and channel.",
        discussion: """
            Per input and channel: a spectrogram, the averaged spectrum (Welch, as `sonde \
            spectrum`) on a log power axis with the dominant peak, its harmonics and --bands \
            marked, feature trends over time (min/max envelopes where there are more windows than \
            pixels), and a table of every feature's mean, min, max, p5 and p95; then the settings \
            and the sonde version that made it. One pass over each input in bounded memory; the \
            page has no scripts and fetches nothing.

            Trends: rms, peak, crest_factor, kurtosis, dominant_frequency and spectral_centroid \
            plus every band_power, or the features --features lists. Options as `sonde process`.

            With --shaft-speed and --bearing (as `sonde diagnose`), each channel also gets the \
            squared-envelope spectrum `diagnose` reads, with BPFO, BPFI, BSF and FTF and their \
            second and third harmonics drawn as lines, on an axis cut to the lines (that input \
            is then read a second time, whole, into memory).

            Examples:
              # A pump's vibration, high-passed, with two bands marked
              sonde report sample-data/pump-vibration.csv --filter highpass:10 \\
                  --bands 0-500,500-2000 -o pump.html

              # Raw 2-channel samples; every figure also as its own SVG/PNG file
              sonde report bearing.f32le --rate 25600 --channels 2 --sample-type f32le \\
                  --features rms,kurtosis,thd -o bearing.html --figures bearing-figures

              # The CWRU drive-end bearing's envelope spectrum with its defect lines
              sonde report 105.mat --variables X105_DE_time --rate 12000 --shaft-speed 1797rpm \
                  --bearing 6205 -o 105.html
            """
    )

    @OptionGroup(title: "Inputs")
    var inputList: InputListOptions

    @OptionGroup(title: "Pipeline")
    var pipeline: PipelineOptions

    @OptionGroup(title: "Input")
    var input: InputOptions

    @OptionGroup(title: "Engine")
    var engine: EngineOptions

    @Option(
        name: [.short, .customLong("output")],
        help: ArgumentHelp("The HTML file to write (atomically).", valueName: "OUT"))
    var output: String

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Also write each figure to this existing folder as SVG (the spectrogram also as PNG).", valueName: "DIR"))
    var figures: String?

    @Flag(name: .shortAndLong, help: "No notes or progress on standard error.")
    var quiet = false

    @OptionGroup(title: "Tachometer") var tachometer: TachometerOptions

    func validate() throws {
        try tachometer.refuse(shaftSpeed: shaftSpeed)
        if (shaftSpeed == nil && tachometer.channel == nil) != (bearing == nil) {
            throw ValidationError("--shaft-speed and --bearing go together: the defect lines need both")
        }
        do {
            _ = try shaftSpeed.map { try ShaftSpeed(parsing: $0) }
            _ = try bearing.map { try DefectMultiples(parsing: $0) }
        } catch {
            throw ValidationError("\(error)")
        }
        if output == "-" { throw ValidationError("-o: a report is a file; give its name (report.html)") }
        if let figures {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: figures, isDirectory: &isFolder), isFolder.boolValue else {
                throw ValidationError("--figures \(figures): no such folder; create it first")
            }
        }
    }

    func run() async throws {
        try await reportingErrors {
            let settings = try pipeline.settings()
            var run = ReportRun(
                inputs: try inputList.sampleInputs(sampleType: input.sampleType), settings: settings,
                sourceOptions: input.sampleSourceOptions(), outputPath: output, graph: engine.graphOptions())
            run.figures = figures
            run.trends = pipeline.features.map { $0.split(separator: ",").map { String($0) } }
            run.settingsRows = settingsRows(settings, inputCount: run.inputs.inputs.count)
            run.defectLines = try bearing.map {
                try ReportDefectLines(shaft: tachometer.shaft(given: shaftSpeed), bearing: DefectMultiples(parsing: $0))
            }
            (run.cpuReport, run.quiet) = (engine.cpuReport, quiet)
            guard case .interrupted(let status, let text) = try await run.run() else { return }
            Diagnostics.say("sonde report: \(text); \(output) left as it was")
            throw ExitCode(status)
        }
    }

    /// What the page says made it: every option that changes a number.
    private func settingsRows(_ settings: PipelineSettings, inputCount: Int) -> [(label: String, value: String)] {
        var rows: [(label: String, value: String)] = [
            ("Command", (["sonde"] + CommandLine.arguments.dropFirst()).joined(separator: " ")),
            ("Inputs", "\(inputCount)"),
            ("Window N", "\(settings.frameLength) samples (periodic Hann)"),
            ("Hop H", "\(settings.hop) samples"),
            ("Filters", pipeline.filter.isEmpty ? "none" : pipeline.filter.joined(separator: ", then ")),
            ("Features", pipeline.features ?? "all"),
            ("Bands", pipeline.bands ?? "none"),
        ]
        if let rate = input.rate { rows.append(("Sample rate (--rate)", "\(rate.compactDescription) Hz")) }
        if let channels = input.channels { rows.append(("Channels (--channels)", "\(channels)")) }
        if let type = input.sampleType { rows.append(("Sample type", type.rawValue)) }
        for (flag, value) in [("--mel", pipeline.mel), ("--mfcc", pipeline.mfcc)] {
            if let value { rows.append((flag, "\(value)")) }
        }
        if let band = pipeline.velocityBand { rows.append(("--velocity-band", band)) }
        if let unit = pipeline.inputUnit { rows.append(("--input-unit", unit.rawValue)) }
        if let unit = pipeline.velocityUnit { rows.append(("--velocity-unit", unit.rawValue)) }
        if let reference = pipeline.reference { rows.append(("--reference", reference.compactDescription)) }
        rows.append(("Definitions", "docs/features.md of sonde's repository (every number's definition)"))
        return rows
    }

    /// `--shaft-speed`, declared with the pipeline options (the bearing columns read it too).
    var shaftSpeed: String? { pipeline.bearingOptions.shaftSpeed }
    /// `--bearing`, likewise.
    var bearing: String? { pipeline.bearingOptions.bearing }
}
