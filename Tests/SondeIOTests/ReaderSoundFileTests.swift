import CSndfile
import Foundation
import SondeCore
import Testing

@testable import SondeIO

/// WAV, FLAC and AIFF through libsndfile: normalisation, unclipped floats, truncation.
@Suite struct ReaderSoundFileTests {
    /// Writes interleaved samples with libsndfile in `format` (SF_FORMAT_* major | subtype):
    /// Doubles for float encodings, Int16 for PCM (libsndfile would scale Doubles by 32767).
    func writeSoundFile(
        doubles: [Double] = [], shorts: [Int16] = [], channels: Int, rate: Int, format: Int32, named name: String,
        in directory: URL
    ) throws -> String {
        let path = directory.appendingPathComponent(name).path
        var info = SF_INFO()
        info.samplerate = Int32(rate)
        info.channels = Int32(channels)
        info.format = format
        let file = try #require(sf_open(path, Int32(SFM_WRITE), &info), "\(String(cString: sf_strerror(nil)))")
        defer { sf_close(file) }
        sf_command(file, Int32(SFC_SET_CLIPPING), nil, Int32(SF_FALSE))
        var doubles = doubles
        var shorts = shorts
        let frames = (doubles.count + shorts.count) / channels
        let written =
            doubles.isEmpty
            ? sf_writef_short(file, &shorts, sf_count_t(frames)) : sf_writef_double(file, &doubles, sf_count_t(frames))
        #expect(written == frames)
        return path
    }

    /// A 16-bit PCM WAV written byte by byte: header, then the samples.
    func pcm16WAV(_ samples: [Int16], channels: Int, rate: Int) -> [UInt8] {
        let data = ReaderTest.littleEndianBytes(samples)
        var bytes: [UInt8] = Array("RIFF".utf8) + ReaderTest.littleEndianBytes([UInt32(36 + data.count)])
        bytes += Array("WAVEfmt ".utf8) + ReaderTest.littleEndianBytes([UInt32(16)])
        bytes += ReaderTest.littleEndianBytes([UInt16(1), UInt16(channels)])
        bytes += ReaderTest.littleEndianBytes([UInt32(rate), UInt32(rate * channels * 2)])
        bytes += ReaderTest.littleEndianBytes([UInt16(channels * 2), UInt16(16)])
        bytes += Array("data".utf8) + ReaderTest.littleEndianBytes([UInt32(data.count)]) + data
        return bytes
    }

    @Test func pcm16WAVIsNormalisedLikeRawInt16() throws {
        let directory = try ReaderTest.makeDirectory()
        defer { ReaderTest.remove(directory) }
        let path = try ReaderTest.makeFile(
            pcm16WAV([-32768, 32767, 0, 1, 16384, -16384], channels: 2, rate: 44100), named: "a.wav", in: directory)
        let source = try SampleSources.open(path: path)
        #expect(source.format == StreamFormat(sampleRate: 44100, channelNames: ["ch0", "ch1"]))
        #expect(try ReaderTest.readAll(source, bufferFrames: 2) == [-1, 32767.0 / 32768, 0, 1.0 / 32768, 0.5, -0.5])
        #expect(source.notes.isEmpty)
        #expect((source as? SoundFileSampleSource)?.expectedFrames == 3)
    }

    /// The shorts are widened eight at a time in the buffer they were read into: every
    /// value, the extremes included, comes out exact whatever the read's size (whole blocks
    /// of eight, a tail, a read shorter than asked for at the end).
    @Test(arguments: [1, 7, 8, 37, 300, 4096])
    func pcm16WidensExactlyInBlocksAndTails(bufferFrames: Int) throws {
        let directory = try ReaderTest.makeDirectory()
        defer { ReaderTest.remove(directory) }
        let values = [Int16.min, Int16.max, 0, -1] + (0..<2003).map { Int16(truncatingIfNeeded: $0 &* 40_503) }
        let path = try ReaderTest.makeFile(pcm16WAV(values, channels: 1, rate: 8000), named: "a.wav", in: directory)
        let samples = try ReaderTest.readAll(try SampleSources.open(path: path), bufferFrames: bufferFrames)
        #expect(samples.map(\.bitPattern) == values.map { (Double($0) / 32768).bitPattern })
    }

    @Test func rateOptionOverridesTheHeader() throws {
        let directory = try ReaderTest.makeDirectory()
        defer { ReaderTest.remove(directory) }
        let path = try ReaderTest.makeFile(pcm16WAV([1, 2], channels: 1, rate: 8000), named: "a.WAV", in: directory)
        let source = try SampleSources.open(path: path, options: SampleSourceOptions(sampleRate: 100))
        #expect(source.format.sampleRate == 100)
    }

    @Test func floatWAVIsNotClippedOrScaled() throws {
        let directory = try ReaderTest.makeDirectory()
        defer { ReaderTest.remove(directory) }
        let values: [Double] = [1.5, -2.25, 0.1, 1e-3, 100]
        let path = try writeSoundFile(
            doubles: values, channels: 1, rate: 48000, format: Int32(SF_FORMAT_WAV | SF_FORMAT_FLOAT), named: "f.wav",
            in: directory)
        let source = try SampleSources.open(path: path)
        #expect(try ReaderTest.readAll(source) == values.map { Double(Float($0)) })
        let doublePath = try writeSoundFile(
            doubles: values, channels: 1, rate: 48000, format: Int32(SF_FORMAT_WAV | SF_FORMAT_DOUBLE), named: "d.wav",
            in: directory)
        #expect(try ReaderTest.readAll(try SampleSources.open(path: doublePath)) == values)
    }

    @Test(arguments: [("a.flac", SF_FORMAT_FLAC), ("a.aiff", SF_FORMAT_AIFF), ("a.aif", SF_FORMAT_AIFF)])
    func flacAndAIFF(_ name: String, _ major: Int) throws {
        let directory = try ReaderTest.makeDirectory()
        defer { ReaderTest.remove(directory) }
        let values = (0..<2000).map { Int16(truncatingIfNeeded: $0 &* 997) }
        let path = try writeSoundFile(
            shorts: values, channels: 2, rate: 22050, format: Int32(major | SF_FORMAT_PCM_16), named: name,
            in: directory)
        let source = try SampleSources.open(path: path)
        #expect(source.format == StreamFormat(sampleRate: 22050, channelNames: ["ch0", "ch1"]))
        let samples = try ReaderTest.readAll(source, bufferFrames: 300)
        let exact = samples == values.map { Double($0) / 32768 }
        #expect(exact)
    }

    @Test(arguments: [1001, 1000])
    func truncatedWAVGivesItsCompleteFramesAndANote(cut: Int) throws {
        let directory = try ReaderTest.makeDirectory()
        defer { ReaderTest.remove(directory) }
        let samples = (0..<2000).map { Int16($0) }
        let whole = pcm16WAV(samples, channels: 2, rate: 8000)
        // 1001 bytes off ends mid-frame (2999 data bytes = 749 frames + 3 bytes); 1000: 750.
        let path = try ReaderTest.makeFile(Array(whole.dropLast(cut)), named: "cut.wav", in: directory)
        let source = try SampleSources.open(path: path)
        let frames = cut == 1001 ? 749 : 750
        let read = try ReaderTest.readAll(source, bufferFrames: 100)
        let exact = read == samples.prefix(frames * 2).map { Double($0) / 32768 }
        #expect(exact)
        #expect(
            source.notes == [
                "\(path): the file is shorter than its header says (the sample data is cut short); "
                    + "used the \(frames) complete frames"
            ])
    }

    @Test func truncatedFLACGivesWhatDecodesAndANote() throws {
        let directory = try ReaderTest.makeDirectory()
        defer { ReaderTest.remove(directory) }
        let values = (0..<40000).map { Int16(truncatingIfNeeded: $0 &* 31) }
        let path = try writeSoundFile(
            shorts: values, channels: 2, rate: 8000, format: Int32(SF_FORMAT_FLAC | SF_FORMAT_PCM_16), named: "a.flac",
            in: directory)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: path))
        let source = try SampleSources.open(path: path)
        let samples = try ReaderTest.readAll(source)
        #expect(samples.count < values.count)
        let prefixMatches = samples == values.prefix(samples.count).map { Double($0) / 32768 }
        #expect(prefixMatches)
        #expect(source.notes.count == 1)
        #expect(source.notes.first?.contains("the file ends early (its header announces 20000 frames)") == true)
    }

    /// Issue 23: a FLAC whose frames libsndfile cannot decode was 0 records, exit 0 and a
    /// note; it is an error naming the file.
    enum Damage: String, CaseIterable, Sendable {
        /// Every byte after the metadata flipped: no frame decodes (the file).
        case everyFrame
        /// A stretch of 400 bytes flipped: a frame's CRC fails.
        case oneStretch
    }

    @Test(arguments: Damage.allCases)
    func byteFlippedFLACIsAnError(damage: Damage) throws {
        let directory = try ReaderTest.makeDirectory()
        defer { ReaderTest.remove(directory) }
        let values = (0..<8000).map { Int16(truncatingIfNeeded: $0 &* 37) }
        let path = try writeSoundFile(
            shorts: values, channels: 1, rate: 8000, format: Int32(SF_FORMAT_FLAC | SF_FORMAT_PCM_16), named: "a.flac",
            in: directory)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let start = 120
        let end = damage == .everyFrame ? bytes.count : start + 400
        for index in start..<end { bytes[index] ^= 0xFF }
        try bytes.write(to: URL(fileURLWithPath: path))
        let error = ReaderTest.error {
            let source = try SampleSources.open(path: path)
            _ = try ReaderTest.readAll(source)
        }
        #expect(error?.code == .invalidInput)
        #expect(error?.description.hasPrefix("\(path): libsndfile ") == true, "\(String(describing: error))")
    }

    @Test func notASoundFileSaysWhatLibsndfileSays() throws {
        let directory = try ReaderTest.makeDirectory()
        defer { ReaderTest.remove(directory) }
        let path = try ReaderTest.makeFile("time,x\n0,1\n", named: "fake.wav", in: directory)
        let error = ReaderTest.error { _ = try SampleSources.open(path: path) }
        #expect(error?.code == .invalidInput)
        #expect(error?.description.hasPrefix("\(path): libsndfile cannot read it (") == true)
        #expect(error?.description.hasSuffix("); expected a WAV, FLAC, AIFF or Ogg file") == true)
    }

    @Test func channelsOptionMustMatch() throws {
        let directory = try ReaderTest.makeDirectory()
        defer { ReaderTest.remove(directory) }
        let path = try ReaderTest.makeFile(pcm16WAV([1, 2], channels: 2, rate: 8000), named: "a.wav", in: directory)
        let error = ReaderTest.error {
            _ = try SampleSources.open(path: path, options: SampleSourceOptions(channels: 1))
        }
        #expect(error?.description == "--channels 1: \(path) has 2 channels")
    }
}
