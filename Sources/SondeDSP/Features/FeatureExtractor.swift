import Foundation
import SondeCore

/// Computes the docs/features.md measurements of one frame of one channel.
///
/// One extractor per worker: it owns its FFT buffers and scratch, so `extract` allocates
/// nothing. It is not thread-safe; give each concurrent worker its own.
public final class FeatureExtractor {
    public let configuration: FeatureConfiguration

    private let length: Int
    private let binCount: Int
    private let window: HannWindow
    private let plan: RealFFTPlan
    private let fftInput: FFTWBuffer
    private let fftOutput: FFTWBuffer
    /// |X[k]|² per bin.
    private let squaredMagnitude: UnsafeMutableBufferPointer<Double>
    /// |X[k]| per bin.
    private let magnitude: UnsafeMutableBufferPointer<Double>
    /// P[k] per bin (one-sided density PSD).
    private let powerStorage: UnsafeMutableBufferPointer<Double>
    /// Half-open bin ranges of the requested bands, precomputed from `f[k] = k*fs/N`.
    private let bandBins: [Range<Int>]
    /// Where each requested feature's value sits in `FrameFeatures`, in bytes.
    private let featureOffsets: [Int]
    private let needsSpectrum: Bool
    /// ln(N/2 + 1), the entropy's normaliser.
    private let logBinCount: Double
    private let needsMoments: Bool
    /// The families of docs/features.md section 7 asked for, with the column of each one's
    /// first value.
    private let families: [(family: any FeatureFamily, column: Int)]
    /// The column of the first `band_power`.
    private let bandColumn: Int
    /// Whether a family compares with the previous frame (`prime(_:)`, `resetSequence()`).
    public let dependsOnPreviousFrame: Bool

    /// - Parameters:
    ///   - configuration: validated window, rate, features and bands.
    ///   - keepsSpectrum: compute `P[k]` for every frame even when no requested feature
    ///     reads it, so `power` is valid after each `extract` (averaged spectra, spectrograms).
    public init(configuration: FeatureConfiguration, keepsSpectrum: Bool = false) {
        self.configuration = configuration
        length = configuration.frameLength
        binCount = length / 2 + 1
        window = HannWindow.shared(length: length)
        plan = FFTPlanCache.shared.forwardPlan(length: length)
        fftInput = FFTWBuffer(count: length)
        fftOutput = FFTWBuffer(count: 2 * binCount)
        squaredMagnitude = .allocate(capacity: binCount)
        magnitude = .allocate(capacity: binCount)
        powerStorage = .allocate(capacity: binCount)
        logBinCount = log(Double(binCount))
        let fs = configuration.sampleRate
        let n = Double(configuration.frameLength)
        let binCount = configuration.frameLength / 2 + 1
        bandBins = configuration.bands.map { band in
            // LO <= f[k] < HI with f[k] computed exactly as docs/features.md states.
            let bins = (0..<binCount).filter { k in
                let f = Double(k) * fs / n
                return band.low <= f && f < band.high
            }
            guard let first = bins.first, let last = bins.last else { return 0..<0 }
            return first..<(last + 1)
        }
        featureOffsets = configuration.features.map(FrameFeatures.byteOffset(of:))
        let inputs = Set(configuration.features.map(\.declaration.input))
        needsMoments = inputs.contains(.moments)
        // Columns: features, families before the bands, bands, families after them.
        var column = configuration.features.count
        var bandColumn = column
        var families: [(family: any FeatureFamily, column: Int)] = []
        for followsBands in [false, true] {
            if followsBands {
                bandColumn = column
                column += configuration.bands.count
            }
            for type in FeatureFamilies.registered where type.followsBandPowers == followsBands {
                let count = type.columnNames(for: configuration).count
                guard count > 0 else { continue }
                families.append((type.init(configuration: configuration), column))
                column += count
            }
        }
        self.families = families
        self.bandColumn = bandColumn
        dependsOnPreviousFrame = families.contains { type(of: $0.family).dependsOnPreviousFrame }
        // Every family and band reads the spectrum, and so does a spectrum tap.
        needsSpectrum = keepsSpectrum || !families.isEmpty || !configuration.bands.isEmpty || inputs.contains(.spectrum)
    }

    /// Bytes an extractor for `frameLength`-sample windows holds, about: the FFT's input and
    /// output and three spectra (the window is shared); a family's scratch is not counted.
    public static func estimatedBytes(frameLength: Int) -> Int {
        MemoryLayout<Double>.stride * (frameLength + 5 * (frameLength / 2 + 1))
    }

    deinit {
        squaredMagnitude.deallocate()
        magnitude.deallocate()
        powerStorage.deallocate()
    }

    /// Measures one frame.
    /// - Parameters:
    ///   - frame: exactly `frameLength` samples.
    ///   - values: receives `configuration.columnCount` values, features then bands.
    public func extract(_ frame: UnsafeBufferPointer<Double>, into values: UnsafeMutableBufferPointer<Double>) {
        precondition(frame.count == length, "frame has \(frame.count) samples, expected \(length)")
        precondition(values.count >= configuration.columnCount)
        var all = FrameFeatures()
        let flatValue = measureTimeDomain(frame, into: &all)
        if needsSpectrum {
            let sums = computeSpectrum(flatValue: flatValue)
            measureSpectrum(sums, into: &all, isFlat: flatValue != nil)
        }
        withUnsafeBytes(of: all) { allValues in
            for (column, offset) in featureOffsets.enumerated() {
                values[column] = allValues.load(fromByteOffset: offset, as: Double.self)
            }
        }
        let df = configuration.sampleRate / Double(length)
        guard let p = powerStorage.baseAddress else { return }
        for (index, bins) in bandBins.enumerated() {
            values[bandColumn + index] = FrameKernels.sum(p, bins) * df
        }
        guard !families.isEmpty, let spectrum = frameSpectrum(frame, isFlat: flatValue != nil) else { return }
        for (index, entry) in families.enumerated() {
            let end = index + 1 < families.count ? families[index + 1].column : configuration.columnCount
            entry.family.measure(spectrum, into: UnsafeMutableBufferPointer(rebasing: values[entry.column..<end]))
        }
    }

    /// The last extracted frame's one-sided density PSD `P[k]`, `k = 0...N/2` (docs/features.md
    /// section 5, flat frames from their exact spectrum). Valid until the next `extract`,
    /// and only when a feature needs the spectrum or the extractor was made `keepsSpectrum`.
    public var power: UnsafeBufferPointer<Double> { UnsafeBufferPointer(powerStorage) }

    /// Takes `frame` as the channel's previous frame, for families that compare with it
    /// (spectral flux), and writes nothing. The next `extract` is then its successor.
    public func prime(_ frame: UnsafeBufferPointer<Double>) {
        precondition(frame.count == length, "frame has \(frame.count) samples, expected \(length)")
        guard dependsOnPreviousFrame else { return }
        var all = FrameFeatures()
        let flatValue = measureTimeDomain(frame, into: &all)
        _ = computeSpectrum(flatValue: flatValue)
        guard let spectrum = frameSpectrum(frame, isFlat: flatValue != nil) else { return }
        for entry in families where type(of: entry.family).dependsOnPreviousFrame { entry.family.prime(spectrum) }
    }

    /// Forgets the previous frame: the next `extract` measures the first frame of an input.
    public func resetSequence() {
        for entry in families { entry.family.reset() }
    }

    private func frameSpectrum(_ frame: UnsafeBufferPointer<Double>, isFlat: Bool) -> FrameSpectrum? {
        guard let x = frame.baseAddress, let s2 = squaredMagnitude.baseAddress, let s = magnitude.baseAddress,
            let p = powerStorage.baseAddress
        else {
            return nil
        }
        return FrameSpectrum(samples: x, squaredMagnitude: s2, magnitude: s, power: p, isFlat: isFlat)
    }

    // MARK: - Time domain (docs/features.md section 4)

    /// Fills the time-domain features, writes the windowed frame into the FFT input, and
    /// returns the frame's value if it is flat.
    ///
    /// The moments are power sums of deviations from a center, as a two-pass method takes
    /// them from the mean (raw power sums lose everything on offsets like 9.81 + a small
    /// vibration). Here the center is a guess, the mean of sixteen samples spread over the
    /// frame, so that one pass over the frame does (`FrameKernels.frameSums`); Σd then
    /// gives the mean's offset δ from the center, and the moments are shifted to the mean
    /// exactly. Shifting costs about (1 + δ²/m2)² units in the last place of m4, so a guess
    /// more than four standard deviations off (an impulse the sixteen samples happened to
    /// hit) is not used: the pass is repeated around the mean it found, as a two-pass
    /// method would. So is a guessed scale too far from the frame's peak.
    private func measureTimeDomain(_ frame: UnsafeBufferPointer<Double>, into features: inout FrameFeatures) -> Double?
    {
        guard let x = frame.baseAddress else { return nil }
        return window.coefficients.withUnsafeBufferPointer { w -> Double? in
            guard let w = w.baseAddress else { return nil }
            let n = Double(length)
            var (center, scale) = guessCenterAndScale(x)
            var sums = FrameKernels.frameSums(
                x, center: center, scale: scale, window: w, windowed: fftInput.base, count: length)
            if sums.maximum == sums.minimum {
                // A flat frame: the exact values, not the rounding of N additions (which
                // would make the skewness cut-off below depend on summation order).
                let c = sums.maximum
                features.mean = c
                features.rms = abs(c)
                features.peak = abs(c)
                features.crestFactor = c == 0 ? 0 : 1
                return c
            }
            let peak = Swift.max(abs(sums.maximum), abs(sums.minimum))
            // Deviations are scaled by a power of two near 1/peak (exact), so that m2^1.5
            // and m2² neither underflow for tiny signals nor overflow for huge ones.
            let peakScale = Self.powerOfTwoScale(for: peak)
            var delta = sums.s1 / n
            var m2 = sums.s2 / n - delta * delta
            let scaleIsClose = abs(scale.exponent - peakScale.exponent) <= 32
            if !(delta * delta <= 16 * m2) || !scaleIsClose {
                center += delta / scale
                scale = peakScale
                sums = FrameKernels.frameSums(
                    x, center: center, scale: scale, window: w, windowed: fftInput.base, count: length)
                delta = sums.s1 / n
                m2 = sums.s2 / n - delta * delta
            }
            m2 = Swift.max(m2, 0)
            let mean = center + delta / scale
            // Σx²/N = mean² + m2, both terms non-negative, in scaled units (scaling by a
            // power of two is exact).
            let scaledMean = mean * scale
            let rms = (scaledMean * scaledMean + m2).squareRoot() / scale
            features.mean = mean
            features.rms = rms
            features.peak = peak
            features.peakToPeak = sums.maximum - sums.minimum
            features.crestFactor = rms == 0 ? 0 : peak / rms
            features.zeroCrossingRate = Double(sums.crossings) / Double(length - 1)
            guard needsMoments else { return nil }
            let r2 = sums.s2 / n, r3 = sums.s3 / n, r4 = sums.s4 / n
            let m3 = r3 - 3 * delta * r2 + 2 * delta * delta * delta
            let m4 = r4 - 4 * delta * r3 + 6 * delta * delta * r2 - 3 * delta * delta * delta * delta
            features.std = m2.squareRoot() / scale
            // scipy gives up (returns nan) below this; docs/features.md makes that 0.
            let limit = 1e-15 * mean * scale
            let degenerate = m2 <= limit * limit
            features.skewness = degenerate ? 0 : m3 / (m2 * m2.squareRoot())
            features.kurtosis = degenerate ? 0 : m4 / (m2 * m2)
            return nil
        }
    }

    /// The mean of sixteen samples spread over the frame, and a power of two near 1/their
    /// largest magnitude: the first pass's center and scale.
    private func guessCenterAndScale(_ x: UnsafePointer<Double>) -> (center: Double, scale: Double) {
        let stride = length / 16
        var total = 0.0
        var largest = 0.0
        for j in 0..<16 {
            let v = x[j * stride]
            total += v
            largest = Swift.max(largest, abs(v))
        }
        return (total / 16, Self.powerOfTwoScale(for: largest))
    }

    /// 2^-e for the binary exponent e of `magnitude` (1 for 0), kept finite and normal.
    private static func powerOfTwoScale(for magnitude: Double) -> Double {
        guard magnitude > 0, magnitude.isFinite else { return 1 }
        return Double(sign: .plus, exponent: Swift.min(Swift.max(-magnitude.exponent, -1022), 1023), significand: 1)
    }

    // MARK: - Spectrum (docs/features.md section 5)

    /// Fills |X|², |X| and P for every bin, from the FFT of the windowed frame or, for a
    /// flat frame, the exact DFT, and returns the sums the spectral features share.
    private func computeSpectrum(flatValue: Double?) -> FrameKernels.SpectrumSums {
        let out = fftOutput.base
        if let c = flatValue {
            // The exact DFT of a constant under a periodic Hann window: an FFT would leave
            // round-off in the other bins, which flatness, entropy and SNR magnify.
            out.update(repeating: 0, count: 2 * binCount)
            out[0] = c * Double(length) / 2
            out[2] = -c * Double(length) / 4
        } else {
            plan.execute(input: fftInput.base, output: out)
        }
        guard let s2 = squaredMagnitude.baseAddress, let s = magnitude.baseAddress, let p = powerStorage.baseAddress
        else {
            return FrameKernels.SpectrumSums()
        }
        let powerScale = 1 / (configuration.sampleRate * window.sumOfSquares)
        return FrameKernels.spectrum(out, bins: binCount, powerScale: powerScale, squared: s2, magnitude: s, power: p)
    }

    private func measureSpectrum(_ sums: FrameKernels.SpectrumSums, into features: inout FrameFeatures, isFlat: Bool) {
        let fs = configuration.sampleRate
        let df = fs / Double(length)
        let nyquist = binCount - 1
        let s2 = squaredMagnitude, s = magnitude, p = powerStorage
        guard let sBase = s.baseAddress else { return }
        let magnitudeSum = sums.magnitude
        let energy = sums.energy
        // Σ P[k]·df, with P doubled except at DC and Nyquist.
        let scale = 1 / (fs * window.sumOfSquares)
        features.totalPower = (2 * energy - s2[0] - s2[nyquist]) * scale * df

        // Centroid and bandwidth in bins, then in Hz; rolloff from the running sum.
        //
        // The bandwidth's Σ|X|(k - kc)² is expanded as Σk²|X| - kc·Σk|X| from the first
        // spectrum pass, not summed in a pass of its own around the centroid (that pass was
        // 2.6% of a run, perf). The expansion cancels: it keeps about 16 - log10(kc²/bw²)
        // digits, where kc and bw are the centroid and bandwidth in bins. A Hann window
        // spreads even a pure tone over three bins (bw >= 0.7), so the worst case is a tone
        // near Nyquist: there the error was at most 8e-14·fs at N = 1024 and 2e-11·fs at
        // N = 65536 (numpy emulation, 40 tones each), against docs/features.md's floor of
        // 1e-6·fs. `FrameKernelsTests` holds it to a hundredth of that floor.
        if magnitudeSum > 0 {
            let centroidBin = sums.weightedBins / magnitudeSum
            features.spectralCentroid = sums.weightedBins * df / magnitudeSum
            let variance = sums.squareWeightedBins / magnitudeSum - centroidBin * centroidBin
            features.spectralBandwidth = Swift.max(variance, 0).squareRoot() * df
        }
        let rolloffBin = FrameKernels.firstBin(reaching: 0.85 * magnitudeSum, runningSumOf: sBase, count: binCount)
        features.spectralRolloff = Double(rolloffBin) * df
        let logQSum = sums.logQ, qSum = sums.q, energyLogSum = sums.energyLog

        // The frame's remaining logarithms in one call of the spectrum's own (libm's three
        // or four were 1.4% of a run, perf): ln E, and ln P around the peak for the
        // parabola. The 1e-300 floors are docs/features.md's.
        let peakBin = sums.peakBin
        let around = peakBin < nyquist ? SIMD3(p[peakBin - 1], p[peakBin], p[peakBin + 1]) : SIMD3(repeating: 1)
        let logarithms = FrameKernels.logarithm(
            FrameKernels.Lanes(
                Swift.max(around[0], 1e-300), Swift.max(around[1], 1e-300), Swift.max(around[2], 1e-300), energy))
        let bins = Double(binCount)
        features.spectralFlatness = exp(logQSum / bins) / (qSum / bins)
        if energy > 0 {
            features.spectralEntropy = Swift.max(0, (logarithms[3] - energyLogSum / energy) / logBinCount)
        }

        guard !isFlat else { return }  // dominant_*, thd and snr_db are 0 for flat frames.

        var offset = 0.0
        if peakBin < nyquist {
            let a = logarithms[0], b = logarithms[1], c = logarithms[2]
            let denominator = a - 2 * b + c
            if denominator != 0 { offset = Swift.min(Swift.max(0.5 * (a - c) / denominator, -0.5), 0.5) }
        }
        let fundamental = Double(peakBin) + offset
        features.dominantFrequency = fundamental * df
        features.dominantAmplitude = 2 * s[peakBin] / window.sum
        measureHarmonics(fundamentalBin: fundamental, into: &features)
    }

    /// THD and SNR from the bin groups of docs/features.md section 5.
    private func measureHarmonics(fundamentalBin k1: Double, into features: inout FrameFeatures) {
        guard k1 >= 5 else { return }
        let nyquist = binCount - 1
        let center = Int(k1.rounded())
        let fundamental = Swift.max(center - 2, 0)...Swift.min(center + 2, nyquist)
        // The fundamental's group and up to four harmonic groups, in ascending order, kept
        // in fixed storage: an array here allocated once per frame.
        var groups = InlineArray<5, ClosedRange<Int>>(repeating: 0...0)
        groups[0] = fundamental
        var groupCount = 1
        var harmonicPower = 0.0
        for h in 2...5 {
            let c = Int((Double(h) * k1).rounded())
            guard c - 2 >= 0, c + 2 <= nyquist else { continue }
            groups[groupCount] = (c - 2)...(c + 2)
            groupCount += 1
            for k in (c - 2)...(c + 2) { harmonicPower += powerStorage[k] }
        }
        var fundamentalPower = 0.0
        for k in fundamental { fundamentalPower += powerStorage[k] }
        if fundamentalPower > 0, groupCount > 1 {
            features.thd = (harmonicPower / fundamentalPower).squareRoot()
        }
        // Noise summed directly over the bins outside DC and the groups (which are disjoint
        // and ascending): subtracting from the total would cancel at high SNR.
        guard let p = powerStorage.baseAddress else { return }
        var noise = 0.0
        var k = 3
        for index in 0..<groupCount {
            let group = groups[index]
            if k < group.lowerBound { noise += FrameKernels.sum(p, k..<group.lowerBound) }
            k = Swift.max(k, group.upperBound + 1)
        }
        if k <= nyquist { noise += FrameKernels.sum(p, k..<(nyquist + 1)) }
        if noise > 0, fundamentalPower > 0 {
            features.snrDB = 10 * log10(fundamentalPower / noise)
        }
    }
}
