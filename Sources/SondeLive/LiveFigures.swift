import SondePipeline
import SondePlots

/// The live page's figures, drawn with SondePlots as the report draws them: per trended
/// feature and channel a scrolling trend (the last minute, min/max per step), and per
/// channel the latest frame's spectrum.
enum LiveFigures {
    static let trendSize = (width: 380.0, height: 170.0)
    static let spectrumSize = (width: 560.0, height: 260.0)

    /// One trend per trended feature and channel; time in seconds before the latest frame.
    static func trends(_ snapshot: LiveSnapshot, step: Double) -> [LiveUpdate.Figure] {
        guard let newest = snapshot.trend.last else { return [] }
        let channels = snapshot.channels.count
        var figures: [LiveUpdate.Figure] = []
        for (slot, feature) in snapshot.trendColumns.enumerated() {
            for (channel, name) in snapshot.channels.enumerated() {
                let at = slot * channels + channel
                // Each step's minimum then maximum, into half as many columns as values:
                // the columns pair up and the plot draws each step's min/max band.
                let points = snapshot.trend.filter { $0.minimum[at].isFinite && $0.maximum[at].isFinite }
                guard let firstTime = points.first?.time else { continue }
                var envelope = TrendEnvelope(capacity: points.count)
                for point in points {
                    envelope.append(point.minimum[at])
                    envelope.append(point.maximum[at])
                }
                let plot = TrendPlot(
                    title: "\(feature), \(name)", envelope: envelope, secondsPerFrame: step / 2,
                    startTime: firstTime - newest.time, width: trendSize.width, height: trendSize.height
                )
                figures.append(LiveUpdate.Figure(title: "\(feature) on \(name), the last minute", svg: plot.svg()))
            }
        }
        return figures
    }

    /// The latest frame's spectrum of each channel that has one.
    static func spectra(_ latest: LatestSpectra.Latest?) -> [LiveUpdate.Figure] {
        guard let latest else { return [] }
        let binWidth = latest.binWidth
        return zip(latest.channels, latest.power).compactMap { name, power in
            guard !power.isEmpty else { return nil }
            let plot = SpectrumPlot(
                title: "Spectrum, \(name)", frequencies: power.indices.map { Double($0) * binWidth }, power: power,
                width: spectrumSize.width, height: spectrumSize.height
            )
            return LiveUpdate.Figure(title: "latest frame's spectrum on \(name)", svg: plot.svg())
        }
    }
}
