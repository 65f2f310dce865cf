/// Which band `sonde spectrum --envelope` demodulates: the kurtogram's best, or one given.
public enum EnvelopeBand: Sendable, Equatable {
    /// The best cell (`Kurtogram.best`) of a fast kurtogram of `levels` levels, per channel.
    case auto(levels: Int)
    /// `low`-`high` Hz, the same for every channel (`KurtogramBandSignal.brickWall`).
    case range(low: Double, high: Double)

    /// Parses `auto` or `LO-HI` (Hz, as `--bands` spells a band: 2000-4000, 12.5-40).
    /// Nil when `text` is neither; the band's range and the levels are checked when computing.
    public init?(parsing text: String, levels: Int) {
        if text.lowercased() == "auto" {
            self = .auto(levels: levels)
            return
        }
        let parts = text.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let low = Double(parts[0]), let high = Double(parts[1]), low.isFinite,
            high.isFinite
        else { return nil }
        self = .range(low: low, high: high)
    }
}
