/// One defect's levels in a channel's envelope spectrum: its frequency and each harmonic's level.
public struct DefectFinding: Sendable, Equatable {
    public let defect: BearingDefect
    /// The defect frequency, Hz: its multiple × shaft speed.
    public let frequency: Double
    /// Harmonics 1...rule.harmonics, in order.
    public let harmonics: [HarmonicLevel]

    /// The fundamental's level, dB; nil when it is not measurable.
    public var level: Double? { harmonics.first?.level }

    /// How many harmonics reach `threshold` dB.
    public func harmonicsFound(threshold: Double) -> Int {
        harmonics.count { ($0.level ?? -.infinity) >= threshold }
    }
}
