import CFFTW
import Synchronization

/// The process-wide owner of FFTW plans: one real-to-complex plan per window size, made
/// once and shared by every worker.
///
/// FFTW's planner is not thread-safe, so planning happens under one `Mutex`; executing a
/// plan with the new-array interface (`fftw_execute_dft_r2c`) is thread-safe, so workers
/// execute shared plans on their own buffers without a lock.
///
/// Plans use `FFTW_ESTIMATE`: measured planning may pick a different algorithm from one
/// run to the next, and sonde's output must be byte-identical across runs and `--jobs`.
final class FFTPlanCache: Sendable {
    static let shared = FFTPlanCache()

    private let plans = Mutex<[Int: RealFFTPlan]>([:])

    /// The forward real FFT plan of size `length`, made on first use.
    func forwardPlan(length: Int) -> RealFFTPlan {
        plans.withLock { plans in
            if let plan = plans[length] { return plan }
            // Plan on scratch buffers with fftw_malloc's alignment: the plan may then be
            // executed on any other fftw_malloc'd arrays of the same size.
            let input = FFTWBuffer(count: length)
            let output = FFTWBuffer(count: 2 * (length / 2 + 1))
            let pointer = output.base.withMemoryRebound(to: fftw_complex.self, capacity: length / 2 + 1) {
                fftw_plan_dft_r2c_1d(Int32(length), input.base, $0, UInt32(FFTW_ESTIMATE))
            }
            guard let pointer else { fatalError("FFTW could not plan a real FFT of size \(length)") }
            let plan = RealFFTPlan(pointer: pointer, length: length)
            plans[length] = plan
            return plan
        }
    }
}

/// A forward real-to-complex FFTW plan. Plans live for the whole process (they are cached
/// per size and few), so this type never destroys its plan.
struct RealFFTPlan: @unchecked Sendable {
    // @unchecked: an FFTW plan is immutable once made and fftw_execute_dft_r2c on
    // distinct arrays is documented as thread-safe.
    let pointer: OpaquePointer
    let length: Int

    /// Transforms `input` (length reals) into `output` (length/2+1 interleaved complex bins).
    func execute(input: UnsafeMutablePointer<Double>, output: UnsafeMutablePointer<Double>) {
        output.withMemoryRebound(to: fftw_complex.self, capacity: length / 2 + 1) {
            fftw_execute_dft_r2c(pointer, input, $0)
        }
    }
}
