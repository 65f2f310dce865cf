import Foundation

extension SquaredEnvelopeSpectrum {
    /// The level of the line near `frequency` (Hz) over the spectrum around it.
    ///
    /// With s = `rule.slip`, w = `rule.window` and bin i at i · resolution: the search band is
    /// the bins in [f(1-s), f(1+s)], the background the bins in [f(1-w), f(1+w)] outside it;
    /// level = 10 log10(max search / median background) (numpy's median: the mean of the two
    /// middle values for an even count). Not measurable when f(1+w) is above Nyquist, when the
    /// background has fewer than `rule.minimumBackgroundBins` bins, or when its median or the
    /// peak is 0 (a silent band).
    public func harmonicLevel(order: Int, frequency: Double, rule: DefectLevelRule) -> HarmonicLevel {
        var background: [Double] = []
        return density.withUnsafeBufferPointer {
            Self.harmonicLevel(
                order: order, frequency: frequency, rule: rule, density: $0, sampleRate: sampleRate,
                resolution: resolution, background: &background)
        }
    }

    /// `harmonicLevel(order:frequency:rule:)` on any density (bin i at i · `resolution` Hz, up
    /// to `sampleRate`/2), the background gathered in `background` (emptied first, its capacity
    /// kept): the per-frame columns call it once per defect without allocating.
    static func harmonicLevel(
        order: Int, frequency: Double, rule: DefectLevelRule, density: UnsafeBufferPointer<Double>,
        sampleRate: Double, resolution: Double, background: inout [Double]
    ) -> HarmonicLevel {
        let nyquist = sampleRate / 2
        guard frequency * (1 + rule.window) <= nyquist else {
            return HarmonicLevel(
                order: order, frequency: frequency, peakFrequency: nil, level: nil,
                notMeasurable: .aboveNyquist(nyquist))
        }
        let searchLow = frequency * (1 - rule.slip)
        let searchHigh = frequency * (1 + rule.slip)
        let windowLow = frequency * (1 - rule.window)
        let windowHigh = frequency * (1 + rule.window)
        background.removeAll(keepingCapacity: true)
        var peak = -1.0
        var peakBin = -1
        let first = Swift.max(0, Int((windowLow / resolution).rounded(.down)) - 1)
        let last = Swift.min(density.count - 1, Int((windowHigh / resolution).rounded(.up)) + 1)
        if first <= last {
            for bin in first...last {
                let f = Double(bin) * resolution
                guard f >= windowLow, f <= windowHigh else { continue }
                if f >= searchLow, f <= searchHigh {
                    if density[bin] > peak {
                        peak = density[bin]
                        peakBin = bin
                    }
                } else {
                    background.append(density[bin])
                }
            }
        }
        guard background.count >= rule.minimumBackgroundBins, peakBin >= 0 else {
            return HarmonicLevel(
                order: order, frequency: frequency, peakFrequency: nil, level: nil,
                notMeasurable: .tooFewBins(background.count))
        }
        background.sort()
        let middle = background.count / 2
        let median =
            background.count % 2 == 1 ? background[middle] : (background[middle - 1] + background[middle]) / 2
        guard median > 0, peak > 0 else {
            return HarmonicLevel(
                order: order, frequency: frequency, peakFrequency: nil, level: nil, notMeasurable: .silent)
        }
        return HarmonicLevel(
            order: order, frequency: frequency, peakFrequency: Double(peakBin) * resolution,
            level: 10 * log10(peak / median), notMeasurable: nil)
    }
}
