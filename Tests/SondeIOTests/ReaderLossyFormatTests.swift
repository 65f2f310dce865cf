import CSndfile
import Foundation
import SondeCore
import Testing

@testable import SondeIO

/// MP3, Opus and Ogg Vorbis (as `.oga`) through libsndfile, and sound files recognised by
/// their first bytes when the name does not say (issue 32).
@Suite struct ReaderLossyFormatTests {
    /// A 440 Hz sine of amplitude 0.5, `seconds` long, on every channel.
    func sine(rate: Int, channels: Int, seconds: Double) -> [Double] {
        let frames = Int(Double(rate) * seconds)
        return (0..<frames).flatMap { frame in
            [Double](repeating: 0.5 * sin(2 * Double.pi * 440 * Double(frame) / Double(rate)), count: channels)
        }
    }

    func write(_ samples: [Double], channels: Int, rate: Int, format: Int32, to path: String) throws {
        var info = SF_INFO()
        info.samplerate = Int32(rate)
        info.channels = Int32(channels)
        info.format = format
        let file = try #require(sf_open(path, Int32(SFM_WRITE), &info), "\(String(cString: sf_strerror(nil)))")
        var samples = samples
        #expect(sf_writef_double(file, &samples, sf_count_t(samples.count / channels)) == samples.count / channels)
        sf_close(file)
    }

    static let lossy: [(name: String, format: Int32)] = [
        ("clip.mp3", Int32(SF_FORMAT_MPEG | SF_FORMAT_MPEG_LAYER_III)),
        ("voice.opus", Int32(SF_FORMAT_OGG | SF_FORMAT_OPUS)),
        ("bell.oga", Int32(SF_FORMAT_OGG | SF_FORMAT_VORBIS)),
    ]

    /// The decoded tone keeps its rate, channels, length (within the codec's padding) and
    /// level: a lossy codec moves samples, so the check is on RMS (within 5%), not bits.
    @Test(arguments: lossy)
    func lossyFilesAreDecoded(_ file: (name: String, format: Int32)) throws {
        let directory = try ReaderTest.makeDirectory()
        defer { ReaderTest.remove(directory) }
        let path = directory.appendingPathComponent(file.name).path
        let written = sine(rate: 48000, channels: 2, seconds: 1)
        try write(written, channels: 2, rate: 48000, format: file.format, to: path)
        let source = try SampleSources.open(path: path)
        #expect(source.format == StreamFormat(sampleRate: 48000, channelNames: ["ch0", "ch1"]))
        let read = try ReaderTest.readAll(source, bufferFrames: 4096)
        #expect(abs(read.count - written.count) <= 2 * 4096, "\(read.count) samples for \(written.count)")
        let rms = (read.reduce(0) { $0 + $1 * $1 } / Double(read.count)).squareRoot()
        #expect(abs(rms - 0.5 / 2.0.squareRoot()) < 0.05 * 0.5 / 2.0.squareRoot(), "RMS \(rms)")
    }

    @Test func aSoundFileWithAnUnknownNameIsReadByItsContent() throws {
        let directory = try ReaderTest.makeDirectory()
        defer { ReaderTest.remove(directory) }
        let path = directory.appendingPathComponent("take-3.audio").path
        try write(
            sine(rate: 16000, channels: 1, seconds: 0.5), channels: 1, rate: 16000,
            format: Int32(SF_FORMAT_OGG | SF_FORMAT_VORBIS), to: path)
        let source = try SampleSources.open(path: path)
        #expect(source.format.sampleRate == 16000)
    }

    /// Raw floats can start with any bytes but a container's signature: they still need
    /// `--sample-type`, as before.
    @Test func rawSamplesWithAnUnknownNameStillAskForTheirType() throws {
        let directory = try ReaderTest.makeDirectory()
        defer { ReaderTest.remove(directory) }
        let path = try ReaderTest.makeFile(
            ReaderTest.littleEndianBytes([Float(0.25), -1, 0.5, 1e-3].map(\.bitPattern)), named: "samples.bin",
            in: directory)
        #expect {
            _ = try SampleSources.open(path: path)
        } throws: { error in
            "\(error)".contains("cannot tell how its samples are encoded from the name; pass --sample-type")
        }
    }

    @Test func signaturesAreTheContainersOnly() {
        #expect(SoundFileSignature.matches(Array("OggS\0\u{2}".utf8)))
        #expect(SoundFileSignature.matches(Array("ID3\u{4}".utf8)))
        #expect(SoundFileSignature.matches(Array("RIFF".utf8)))
        // An MPEG frame sync without a tag is what random raw samples look like too.
        #expect(!SoundFileSignature.matches([0xFF, 0xFB, 0x90, 0x64]))
        #expect(!SoundFileSignature.matches(Array("RIF".utf8)))
    }
}
