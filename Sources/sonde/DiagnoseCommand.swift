import ArgumentParser
import SondeCore
import SondeDSP
import SondeIO
import SondeKit

struct DiagnoseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diagnose",
        abstract: "A rolling-element bearing's condition, one answer per channel.",
        discussion: """
            For each channel: the band the fast kurtogram finds most impulsive (the best band \
            wide enough to show every defect frequency), the level of BPFO, BPFI, BSF and FTF \
            and their first three harmonics in that band's squared-envelope spectrum (the \
            largest bin within ±2% over the median of the bins within ±10%, in dB; "not \
            measurable" past the envelope's Nyquist frequency or with too few bins, never a \
            made-up level), a verdict against the threshold, and the ISO 20816-3 zone of the \
            velocity r.m.s. (10-1000 Hz). docs/features.md section 9 in sonde's repository \
            defines every step and names the sources of the bearing table (6205-2RS, 6203-2RS, \
            ZA-2115, MFPT). The whole channel is held in memory; it needs at least \
            2^(levels+7) samples. The acceleration is taken as m/s² unless --input-unit g.

            Examples:
              # The CWRU drive-end bearing at 1797 rpm, 12 kHz
              sonde diagnose 105.mat --variables X105_DE_time --rate 12000 --shaft-speed 1797rpm --bearing 6205

              # A bearing by its geometry, a medium machine on a flexible foundation, as JSON
              sonde diagnose pump.f32le --rate 25600 --channels 2 --sample-type f32le --shaft-speed 29.95hz \\
                  --bearing n=9,d=7.94mm,D=39.04mm,angle=0 --machine-group 2 --foundation flexible --format json
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @Argument(help: ArgumentHelp("The recording (acceleration).", valueName: "FILE"))
    var file: String

    @Option(
        name: .long,
        help: ArgumentHelp("Shaft speed, as 1797rpm or 29.95hz (required).", valueName: "SPEED"))
    var shaftSpeed: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The bearing (required): a name (6205-2RS, 6203-2RS, ZA-2115, MFPT), its multiples of shaft speed "
                + "(bpfo=3.5848,bpfi=5.4152,bsf=2.357,ftf=0.3983) or its geometry (n=9,d=7.94mm,D=39.04mm,angle=0).",
            valueName: "B"))
    var bearing: String?

    @Option(
        name: .long, help: ArgumentHelp("ISO 20816-3 machine group: 1 (300 kW-50 MW) or 2 (15-300 kW).", valueName: "G")
    )
    var machineGroup: Int = 2

    @Option(name: .long, help: ArgumentHelp("ISO 20816-3 foundation: rigid or flexible.", valueName: "F"))
    var foundation: String = "rigid"

    @Option(name: .long, help: "Unit of the samples, for the velocity: m/s2 (default) or g.")
    var inputUnit: AccelerationUnit = .metresPerSecondSquared

    @Option(name: .long, help: ArgumentHelp("dB over the background a defect must reach (10).", valueName: "DB"))
    var threshold: Double = BearingDiagnosis.defaultThreshold

    @Option(name: .long, help: ArgumentHelp("Levels of the kurtogram, 1 to 12 (6).", valueName: "L"))
    var levels: Int = 6

    @Option(name: .long, help: "text (default) or json.")
    var format: Format = .text

    @OptionGroup(title: "Tachometer") var tachometer: TachometerOptions

    @OptionGroup(title: "Inputs") var input: InputOptions

    func validate() throws {
        try tachometer.refuse(shaftSpeed: shaftSpeed)
        guard let shaftSpeed = shaftSpeed ?? (tachometer.channel == nil ? nil : "1hz") else {
            throw ValidationError(
                "--shaft-speed is required: the defect frequencies are multiples of it (as 1797rpm or 29.95hz), "
                    + "or --tacho CH to read it off a tachometer channel")
        }
        guard let bearing else {
            throw ValidationError(
                "--bearing is required: a name (6205-2RS), multiples (bpfo=..,bpfi=..,bsf=..,ftf=..) or a geometry "
                    + "(n=9,d=7.94mm,D=39.04mm,angle=0)")
        }
        do {
            _ = try ShaftSpeed(parsing: shaftSpeed)
            _ = try DefectMultiples(parsing: bearing)
        } catch {
            throw ValidationError("\(error)")
        }
        guard ISO20816Zone.MachineGroup(rawValue: machineGroup) != nil else {
            throw ValidationError("--machine-group \(machineGroup): expected 1 (large, 300 kW-50 MW) or 2 (15-300 kW)")
        }
        guard ISO20816Zone.Foundation(rawValue: foundation) != nil else {
            throw ValidationError("--foundation \(foundation): expected rigid or flexible")
        }
        guard threshold.isFinite, threshold > 0 else {
            throw ValidationError("--threshold \(threshold): expected a positive number of dB")
        }
        guard (1...12).contains(levels) else { throw ValidationError("--levels \(levels): expected 1 to 12") }
    }

    func run() async throws {
        FreedMemoryPolicy.keepForReuse()
        try await reportingErrors {
            // validate() has parsed both; these only unwrap.
            let multiples = try DefectMultiples(parsing: bearing ?? "")
            let group = ISO20816Zone.MachineGroup(rawValue: machineGroup) ?? .medium
            let support = ISO20816Zone.Foundation(rawValue: foundation) ?? .rigid
            let reports = try await BearingDiagnosisRun(
                file: file, source: input.sampleSourceOptions(), shaft: tachometer.shaft(given: shaftSpeed),
                bearing: multiples, levels: levels,
                threshold: threshold, metresPerSecondSquared: inputUnit.metresPerSecondSquared
            ).reports()
            let context = DiagnosisText.Context(
                bearing: multiples, group: group, foundation: support, inputUnit: inputUnit.rawValue)
            switch format {
            case .json:
                AccountOutput.line(JSONValue.array(reports.map { DiagnosisText.json($0, context) }).text)
            case .text:
                for (index, report) in reports.enumerated() {
                    if index > 0 { AccountOutput.line("") }
                    for line in DiagnosisText.lines(report, context) { AccountOutput.line(line) }
                }
            }
        }
    }
}
