/// How a defect's level is read off a squared-envelope spectrum (docs/features.md section 9):
/// the largest bin within ±`slip` of each harmonic, over the median of the bins around it.
public struct DefectLevelRule: Sendable, Equatable {
    /// Relative half-width of the search band, 0.02: rolling elements slip 1-2%, so the line
    /// sits a little off the kinematic frequency.
    public var slip: Double = 0.02
    /// Relative half-width of the background window, 0.10; the search band is left out of it.
    public var window: Double = 0.10
    /// Harmonics read per defect: the fundamental and the next two.
    public var harmonics: Int = 3
    /// Fewest background bins for a level (below that the median is not a background).
    public var minimumBackgroundBins: Int = 8

    /// The defaults above.
    public init() {}

    /// 2^17 (a 2 MiB transform buffer): finer bins than 0.37 Hz at 48 kHz add nothing to
    /// a line smeared ±2% by slip, only cost.
    public static let longestSegment = 1 << 17

    /// The envelope spectrum's segment length for a band signal of `count` samples at `rate`
    /// Hz: the smallest power of two whose resolution is at most shaft speed / 250 (a cage line
    /// at 0.4 × shaft speed then has 10 bins each side in its window), but no longer than
    /// `SquaredEnvelopeSpectrum.defaultSegmentLength(count:)` (three half-overlapping segments)
    /// nor than `longestSegment`.
    public static func segmentLength(count: Int, rate: Double, shaft: ShaftSpeed) -> Int {
        let longest = min(longestSegment, SquaredEnvelopeSpectrum.defaultSegmentLength(count: count))
        var length = 8
        while length < longest, rate / Double(length) > shaft.hertz / 250 {
            length *= 2
        }
        return length
    }
}
