import Foundation
import SondeCore

/// Mel band levels and MFCCs (`--mel M`, `--mfcc C`): librosa's Slaney mel filterbank in
/// double precision on |X|², levels in dB, and the orthonormal DCT-II of all M levels.
final class MelFamily: FeatureFamily {
    static let declaration = FamilyDeclaration(
        name: "mel",
        summary: "mel band levels and mel-frequency cepstral coefficients",
        columns: [
            FeatureDeclaration(
                .pattern(prefix: "mel_", display: "mel_1 .. mel_M"), unit: "dB",
                definition:
                    "10·log10(max(B @ |X|², 1e-10)), B = librosa.filters.mel(sr=fs, n_fft=N, n_mels=M, norm='slaney') in float64",
                reference: "librosa.filters.mel, librosa.power_to_db(E, ref=1, amin=1e-10, top_db=None)",
                input: .spectrum,
                request: .byOption("--mel M"), tolerance: .melLevel),
            FeatureDeclaration(
                .pattern(prefix: "mfcc_", display: "mfcc_1 .. mfcc_C"), unit: "dB",
                definition: "scipy.fft.dct(mel levels, type=2, norm='ortho')[:C] over all M levels",
                reference: "librosa.feature.mfcc(S=mel levels, n_mfcc=C)", input: .spectrum,
                request: .byOption("--mfcc C"),
                tolerance: .melLevel),
        ],
        options: [
            .init(
                flag: "--mel", valueName: "M",
                help: "Mel band levels mel_1..mel_M in dB (librosa's Slaney filters), 1 <= M <= 256."),
            .init(
                flag: "--mfcc", valueName: "C",
                help: "MFCCs mfcc_1..mfcc_C from M mel bands (--mel, else 128), 1 <= C <= M."),
        ]
    )

    static func columnNames(for configuration: FeatureConfiguration) -> [String] {
        var names: [String] = []
        if let m = configuration.families.melBands, m >= 1 { names += (1...m).map { "mel_\($0)" } }
        if let c = configuration.families.mfccCount, c >= 1 { names += (1...c).map { "mfcc_\($0)" } }
        return names
    }

    private let melCount: Int
    private let writesLevels: Bool
    private let coefficientCount: Int
    /// Each filter's non-zero bins, and where its weights start in `weights`.
    private let filterBins: [Range<Int>]
    private let weightStarts: [Int]
    private let weights: [Double]
    /// The orthonormal DCT-II rows 0..<C over M levels, stored a level at a time: level n's
    /// C coefficients side by side, padded with zeros to `paddedCount`. Why: sixteen sums
    /// then grow side by side in registers, each in the order a row-by-row dot product adds
    /// (the same bits); one sum at a time was a chain of M dependent adds per coefficient,
    /// half of this family's time with --mel 40 --mfcc 13 (perf).
    private let dct: [Double]
    /// C rounded up to whole blocks of sixteen.
    private let paddedCount: Int
    private let levels: UnsafeMutableBufferPointer<Double>
    /// A frame's C coefficients and their padding.
    private let coefficients: UnsafeMutableBufferPointer<Double>

    init(configuration: FeatureConfiguration) {
        let options = configuration.families
        let m = options.melFilterCount ?? FamilyOptions.defaultMelBands
        melCount = m
        writesLevels = options.melBands != nil
        coefficientCount = options.mfccCount ?? 0
        var bins: [Range<Int>] = [], starts: [Int] = [], weights: [Double] = []
        Self.slaneyFilters(sampleRate: configuration.sampleRate, frameLength: configuration.frameLength, bands: m) {
            row in
            // Only the filter's non-zero stretch is kept: M·K weights would be 67 MB at M = 256, N = 65536.
            let first = row.firstIndex { $0 != 0 } ?? 0
            let end = (row.lastIndex { $0 != 0 } ?? -1) + 1
            let range = first..<Swift.max(first, end)
            bins.append(range)
            starts.append(weights.count)
            weights.append(contentsOf: row[range])
        }
        filterBins = bins
        weightStarts = starts
        self.weights = weights
        let c = coefficientCount
        let padded = (c + 15) / 16 * 16
        paddedCount = padded
        dct = (0..<(padded * m)).map { index in
            let n = index / padded, k = index % padded
            guard k < c else { return 0 }
            let scale = k == 0 ? (1 / Double(m)).squareRoot() : (2 / Double(m)).squareRoot()
            return scale * cos(Double.pi * Double(k) * Double(2 * n + 1) / Double(2 * m))
        }
        coefficients = .allocate(capacity: padded)
        coefficients.initialize(repeating: 0)
        // Room for whole blocks of four: the padding stays 1 (0 dB), never written out.
        levels = .allocate(capacity: (m + 3) / 4 * 4)
        levels.initialize(repeating: 1)
    }

    deinit {
        levels.deallocate()
        coefficients.deallocate()
    }

    func measure(_ frame: FrameSpectrum, into values: UnsafeMutableBufferPointer<Double>) {
        let s2 = frame.squaredMagnitude
        weights.withUnsafeBufferPointer { w in
            guard let w = w.baseAddress else { return }
            for j in 0..<melCount {
                let bins = filterBins[j]
                levels[j] = FrameKernels.dot(w + weightStarts[j], s2 + bins.lowerBound, count: bins.count)
            }
        }
        // 10·log10(max(E, 1e-10)) four bands at a time, as (10 / ln 10)·ln with the spectral
        // kernels' logarithm (E >= 1e-10 is a normal number): libm's log10, one band at a
        // time, was 8% of a run with --mel 40 (perf). Within 1e-15 dB of it, against the
        // contract's 1e-6·(1 + max |mel|).
        guard let start = levels.baseAddress else { return }
        let floor = FrameKernels.Lanes(repeating: 1e-10)
        let decibelsPerNeper = FrameKernels.Lanes(repeating: 10 / M_LN10)
        let infinity = FrameKernels.Lanes(repeating: .infinity)
        for j in stride(from: 0, to: melCount, by: 4) {
            let energy = FrameKernels.load(start, j)
            guard all(energy .< infinity) else {
                // An overflowed spectrum (samples near 1e154) or NaN: libm says what they give.
                for lane in j..<Swift.min(j + 4, melCount) { start[lane] = 10 * log10(Swift.max(start[lane], 1e-10)) }
                continue
            }
            let level =
                decibelsPerNeper * FrameKernels.normalLogarithm(energy.replacing(with: floor, where: energy .< floor))
            FrameKernels.store(level, start, j)
        }
        var column = 0
        if writesLevels {
            for j in 0..<melCount { values[j] = levels[j] }
            column = melCount
        }
        guard coefficientCount > 0, let sums = coefficients.baseAddress else { return }
        dct.withUnsafeBufferPointer { d in
            guard let d = d.baseAddress else { return }
            for block in stride(from: 0, to: paddedCount, by: 16) {
                var s0 = FrameKernels.Lanes(repeating: 0), s1 = s0, s2 = s0, s3 = s0
                var row = d + block
                for j in 0..<melCount {
                    // A multiply, then an add: no fused rounding, as the scalar sum had.
                    let level = FrameKernels.Lanes(repeating: start[j])
                    s0 += FrameKernels.load(row, 0) * level
                    s1 += FrameKernels.load(row, 4) * level
                    s2 += FrameKernels.load(row, 8) * level
                    s3 += FrameKernels.load(row, 12) * level
                    row += paddedCount
                }
                FrameKernels.store(s0, sums, block)
                FrameKernels.store(s1, sums, block + 4)
                FrameKernels.store(s2, sums, block + 8)
                FrameKernels.store(s3, sums, block + 12)
            }
        }
        for k in 0..<coefficientCount { values[column + k] = sums[k] }
    }

    /// librosa.filters.mel(sr, n_fft, n_mels, fmin=0, fmax=sr/2, htk=False, norm='slaney'),
    /// step for step in double precision: hands each of the M rows (N/2 + 1 weights) to `body`.
    static func slaneyFilters(sampleRate fs: Double, frameLength n: Int, bands m: Int, _ body: ([Double]) -> Void) {
        let binCount = n / 2 + 1
        let binSpacing = 1.0 / (Double(n) * (1.0 / fs))  // np.fft.rfftfreq's val
        let frequencies = (0..<binCount).map { Double($0) * binSpacing }
        let maxMel = hzToMel(fs / 2)
        let count = m + 2
        let step = maxMel / Double(count - 1)  // np.linspace(0, maxMel, M + 2)
        let melFrequencies = (0..<count).map { i in melToHz(i == count - 1 ? maxMel : Double(i) * step) }
        for i in 0..<m {
            let lowerWidth = melFrequencies[i + 1] - melFrequencies[i]
            let upperWidth = melFrequencies[i + 2] - melFrequencies[i + 1]
            let norm = 2.0 / (melFrequencies[i + 2] - melFrequencies[i])
            body(
                frequencies.map { f in
                    let lower = -(melFrequencies[i] - f) / lowerWidth
                    let upper = (melFrequencies[i + 2] - f) / upperWidth
                    return Swift.max(0, Swift.min(lower, upper)) * norm
                })
        }
    }

    private static let linearSpacing = 200.0 / 3
    private static let logStart = 1000.0 / linearSpacing
    private static let logStep = log(6.4) / 27.0

    /// librosa.hz_to_mel(f, htk=False): linear below 1 kHz, logarithmic above.
    static func hzToMel(_ f: Double) -> Double {
        f >= 1000 ? logStart + log(f / 1000) / logStep : f / linearSpacing
    }

    /// librosa.mel_to_hz(mel, htk=False).
    static func melToHz(_ mel: Double) -> Double {
        mel >= logStart ? 1000 * exp(logStep * (mel - logStart)) : linearSpacing * mel
    }
}
