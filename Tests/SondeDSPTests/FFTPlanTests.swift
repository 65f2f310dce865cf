import CFFTW
import Foundation
import Testing
import _SondeTestSupport

@testable import SondeDSP

/// The plans `FFTPlanCache` hands out, whichever way they were made (wisdom or estimate).
@Suite("FFT plans")
struct FFTPlanTests {
    /// Every window size transforms random data as the direct DFT does (to 1e-12 of the
    /// largest bin, up to N = 2048 where the O(N²) sum stays quick), and keeps Parseval's
    /// identity to 1e-12 relative at every size up to 65536.
    @Test(arguments: (4...16).map { 1 << $0 })
    func plansTransformLikeTheDFT(length: Int) {
        var generator = SplitMix64(seed: UInt64(length))
        let plan = FFTPlanCache.shared.forwardPlan(length: length)
        let input = FFTWBuffer(count: length)
        let output = FFTWBuffer(count: 2 * (length / 2 + 1))
        var samples = [Double]()
        for i in 0..<length {
            samples.append(Double.random(in: -1...1, using: &generator))
            input.base[i] = samples[i]
        }
        plan.execute(input: input.base, output: output.base)
        let bins = length / 2 + 1
        var spectrumEnergy = 0.0
        for k in 0..<bins {
            let s2 = output.base[2 * k] * output.base[2 * k] + output.base[2 * k + 1] * output.base[2 * k + 1]
            spectrumEnergy += (k == 0 || k == bins - 1) ? s2 : 2 * s2
        }
        let energy = samples.reduce(0) { $0 + $1 * $1 }
        #expect(abs(spectrumEnergy / Double(length) - energy) <= 1e-12 * energy)
        guard length <= 2048 else { return }
        var worst = 0.0, largest = 0.0
        for k in 0..<bins {
            var re = 0.0, im = 0.0
            for (n, x) in samples.enumerated() {
                // The angle reduced modulo N exactly, so cos and sin stay accurate.
                let angle = -2 * Double.pi * Double((k * n) % length) / Double(length)
                re += x * cos(angle)
                im += x * sin(angle)
            }
            worst = max(worst, abs(output.base[2 * k] - re), abs(output.base[2 * k + 1] - im))
            largest = max(largest, (re * re + im * im).squareRoot())
        }
        #expect(worst <= 1e-12 * largest, "N = \(length): worst deviation \(worst) of \(largest)")
    }

    /// The committed wisdom fits the FFTW it was made for: where this is that FFTW
    /// (Debian's 3.3.10 with SSE2 and AVX codelets) on a CPU with AVX, N = 1024 is planned
    /// from it. A stale or mangled FFTWisdom.swift fails here instead of silently falling
    /// back to FFTW_ESTIMATE's slower plan.
    @Test func windowOf1024IsPlannedFromWisdomWhereItFits() {
        let version = String(cString: sonde_fftw_version())
        let cpuInfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let hasAVX = cpuInfo.split(separator: "\n").contains {
            $0.hasPrefix("flags") && $0.split(separator: " ").contains("avx")
        }
        let fits = version == "fftw-3.3.10-sse2-avx" && hasAVX
        #expect(FFTWisdom.text.contains("(fftw-3.3.10 fftw_wisdom"))
        #expect(FFTPlanCache.shared.forwardPlan(length: 1024).isFromWisdom == fits, "FFTW \(version), AVX: \(hasAVX)")
    }
}
