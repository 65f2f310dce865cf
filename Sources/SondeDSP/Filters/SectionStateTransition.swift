/// The matrix `Φⁿ` that carries a cascade's state `n` samples forward when its input is zero.
///
/// Why: a linear filter cut into pieces is exact by superposition. A piece's output is its
/// zero-state response plus the zero-input response of the state it starts in, and the
/// states at piece boundaries follow from `s[b+1] = Φᴸ·s[b] + z[b]` (`z[b]` the state the
/// piece leaves a zero-started cascade in). This type is `Φᴸ`, computed once per design and
/// piece length.
///
/// The state is `SOSFilter`'s: `z0 z1` per section, sections in order (`2·S` values). With
/// zero input, section `k` sees `u_k`, the previous section's output, and (transposed direct
/// form II, `y = b0·u + z0`, `z0' = b1·u − a1·y + z1`, `z1' = b2·u − a2·y`):
///
///     z0_k' = (b1 − a1·b0)·u_k − a1·z0_k + z1_k
///     z1_k' = (b2 − a2·b0)·u_k − a2·z0_k
///     u_1 = 0,   u_{k+1} = y_k = b0_k·u_k + z0_k
///
/// so `u_k` is a combination of the `z0_j` of earlier sections only, and `Φ` is block lower
/// triangular: each section's own 2×2 block `[[−a1, 1], [−a2, 0]]` on the diagonal (its
/// eigenvalues are the section's poles), and below it the earlier sections' `z0` reaching
/// this one through the `b0` of the sections between.
public struct SectionStateTransition: Sendable, Equatable {
    /// The state's length, `2 × sections`.
    public let dimension: Int
    /// How many samples the matrix advances the state.
    public let steps: Int
    /// `dimension × dimension`, row-major.
    public let matrix: [Double]

    /// `Φ` itself: one sample of zero input.
    /// - Parameter sections: the cascade (every stage of a chain, concatenated).
    public init(oneStepOf sections: SecondOrderSections) {
        let dimension = 2 * sections.sectionCount
        var matrix = [Double](repeating: 0, count: dimension * dimension)
        // The section input `u_k` as coefficients over the state vector.
        var input = [Double](repeating: 0, count: dimension)
        for section in 0..<sections.sectionCount {
            let row = 6 * section
            let b0 = sections.coefficients[row], b1 = sections.coefficients[row + 1]
            let b2 = sections.coefficients[row + 2]
            let a1 = sections.coefficients[row + 4], a2 = sections.coefficients[row + 5]
            let z0 = 2 * section, z1 = z0 + 1
            for column in 0..<dimension where input[column] != 0 {
                matrix[z0 * dimension + column] = (b1 - a1 * b0) * input[column]
                matrix[z1 * dimension + column] = (b2 - a2 * b0) * input[column]
            }
            matrix[z0 * dimension + z0] = -a1
            matrix[z0 * dimension + z1] = 1
            matrix[z1 * dimension + z0] = -a2
            for column in 0..<dimension {
                input[column] *= b0
            }
            input[z0] += 1
        }
        self.init(dimension: dimension, steps: 1, matrix: matrix)
    }

    /// `Φⁿ`, column by column: each unit state run through `n` zero samples by `SOSFilter`.
    ///
    /// Why not repeated squaring (`log₂ n` matrix products): the poles of a low cutoff sit in
    /// a cluster near 1, `Φ` is far from normal, and each squaring multiplies its rounding.
    /// Measured on `highpass:10:4` at 51.2 kHz, `n` = 4,096: squaring put 9e-6 into entries
    /// of up to 129 (7e-8 relative), and the start states of a 101,325 Pa signal then missed
    /// the sequential filter's by 7e-4 Pa, 17 times the contract's floor on `mean`; run through
    /// the filter's own arithmetic the entries are within 2e-9 of an 80-bit product and the
    /// states within 8e-7 Pa. The cost, `2S · n · S` section steps, is paid once per design
    /// and piece length (about 30 ms for 12 sections and `n` = 65,536).
    /// - Parameters:
    ///   - sections: the cascade.
    ///   - steps: `n`, at least 1.
    public init(_ sections: SecondOrderSections, steps: Int) {
        precondition(steps >= 1, "SectionStateTransition: \(steps) steps; expected at least 1")
        let dimension = 2 * sections.sectionCount
        var matrix = [Double](repeating: 0, count: dimension * dimension)
        var zeros = [Double](repeating: 0, count: steps)
        for column in 0..<dimension {
            var unit = [Double](repeating: 0, count: dimension)
            unit[column] = 1
            var filter = SOSFilter(sections, state: unit)
            for index in zeros.indices {
                zeros[index] = 0
            }
            filter.process(&zeros)
            let state = filter.currentState
            for row in 0..<dimension {
                matrix[row * dimension + column] = state[row]
            }
        }
        self.init(dimension: dimension, steps: steps, matrix: matrix)
    }

    init(dimension: Int, steps: Int, matrix: [Double]) {
        self.dimension = dimension
        self.steps = steps
        self.matrix = matrix
    }

    /// `Φⁿ·state + offset`: the state `steps` samples on, plus what the input over those
    /// samples contributed (`offset`, a zero-state final state; zeros for none).
    public func advance(_ state: [Double], adding offset: [Double]) -> [Double] {
        precondition(
            state.count == dimension && offset.count == dimension,
            "SectionStateTransition.advance: states of \(state.count) and \(offset.count) values; expected \(dimension)"
        )
        var next = offset
        for i in 0..<dimension {
            var sum = 0.0
            for j in 0..<dimension {
                sum += matrix[i * dimension + j] * state[j]
            }
            next[i] += sum
        }
        return next
    }
}
