import ArgumentParser

/// `--tacho CH` and `--pulses-per-rev N`: the shaft speed from a tachometer channel instead of
/// `--shaft-speed` (docs/features.md section 9; `TachometerSpeed` reads it).
struct TachometerOptions: ParsableArguments {
    @Option(
        name: .customLong("tacho"),
        help: ArgumentHelp(
            "Shaft speed from this tachometer channel (a name, or an index from 0) instead of --shaft-speed; "
                + "it is not diagnosed.", valueName: "CH"))
    var channel: String?

    @Option(
        name: .customLong("pulses-per-rev"),
        help: ArgumentHelp("Tachometer pulses per shaft revolution (1).", valueName: "N"))
    var pulsesPerRev: Int?

    /// 1 unless given.
    var pulsesPerRevolution: Int { pulsesPerRev ?? 1 }

    func validate() throws {
        if let pulsesPerRev {
            guard channel != nil else { throw ValidationError("--pulses-per-rev goes with --tacho CH") }
            guard pulsesPerRev >= 1 else {
                throw ValidationError("--pulses-per-rev \(pulsesPerRev): expected a whole number of pulses, 1 or more")
            }
        }
    }
}
