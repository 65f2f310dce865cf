import SondeCore
public import SondeDSP
public import SondeIO

/// `sonde diagnose`'s work on one file: read every channel whole, take the shaft speed as
/// given or from a tachometer channel (which is then not diagnosed), and diagnose each
/// channel on a task of its own (the kurtogram of a minute at 48 kHz is 0.5 s of one core),
/// with its velocity r.m.s. for the ISO 20816-3 zone.
public struct BearingDiagnosisRun: Sendable {
    /// Where the shaft speed comes from.
    public enum Shaft: Sendable {
        case given(ShaftSpeed)
        /// A channel (a name, or an index from 0) and its pulses per revolution.
        case tachometer(channel: String, pulsesPerRevolution: Int)
    }

    public let file: String
    public let source: SampleSourceOptions
    public let shaft: Shaft
    public let bearing: DefectMultiples
    public let levels: Int
    /// dB a defect line must reach to be named.
    public let threshold: Double
    /// m/s² per input unit (9.80665 for g): scales the velocity, not the levels.
    public let metresPerSecondSquared: Double

    public init(
        file: String, source: SampleSourceOptions, shaft: Shaft, bearing: DefectMultiples, levels: Int,
        threshold: Double, metresPerSecondSquared: Double
    ) {
        self.file = file
        self.source = source
        self.shaft = shaft
        self.bearing = bearing
        self.levels = levels
        self.threshold = threshold
        self.metresPerSecondSquared = metresPerSecondSquared
    }

    /// One report per diagnosed channel, in the file's order.
    /// - Throws: `SondeError` naming the file (and the channel) for an unreadable input, a
    ///   tachometer without pulses, or a channel too short for the kurtogram.
    public func reports() async throws -> [DiagnosisText.Report] {
        let opened = try SampleSources.open(path: file, options: source)
        let rate = opened.format.sampleRate
        var names = opened.format.channelNames
        var channels = try ChannelSamples.read(opened, name: file)
        var speed = ShaftSpeed(hertz: 1)
        switch shaft {
        case .given(let given):
            speed = given
        case .tachometer(let channel, let pulses):
            do {
                (speed, channels, names) = try TachometerSpeed.split(
                    channels, names: names, tachometer: channel, sampleRate: rate, pulsesPerRevolution: pulses)
            } catch {
                throw SondeError(.invalidInput, "\(file): \(error)")
            }
        }
        return try await diagnose(channels, names: names, rate: rate, shaft: speed)
    }

    private func diagnose(
        _ channels: [[Double]], names: [String], rate: Double, shaft: ShaftSpeed
    ) async throws
        -> [DiagnosisText.Report]
    {
        let (file, bearing, levels, threshold, unit) = (
            file, bearing, levels, threshold, metresPerSecondSquared
        )
        return try await withThrowingTaskGroup(of: (Int, DiagnosisText.Report).self) { group in
            for (index, samples) in channels.enumerated() {
                let name = index < names.count ? names[index] : "channel \(index + 1)"
                group.addTask {
                    do {
                        let diagnosis = try BearingDiagnosis.diagnose(
                            samples, sampleRate: rate, shaft: shaft, bearing: bearing, levels: levels,
                            threshold: threshold)
                        let velocity = samples.withUnsafeBufferPointer {
                            RecordingVelocity.rms($0, sampleRate: rate).map { $0 * unit * 1000 }
                        }
                        return (index, DiagnosisText.Report(channel: name, diagnosis: diagnosis, velocity: velocity))
                    } catch let error as KurtogramError {
                        throw SondeError(.invalidInput, "\(file), channel \(name): \(error.description)")
                    }
                }
            }
            var reports = [DiagnosisText.Report?](repeating: nil, count: channels.count)
            for try await (index, report) in group {
                reports[index] = report
            }
            return reports.compactMap { $0 }
        }
    }
}
