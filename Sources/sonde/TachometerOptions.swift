import ArgumentParser
import SondeDSP
import SondeKit

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

    /// `--shaft-speed` and `--tacho` both name the speed: one of them, or the commands would
    /// have to pick.
    func refuse(shaftSpeed: String?) throws {
        if shaftSpeed != nil, let channel {
            throw ValidationError("--shaft-speed or --tacho \(channel): give one, the speed comes from either")
        }
    }

    /// Where the shaft speed comes from: this channel, else `given` (`--shaft-speed`, which
    /// `validate()` of the command has read).
    func shaft(given: String?) throws -> BearingDiagnosisRun.Shaft {
        if let channel { return .tachometer(channel: channel, pulsesPerRevolution: pulsesPerRevolution) }
        return .given(try ShaftSpeed(parsing: given ?? ""))
    }
}
