import SondeCore

/// A digital filter as a cascade of biquads, laid out as scipy's `sos` arrays are.
///
/// Six coefficients per section, `b0 b1 b2 a0 a1 a2`, each section
/// `H(z) = (b0 + b1 z⁻¹ + b2 z⁻²) / (a0 + a1 z⁻¹ + a2 z⁻²)`. Kept flat rather than as an array
/// of tuples so it can be compared with, and copied from, scipy output directly.
public struct SecondOrderSections: Sendable, Hashable {
    /// `b0 b1 b2 a0 a1 a2` for each section in turn; `a0` is always 1.
    public let coefficients: [Double]

    /// How many biquads the cascade has (at least one).
    public var sectionCount: Int { coefficients.count / 6 }

    /// Wraps coefficients designed elsewhere (scipy's `sos.ravel()`, for instance).
    /// - Parameter coefficients: 6 finite values per section, at least one section, `a0 == 1`
    ///   in every section (normalise first: `sosfilt` requires it too).
    /// - Throws: `SondeError` `.invalidArgument` naming the section that is wrong.
    public init(coefficients: [Double]) throws {
        guard !coefficients.isEmpty, coefficients.count % 6 == 0 else {
            throw SondeError(
                .invalidArgument,
                "second-order sections: \(coefficients.count) coefficients given; expected 6 per section (b0 b1 b2 a0 a1 a2), at least one section"
            )
        }
        for section in 0..<(coefficients.count / 6) {
            let row = coefficients[(6 * section)..<(6 * section + 6)]
            guard row.allSatisfy(\.isFinite) else {
                throw SondeError(
                    .invalidArgument, "second-order sections: section \(section) has a coefficient that is not finite")
            }
            guard row[6 * section + 3] == 1 else {
                throw SondeError(
                    .invalidArgument,
                    "second-order sections: section \(section) has a0 = \(row[6 * section + 3]); expected 1 (divide the section by a0)"
                )
            }
        }
        self.coefficients = coefficients
    }

    /// For designs this module computed itself, which hold the invariants by construction.
    init(uncheckedCoefficients coefficients: [Double]) {
        self.coefficients = coefficients
    }
}
