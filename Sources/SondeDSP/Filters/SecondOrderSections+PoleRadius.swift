/// How fast a cascade forgets its state: the bound on a piece's zero-input response.
extension SecondOrderSections {
    /// The largest pole magnitude over all sections (below 1 for a stable design).
    ///
    /// Why: a state `s` left alone decays as `‖Φⁿ s‖ ≤ κ·nᵐ·ρⁿ·‖s‖` (`ρ` this radius, `m` one
    /// less than the largest number of poles sharing it, `κ` a constant of the design), so
    /// the zero-input part of a piece falls below `τ` after about `ln(κ‖s‖/τ) / −ln ρ`
    /// samples: what decides whether adding it over a short prefix of a piece is enough.
    public var slowestPoleRadius: Double {
        var radius = 0.0
        for section in 0..<sectionCount {
            let a1 = coefficients[6 * section + 4], a2 = coefficients[6 * section + 5]
            // Poles are the roots of z² + a1·z + a2.
            let discriminant = a1 * a1 - 4 * a2
            if discriminant < 0 {
                radius = max(radius, a2.squareRoot())
            } else {
                let root = discriminant.squareRoot()
                radius = max(radius, abs(-a1 + root) / 2, abs(-a1 - root) / 2)
            }
        }
        return radius
    }
}
