import Foundation
import SondeCore
import SondeIO

/// Raw interleaved test signals, and the raw reader's Doubles for the same bytes: the
/// reference every capture must equal bit for bit.
enum InstrumentTestSignals {
    /// `frames` frames of `channels` channels: a different sine per channel plus a few
    /// extreme values (full scale, the most negative integer), as `type`'s bytes.
    static func bytes(_ type: SampleFormat, frames: Int, channels: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(frames * channels * type.byteWidth)
        for frame in 0..<frames {
            for channel in 0..<channels {
                var value = 0.9 * sin(2 * Double.pi * Double(frame) * Double(channel + 1) * 100 / 48_000)
                if frame == 7 { value = channel == 0 ? -1 : 0.999_999_9 }
                switch type {
                case .i16le:
                    let sample = frame == 7 && channel == 0 ? Int16.min : Int16(value * 32767)
                    withUnsafeBytes(of: sample.littleEndian) { bytes += $0 }
                case .i32le:
                    let sample = frame == 7 && channel == 0 ? Int32.min : Int32(value * 2_147_483_647)
                    withUnsafeBytes(of: sample.littleEndian) { bytes += $0 }
                case .f32le:
                    withUnsafeBytes(of: Float(value).bitPattern.littleEndian) { bytes += $0 }
                case .f64le:
                    withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes += $0 }
                }
            }
        }
        return bytes
    }

    /// What `sonde process --sample-type TYPE --channels C --rate R` reads from `path`.
    static func rawReaderSamples(_ path: String, type: SampleFormat, channels: Int, rate: Double) throws -> [Double] {
        let source = try SampleSources.open(
            path: path, options: SampleSourceOptions(sampleRate: rate, channels: channels, sampleType: type))
        return try readAll(source, frames: Int.max)
    }

    /// Reads up to `frames` frames (all of them, for `Int.max`) in reads of 1000 frames.
    static func readAll(_ source: any SampleSource, frames: Int) throws -> [Double] {
        let channels = source.format.channelCount
        var samples: [Double] = []
        var block = [Double](repeating: 0, count: 1000 * channels)
        while samples.count / channels < frames {
            let wanted = Swift.min(1000, frames - samples.count / channels)
            let got = try block.withUnsafeMutableBufferPointer {
                try source.read(into: UnsafeMutableBufferPointer(rebasing: $0[0..<(wanted * channels)]))
            }
            if got == 0 { break }
            samples += block[0..<(got * channels)]
        }
        return samples
    }
}
