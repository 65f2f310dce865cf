/// Why a kurtogram, a band signal or a squared-envelope spectrum could not be computed.
public enum KurtogramError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `levels` outside 1...30.
    case invalidLevels(Int)
    /// The sample rate is not finite and positive.
    case invalidSampleRate(Double)
    /// Fewer samples than `FastKurtogram.minimumLength(levels:)`.
    case tooShort(count: Int, levels: Int, minimum: Int)
    /// A NaN or infinite sample.
    case nonFiniteSample(index: Int)
    /// A row or band that the grid does not have.
    case invalidCell(row: Int, band: Int)
    /// A Welch segment length that is not a power of two in 8...count.
    case invalidSegmentLength(Int, count: Int)
    /// An envelope band `low`-`high` Hz outside 0 <= low < high <= `nyquist`.
    case invalidBand(low: Double, high: Double, nyquist: Double)
    /// A band signal of `count` samples, fewer than the three half-overlapping segments of `segmentLength` the
    /// envelope spectrum's resolution asks for.
    case tooShortForEnvelope(count: Int, segmentLength: Int)

    public var description: String {
        switch self {
        case .invalidLevels(let levels):
            return "kurtogram: \(levels) levels is out of range: give 1 to 30"
        case .invalidSampleRate(let rate):
            return "kurtogram: sample rate \(rate) Hz is not a positive number"
        case .tooShort(let count, let levels, let minimum):
            return "kurtogram: \(count) samples is too short for \(levels) levels: it needs at least \(minimum) "
                + "(2^(levels+7), 128 samples per band at the deepest level); record longer or use fewer levels"
        case .nonFiniteSample(let index):
            return "kurtogram: sample \(index) is not a finite number"
        case .invalidCell(let row, let band):
            return "kurtogram: there is no band \(band) in row \(row)"
        case .invalidSegmentLength(let length, let count):
            return "squared-envelope spectrum: segment length \(length) must be a power of two "
                + "from 8 to the band signal's \(count) samples"
        case .invalidBand(let low, let high, let nyquist):
            return
                "envelope band \(low.significantDigits(6))-\(high.significantDigits(6)) Hz: expected 0 <= LO < HI <= "
                + "\(nyquist.significantDigits(6)) Hz (half the sample rate)"
        case .tooShortForEnvelope(let count, let length):
            return "squared-envelope spectrum: the band signal has \(count) samples, fewer than the \(2 * length) "
                + "(three half-overlapping segments of \(length)) its resolution needs; record longer or use a shorter --window"
        }
    }
}
