import CFFTW

/// An inverse complex-to-real FFTW plan, kept for the whole process like `RealFFTPlan`.
struct InverseRealFFTPlan: @unchecked Sendable {
    // @unchecked: immutable once made; fftw_execute_dft_c2r on distinct arrays is thread-safe.
    let pointer: OpaquePointer
    let length: Int

    /// Transforms `input` (length/2+1 interleaved complex bins, overwritten) into `output`
    /// (length reals, N times the inverse DFT).
    func execute(input: UnsafeMutablePointer<Double>, output: UnsafeMutablePointer<Double>) {
        input.withMemoryRebound(to: fftw_complex.self, capacity: length / 2 + 1) {
            fftw_execute_dft_c2r(pointer, $0, output)
        }
    }
}
