/// Arithmetic for the simulated device that gives the same bits on every machine: only
/// IEEE 754 additions and multiplications, no libm (whose last bit may differ between C
/// libraries), so a seed names one recording everywhere.
enum DeterministicMath {
    /// sin(2π·cycles), from the fractional part of `cycles`. Taylor series to x¹⁹ on
    /// [-π/2, π/2]: error below 1e-16, far under a 32-bit sample's resolution.
    static func sinOfCycles(_ cycles: Double) -> Double {
        var r = cycles - (cycles + 0.5).rounded(.down)  // [-0.5, 0.5)
        // Fold into [-0.25, 0.25] using sin(π - a) = sin(a).
        if r > 0.25 { r = 0.5 - r } else if r < -0.25 { r = -0.5 - r }
        let x = r * (2 * Double.pi)
        let x2 = x * x
        // Horner in x² from the x¹⁹ term down: -1/19!, +1/17!, -1/15!, ..., -1/3!, 1
        // (written out: an array literal here cost an allocation per sample).
        var term = -1.0 / 121_645_100_408_832_000
        term = term * x2 + 1.0 / 355_687_428_096_000
        term = term * x2 - 1.0 / 1_307_674_368_000
        term = term * x2 + 1.0 / 6_227_020_800
        term = term * x2 - 1.0 / 39_916_800
        term = term * x2 + 1.0 / 362_880
        term = term * x2 - 1.0 / 5040
        term = term * x2 + 1.0 / 120
        term = term * x2 - 1.0 / 6
        term = term * x2 + 1.0
        return term * x
    }
}
