import CSndfile
import Foundation
import SondeCore
import Testing

@testable import SondeIO

/// Issue 30: a long WAV, AIFF or FLAC file opened by its path can be opened again at any
/// frame with the same samples there, so the graph reads its segments side by side.
@Suite struct ReaderSoundFileReopeningTests {
    /// Two channels of noise, 1.2 M frames: past `InMemorySoundFile.sizeLimit` even as FLAC.
    let shorts: [Int16] = {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        return (0..<(2 * 1_200_000)).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int16(truncatingIfNeeded: state >> 48)
        }
    }()

    @Test(arguments: [
        ("a.wav", SF_FORMAT_WAV | SF_FORMAT_PCM_16), ("a.flac", SF_FORMAT_FLAC | SF_FORMAT_PCM_16),
        ("a.aiff", SF_FORMAT_AIFF | SF_FORMAT_PCM_24),
    ])
    func aFileOpenedAgainAtAFrameGivesTheSamplesFromThere(name: String, format: Int) throws {
        let directory = try ReaderTest.makeDirectory()
        defer { ReaderTest.remove(directory) }
        let path = try ReaderSoundFileTests().writeSoundFile(
            shorts: shorts, channels: 2, rate: 48000, format: Int32(format), named: name, in: directory)
        let whole = try ReaderTest.readAll(try SampleSources.open(path: path), bufferFrames: 65_536)
        #expect(whole.count == shorts.count)
        let original = try SampleSources.open(path: path)
        let reopening = try #require(original.reopening)
        #expect(reopening.frameCount == 1_200_000)
        for frame in [1, 4097, 777_777, 1_199_997] {
            let source = try reopening.open(frame)
            #expect(source.expectedFrames == 1_200_000 - frame)
            let samples = try ReaderTest.readAll(source, bufferFrames: 65_536)
            #expect(samples == Array(whole[(2 * frame)...]), "\(name) from frame \(frame)")
            #expect(source.notes.isEmpty)
        }
        withExtendedLifetime(original) {}
    }

    @Test func shortFilesAndLossyCodecsAreNotOpenedAgain() throws {
        let directory = try ReaderTest.makeDirectory()
        defer { ReaderTest.remove(directory) }
        let path = try ReaderSoundFileTests().writeSoundFile(
            shorts: Array(shorts[0..<2000]), channels: 2, rate: 48000, format: Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_16),
            named: "short.wav", in: directory)
        // Read from memory: reading it whole is cheaper than any second opening.
        #expect(try SampleSources.open(path: path).reopening == nil)
        #expect(SoundFileSampleSource.seeksExactly(format: Int32(SF_FORMAT_FLAC | SF_FORMAT_PCM_24)))
        #expect(SoundFileSampleSource.seeksExactly(format: Int32(SF_FORMAT_WAV | SF_FORMAT_FLOAT)))
        for lossy in [
            SF_FORMAT_OGG | SF_FORMAT_VORBIS, SF_FORMAT_OGG | SF_FORMAT_OPUS, SF_FORMAT_MPEG | SF_FORMAT_MPEG_LAYER_III,
        ] {
            #expect(!SoundFileSampleSource.seeksExactly(format: Int32(lossy)))
        }
    }
}
