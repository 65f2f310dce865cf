import Foundation
import SondeCore

extension FamilyOptions {
    /// The defects whose columns (`bpfo_db`, ...) `--features` asks for, in column order.
    public var bearingColumns: [BearingDefect] {
        BearingDefect.allCases.filter { names.contains(BearingFamily.columnName($0)) }
    }

    /// Takes `--shaft-speed` and `--bearing` for the bearing columns. They are kept only when
    /// a bearing column is asked for: otherwise they serve `sonde report`'s envelope figure
    /// and change no record (nor the settings written with the records).
    /// - Throws: `SondeError(.invalidArgument)` naming the option and the text it could not read.
    public mutating func setBearing(shaftSpeed: String?, bearing: String?) throws {
        guard !bearingColumns.isEmpty else { return }
        do {
            self.shaftSpeed = try shaftSpeed.map { try ShaftSpeed(parsing: $0) }
        } catch {
            throw SondeError(.invalidArgument, "--shaft-speed: \(error)")
        }
        do {
            self.bearing = try bearing.map { try DefectMultiples(parsing: $0) }
        } catch {
            throw SondeError(.invalidArgument, "--bearing: \(error)")
        }
    }

    /// A bearing column needs both the shaft speed and the bearing.
    func validateBearing() throws {
        guard let first = bearingColumns.first, shaftSpeed == nil || bearing == nil else { return }
        let missing = [
            shaftSpeed == nil ? "--shaft-speed (as 1797rpm or 29.95hz)" : nil,
            bearing == nil ? "--bearing (a name as 6205, multiples bpfo=..,bpfi=..,bsf=..,ftf=.. or a geometry)" : nil,
        ].compactMap { $0 }
        throw SondeError(
            .invalidArgument,
            "--features \(BearingFamily.columnName(first)): needs \(missing.joined(separator: " and ")); "
                + "the defect frequencies are multiples of the shaft speed")
    }

    /// Every bearing column asked for must be measurable in a frame of `frameLength` samples at
    /// `sampleRate` Hz (docs/features.md section 7): its background window below the Nyquist
    /// frequency and holding at least 8 bins. The rule is `harmonicLevel`'s own, run on a flat
    /// density, so the check and the columns cannot disagree.
    /// - Throws: `SondeError(.invalidArgument)` naming the column, the frequency and, when a
    ///   longer window would do, the shortest one that measures it.
    func validateBearing(frameLength: Int, sampleRate: Double) throws {
        guard let shaft = shaftSpeed, let bearing else { return }
        let rule = DefectLevelRule()
        for defect in bearingColumns {
            let frequency = bearing.frequency(of: defect, at: shaft)
            let name = BearingFamily.columnName(defect)
            let what =
                "\(defect.abbreviation) at \(shaft.rpm.significantDigits(6)) rpm is \(frequency.significantDigits(6)) Hz"
            switch Self.notMeasurable(frequency, frameLength: frameLength, sampleRate: sampleRate, rule: rule) {
            case nil, .silent:
                continue
            case .aboveNyquist(let nyquist):
                throw SondeError(
                    .invalidArgument,
                    "--features \(name): not measurable: \(what), and its background reaches "
                        + "\((frequency * (1 + rule.window)).significantDigits(6)) Hz, above the Nyquist frequency "
                        + "\(nyquist.significantDigits(6)) Hz of \(sampleRate.significantDigits(6)) Hz samples")
            case .tooFewBins(let bins):
                var longer: Int? = frameLength * 2
                while let candidate = longer, candidate <= FeatureConfiguration.frameLengthRange.upperBound,
                    Self.notMeasurable(frequency, frameLength: candidate, sampleRate: sampleRate, rule: rule) != nil
                {
                    longer = candidate * 2
                }
                let advice =
                    longer.flatMap { $0 <= FeatureConfiguration.frameLengthRange.upperBound ? $0 : nil }.map {
                        "; --window \($0) or longer measures it"
                    } ?? ""
                throw SondeError(
                    .invalidArgument,
                    "--features \(name): not measurable in a frame of \(frameLength) samples at "
                        + "\(sampleRate.significantDigits(6)) Hz: \(what), and bins of "
                        + "\((sampleRate / Double(frameLength)).significantDigits(4)) Hz leave \(bins) of the "
                        + "\(rule.minimumBackgroundBins) background bins a level needs within ±10%\(advice)")
            }
        }
    }

    /// Why a line at `frequency` cannot be read in a frame's envelope spectrum whatever the
    /// samples: `harmonicLevel` on a density of ones. nil when it can.
    private static func notMeasurable(
        _ frequency: Double, frameLength: Int, sampleRate: Double, rule: DefectLevelRule
    ) -> HarmonicLevel.NotMeasurable? {
        let ones = [Double](repeating: 1, count: frameLength / 2 + 1)
        var background: [Double] = []
        return ones.withUnsafeBufferPointer {
            SquaredEnvelopeSpectrum.harmonicLevel(
                order: 1, frequency: frequency, rule: rule, density: $0, sampleRate: sampleRate,
                resolution: sampleRate / Double(frameLength), background: &background
            ).notMeasurable
        }
    }
}
