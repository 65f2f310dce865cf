import CFFTW
import Synchronization

/// The process-wide owner of FFTW plans: one real-to-complex plan per window size, made
/// once and shared by every worker.
///
/// FFTW's planner is not thread-safe, so planning happens under one `Mutex`; executing a
/// plan with the new-array interface (`fftw_execute_dft_r2c`) is thread-safe, so workers
/// execute shared plans on their own buffers without a lock.
///
/// Plans never measure at run time: FFTW_MEASURE may pick a different algorithm from one
/// run to the next, and sonde's output must be byte-identical across runs and `--jobs`.
/// Plans come from `FFTWisdom` (measured once, offline, by make_fftw_wisdom.c: 10% faster
/// than FFTW_ESTIMATE's at N = 1024, up to 40% at other sizes) where that wisdom fits this
/// FFTW build and CPU, and from FFTW_ESTIMATE otherwise. Either way a given machine gets
/// the same plan in every run.
final class FFTPlanCache: Sendable {
    static let shared = FFTPlanCache()

    private struct State {
        var plans: [Int: RealFFTPlan] = [:]
        var inversePlans: [Int: InverseRealFFTPlan] = [:]
        /// Imported (or found not to fit this FFTW) on the first plan.
        var wisdomRead = false
    }

    private let state = Mutex(State())

    /// The forward real FFT plan of size `length`, made on first use.
    func forwardPlan(length: Int) -> RealFFTPlan {
        state.withLock { state in
            if let plan = state.plans[length] { return plan }
            if !state.wisdomRead {
                // A failed import (another FFTW version) leaves the planner as it was.
                _ = fftw_import_wisdom_from_string(FFTWisdom.text)
                state.wisdomRead = true
            }
            // Plan on scratch buffers with fftw_malloc's alignment: the plan may then be
            // executed on any other fftw_malloc'd arrays of the same size.
            let input = FFTWBuffer(count: length)
            let output = FFTWBuffer(count: 2 * (length / 2 + 1))
            let bins = length / 2 + 1
            // FFTW_WISDOM_ONLY: a plan from wisdom or none, never a measurement.
            let fromWisdom = output.base.withMemoryRebound(to: fftw_complex.self, capacity: bins) {
                fftw_plan_dft_r2c_1d(Int32(length), input.base, $0, UInt32(FFTW_MEASURE) | UInt32(FFTW_WISDOM_ONLY))
            }
            let pointer =
                fromWisdom
                ?? output.base.withMemoryRebound(to: fftw_complex.self, capacity: bins) {
                    fftw_plan_dft_r2c_1d(Int32(length), input.base, $0, UInt32(FFTW_ESTIMATE))
                }
            guard let pointer else { fatalError("FFTW could not plan a real FFT of size \(length)") }
            let plan = RealFFTPlan(pointer: pointer, length: length, isFromWisdom: fromWisdom != nil)
            state.plans[length] = plan
            return plan
        }
    }
}

extension FFTPlanCache {
    /// The inverse (complex-to-real, unnormalised) FFT plan of size `length`, made on first
    /// use with FFTW_ESTIMATE: only the envelope family needs it, and the committed wisdom
    /// holds forward plans only.
    func inversePlan(length: Int) -> InverseRealFFTPlan {
        state.withLock { state in
            if let plan = state.inversePlans[length] { return plan }
            let input = FFTWBuffer(count: 2 * (length / 2 + 1))
            let output = FFTWBuffer(count: length)
            let pointer = input.base.withMemoryRebound(to: fftw_complex.self, capacity: length / 2 + 1) {
                fftw_plan_dft_c2r_1d(Int32(length), $0, output.base, UInt32(FFTW_ESTIMATE))
            }
            guard let pointer else { fatalError("FFTW could not plan an inverse real FFT of size \(length)") }
            let plan = InverseRealFFTPlan(pointer: pointer, length: length)
            state.inversePlans[length] = plan
            return plan
        }
    }
}
