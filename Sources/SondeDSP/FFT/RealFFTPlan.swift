import CFFTW

/// A forward real-to-complex FFTW plan. Plans live for the whole process (they are cached
/// per size and few), so this type never destroys its plan.
struct RealFFTPlan: @unchecked Sendable {
    // @unchecked: an FFTW plan is immutable once made and fftw_execute_dft_r2c on
    // distinct arrays is documented as thread-safe.
    let pointer: OpaquePointer
    let length: Int
    /// Whether the plan came from `FFTWisdom` rather than FFTW_ESTIMATE.
    let isFromWisdom: Bool

    /// Transforms `input` (length reals) into `output` (length/2+1 interleaved complex bins).
    func execute(input: UnsafeMutablePointer<Double>, output: UnsafeMutablePointer<Double>) {
        output.withMemoryRebound(to: fftw_complex.self, capacity: length / 2 + 1) {
            fftw_execute_dft_r2c(pointer, input, $0)
        }
    }
}
