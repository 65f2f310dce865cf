/// The shaft speed from a tachometer channel: a once-per-revolution (or N-per-revolution)
/// pulse train, as a key phasor or an optical probe on a reflective mark gives.
///
/// Threshold: the channel's mid-level, min + (max - min)/2. A rising edge is the first sample
/// at or above the mid-level after the channel has been below min + (max - min)/4 (that
/// hysteresis keeps noise on a pulse's top or bottom from counting twice); its time is
/// interpolated linearly between that sample and the one before, where the line crosses the
/// mid-level. Speed: the edges after the first, over the time from the first edge to the last,
/// divided by the pulses per revolution: the mean speed over the whole recording, not an
/// average of instantaneous speeds (which would weight slow revolutions less).
public enum TachometerSpeed {
    /// Why no speed could be read off a channel.
    public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        /// Every sample equal (or not finite): no pulse at all.
        case flat
        /// Fewer than two rising edges: not a whole pulse period.
        case tooFewEdges(Int)

        public var description: String {
            switch self {
            case .flat: "the channel is flat: no tachometer pulses"
            case .tooFewEdges(let count):
                "\(count) rising edge\(count == 1 ? "" : "s") through its mid-level, at least 2 are needed"
            }
        }
    }

    /// The mean speed of the shaft over the recording.
    /// - Parameters:
    ///   - samples: the tachometer channel.
    ///   - sampleRate: Hz, > 0.
    ///   - pulsesPerRevolution: ≥ 1.
    /// - Throws: `Failure`.
    public static func speed(
        _ samples: UnsafeBufferPointer<Double>, sampleRate: Double, pulsesPerRevolution: Int
    ) throws(Failure) -> ShaftSpeed {
        precondition(pulsesPerRevolution >= 1 && sampleRate > 0)
        var low = Double.infinity
        var high = -Double.infinity
        for value in samples {
            low = min(low, value)
            high = max(high, value)
        }
        guard low.isFinite, high.isFinite, high > low else { throw .flat }
        let middle = low + (high - low) / 2
        let arm = low + (high - low) / 4
        var armed = false
        var first = 0.0
        var last = 0.0
        var edges = 0
        for index in samples.indices {
            let value = samples[index]
            if value < arm {
                armed = true
            } else if armed, value >= middle, index > 0 {
                let before = samples[index - 1]
                // `before` < middle: the sample that armed it or a later one still below it.
                let fraction = before < middle ? (middle - before) / (value - before) : 0
                let time = Double(index - 1) + fraction
                if edges == 0 { first = time }
                last = time
                edges += 1
                armed = false
            }
        }
        guard edges >= 2, last > first else { throw .tooFewEdges(edges) }
        let revolutions = Double(edges - 1) / Double(pulsesPerRevolution)
        return ShaftSpeed(hertz: revolutions * sampleRate / (last - first))
    }
}

extension TachometerSpeed {
    /// The channel `--tacho` names: a channel's name (`ch3`, a CSV header), else its index
    /// from 0 (`3`, the `ch3` of a raw file).
    /// - Throws: `BearingError.invalidTachometer` naming the text and the channels there are.
    public static func channelIndex(_ text: String, names: [String]) throws(BearingError) -> Int {
        if let named = names.firstIndex(of: text) { return named }
        guard let index = Int(text), names.indices.contains(index) else {
            throw .invalidTachometer(
                text,
                reason: "no such channel; the input has \(names.joined(separator: ", ")) (or 0 to \(names.count - 1))")
        }
        return index
    }

    /// The speed read off channel `text` of `channels` (`names` in the same order), and
    /// that channel's index.
    /// - Throws: `BearingError.invalidTachometer` for an unknown channel or one without pulses.
    public static func speed(
        of channels: [[Double]], names: [String], tachometer text: String, sampleRate: Double,
        pulsesPerRevolution: Int
    ) throws(BearingError) -> (speed: ShaftSpeed, index: Int) {
        let index = try channelIndex(text, names: names)
        guard index < channels.count else {
            throw .invalidTachometer(text, reason: "the input has \(channels.count) channels")
        }
        let read = channels[index].withUnsafeBufferPointer { samples -> Result<ShaftSpeed, Failure> in
            Result { () throws(Failure) -> ShaftSpeed in
                try TachometerSpeed.speed(samples, sampleRate: sampleRate, pulsesPerRevolution: pulsesPerRevolution)
            }
        }
        switch read {
        case .success(let speed): return (speed, index)
        case .failure(let failure): throw .invalidTachometer(text, reason: failure.description)
        }
    }

    /// The speed from channel `text` of `channels` (`names` in the same order), and the other
    /// channels: the ones to diagnose.
    /// - Throws: `BearingError.invalidTachometer` for an unknown channel, one channel only, or
    ///   a channel without pulses.
    public static func split(
        _ channels: [[Double]], names: [String], tachometer text: String, sampleRate: Double, pulsesPerRevolution: Int
    ) throws(BearingError) -> (speed: ShaftSpeed, channels: [[Double]], names: [String]) {
        let (speed, index) = try speed(
            of: channels, names: names, tachometer: text, sampleRate: sampleRate,
            pulsesPerRevolution: pulsesPerRevolution)
        guard channels.count >= 2 else {
            throw .invalidTachometer(text, reason: "the input's only channel: nothing is left to diagnose")
        }
        var rest = channels
        var restNames = names
        rest.remove(at: index)
        if index < restNames.count { restNames.remove(at: index) }
        return (speed, rest, restNames)
    }
}
