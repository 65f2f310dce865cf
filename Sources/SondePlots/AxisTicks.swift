import Foundation

/// Tick positions a reader can read: 1, 2 or 5 times a power of ten on linear axes, whole
/// decades on logarithmic ones.
enum AxisTicks {
    /// About `target` ticks covering `range`, at multiples of a 1-2-5 step.
    static func linear(_ range: ClosedRange<Double>, target: Int = 6) -> [Double] {
        let span = range.upperBound - range.lowerBound
        guard span > 0, span.isFinite else { return [range.lowerBound] }
        let rough = span / Double(Swift.max(target, 1))
        let power = pow(10, (log10(rough)).rounded(.down))
        let step = [1.0, 2, 5, 10].map { $0 * power }.first { $0 >= rough } ?? 10 * power
        let first = (range.lowerBound / step).rounded(.up)
        let last = (range.upperBound / step).rounded(.down)
        guard first <= last, last - first < 1000 else { return [] }
        return stride(from: first, through: last, by: 1).map { $0 * step }
    }

    /// A range widened to whole steps of its own ticks, so the axis ends on a labelled value.
    static func padded(_ range: ClosedRange<Double>) -> ClosedRange<Double> {
        var low = range.lowerBound, high = range.upperBound
        if !(high > low) {
            let pad = Swift.max(abs(low) * 0.1, 1e-12)
            low -= pad
            high += pad
        }
        let ticks = linear(low...high)
        guard ticks.count >= 2 else { return low...high }
        let step = ticks[1] - ticks[0]
        return (low / step).rounded(.down) * step...(high / step).rounded(.up) * step
    }

    /// The decades (integer exponents) in a range of log10 values, thinned to at most
    /// `target` labels.
    static func decades(_ range: ClosedRange<Double>, target: Int = 7) -> [Int] {
        let first = Int(range.lowerBound.rounded(.up)), last = Int(range.upperBound.rounded(.down))
        guard first <= last else { return [] }
        let every = Swift.max(
            1, (last - first) / Swift.max(target - 1, 1) + ((last - first) % Swift.max(target - 1, 1) == 0 ? 0 : 1))
        return stride(from: first, through: last, by: every).map { $0 }
    }

    /// Labels for evenly spaced ticks, with as many decimals as their spacing needs: ticks
    /// 999.8, 1000, 1000.2 read as such, not as three "1000"s.
    static func labels(_ ticks: [Double]) -> [String] {
        guard ticks.count >= 2 else { return ticks.map(SVGText.number) }
        let step = abs(ticks[1] - ticks[0])
        let largest = ticks.map(abs).max() ?? 0
        guard step > 0, step >= 1e-3, largest < 1e6 else { return ticks.map(SVGText.number) }
        let decimals = Swift.max(0, -Int(log10(step).rounded(.down)))
        return ticks.map { value in
            let text = String(format: "%.\(decimals)f", value)
            return text.hasPrefix("-") && Double(text) == 0 ? String(text.dropFirst()) : text
        }
    }
}
