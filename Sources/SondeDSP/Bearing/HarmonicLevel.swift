/// One harmonic of a defect frequency as the envelope spectrum shows it.
public struct HarmonicLevel: Sendable, Equatable {
    /// Why a level could not be read: never a made-up number in its place.
    public enum NotMeasurable: Sendable, Equatable {
        /// The background window reaches past the envelope spectrum's Nyquist frequency (Hz).
        case aboveNyquist(Double)
        /// Fewer background bins than the rule asks (the recording is too short for this
        /// frequency's resolution).
        case tooFewBins(Int)
        /// The background's median or the peak is 0: a silent band.
        case silent
    }

    /// 1 for the defect frequency itself, 2 for its second harmonic, ...
    public let order: Int
    /// order × defect frequency, Hz.
    public let frequency: Double
    /// The largest bin's frequency within the search band, Hz; nil when not measurable.
    public let peakFrequency: Double?
    /// 10 log10(largest bin / median background), dB; nil when not measurable.
    public let level: Double?
    /// Why `level` is nil.
    public let notMeasurable: NotMeasurable?
}
