import Foundation
import SondeCore
import Testing
import _SondeTestSupport

@testable import SondeIO

/// Raw interleaved little-endian samples: exact scaling and widening, frames across
/// chunk boundaries, the partial last frame.
@Suite struct ReaderRawTests {
    func open(
        _ bytes: [UInt8], named name: String, options: SampleSourceOptions,
        chunkSize: Int = ChunkedInput.defaultChunkSize
    ) throws -> (source: any SampleSource, path: String) {
        let directory = try ReaderTest.makeDirectory()
        defer { ReaderTest.remove(directory) }
        let path = try ReaderTest.makeFile(bytes, named: name, in: directory)
        let input = try OpenedInput.open(path: path)
        let kind = try SampleSources.kind(of: path, options: options)
        return (try SampleSources.open(input, kind: kind, options: options, chunkSize: chunkSize), path)
    }

    @Test(arguments: [1, 3, 4096])
    func int16IsScaledByExactlyTwoToTheMinus15(chunkSize: Int) throws {
        let values: [Int16] = [-32768, 32767, 0, 1, -1, 16384]
        let (source, _) = try open(
            ReaderTest.littleEndianBytes(values), named: "a.i16", options: SampleSourceOptions(sampleRate: 8000),
            chunkSize: chunkSize)
        #expect(source.format == StreamFormat(sampleRate: 8000, channelNames: ["ch0"]))
        #expect(
            try ReaderTest.readAll(source, bufferFrames: 4) == [
                -1.0, 32767.0 / 32768, 0, 1.0 / 32768, -1.0 / 32768, 0.5,
            ])
    }

    @Test(arguments: [1, 5, 4096])
    func int32IsScaledByExactlyTwoToTheMinus31(chunkSize: Int) throws {
        let values: [Int32] = [.min, .max, 0, 1, -2, 1 << 30]
        let (source, _) = try open(
            ReaderTest.littleEndianBytes(values), named: "a.i32le",
            options: SampleSourceOptions(sampleRate: 1, channels: 2),
            chunkSize: chunkSize)
        #expect(source.format.channelNames == ["ch0", "ch1"])
        #expect(
            try ReaderTest.readAll(source, bufferFrames: 2) == [
                -1.0, 2_147_483_647.0 / 2_147_483_648, 0, 1.0 / 2_147_483_648, -2.0 / 2_147_483_648, 0.5,
            ])
    }

    @Test(arguments: [1, 7, 4096])
    func float32IsWidenedExactly(chunkSize: Int) throws {
        let values: [Float] = [0.1, -1.5, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 3.4028e38, -0.0]
        let (source, _) = try open(
            ReaderTest.littleEndianBytes(values.map(\.bitPattern)), named: "a.f32",
            options: SampleSourceOptions(sampleRate: 1, channels: 3), chunkSize: chunkSize)
        let samples = try ReaderTest.readAll(source)
        #expect(samples.map(\.bitPattern) == values.map { Double($0).bitPattern })
        #expect(samples[0] == 0.10000000149011612)
    }

    @Test func float64IsBitForBit() throws {
        let values: [Double] = [0.1, -Double.leastNormalMagnitude / 4, SampleLimits.largestMagnitude, -1e100, 42]
        let (source, _) = try open(
            ReaderTest.littleEndianBytes(values.map(\.bitPattern)), named: "a.F64LE",
            options: SampleSourceOptions(sampleRate: 1))
        #expect(try ReaderTest.readAll(source).map(\.bitPattern) == values.map(\.bitPattern))
    }

    /// Beyond `SampleLimits.largestMagnitude` a sample's spectrum can overflow: refused
    /// with its index, like a NaN.
    @Test(arguments: [Double.greatestFiniteMagnitude, -1.0000000000000002e100, 1e160, .infinity])
    func float64BeyondTheLimitIsRefusedWithItsIndex(_ value: Double) throws {
        let values: [Double] = [0.5, 0.25, 0.125, value, 1]
        let (source, _) = try open(
            ReaderTest.littleEndianBytes(values.map(\.bitPattern)), named: "a.f64",
            options: SampleSourceOptions(sampleRate: 1, channels: 2))
        let error = ReaderTest.error { _ = try ReaderTest.readAll(source) }
        #expect(error?.code == .invalidInput)
        #expect(error?.description.contains("sample 3 (frame 1, channel ch1)") == true, "\(String(describing: error))")
    }

    @Test(arguments: [1, 3, 4096])
    func partialLastFrameIsDroppedWithANote(chunkSize: Int) throws {
        let floats: [Float] = [1, 2, 3, 4, 5]
        let bytes = ReaderTest.littleEndianBytes(floats.map(\.bitPattern)) + [0, 0]  // 22 bytes: 2 frames + 6
        let (source, path) = try open(
            bytes, named: "bearing.f32le", options: SampleSourceOptions(sampleRate: 1, channels: 2),
            chunkSize: chunkSize)
        #expect(try ReaderTest.readAll(source) == [1, 2, 3, 4])
        #expect(source.notes == ["\(path): ignored a partial last frame (6 of 8 bytes)"])
    }

    @Test func wholeFramesGiveNoNote() throws {
        let (source, _) = try open([1, 0, 2, 0], named: "x.s16", options: SampleSourceOptions(sampleRate: 1))
        #expect(try ReaderTest.readAll(source) == [1.0 / 32768, 2.0 / 32768])
        #expect(source.notes.isEmpty)
    }

    @Test func sampleTypeForcesRawWhateverTheName() throws {
        let (source, _) = try open(
            ReaderTest.littleEndianBytes([Int16(-32768)]), named: "looks.csv",
            options: SampleSourceOptions(sampleRate: 1, sampleType: .i16le))
        #expect(try ReaderTest.readAll(source) == [-1])
    }

    @Test func nonFiniteFloatsAreRejected() throws {
        let values: [Float] = [1, 2, 3, .nan]
        let (source, path) = try open(
            ReaderTest.littleEndianBytes(values.map(\.bitPattern)), named: "n.f32",
            options: SampleSourceOptions(sampleRate: 1, channels: 2))
        let error = ReaderTest.error { _ = try ReaderTest.readAll(source) }
        #expect(error?.code == .invalidInput)
        #expect(error?.message == "\(path): sample 3 (frame 1, channel ch1) is nan; expected a finite number")
    }

    /// The eight-wide path against the scalar definition: every bit pattern class (normal,
    /// subnormal, ±0, extremes) widens exactly, and a NaN or infinity anywhere, in the
    /// vector body or the tail, is noticed.
    @Test func float32WideningMatchesTheScalarConversionAndFindsEveryNonFinite() {
        var random = SplitMix64(seed: 32)
        let count = 8 * 9 + 5
        var bits = (0..<count).map { _ in
            UInt32(truncatingIfNeeded: random.next()) & 0x7F7F_FFFF | (random.next() & 1 == 0 ? 0 : 0x8000_0000)
        }
        bits[3] = Float.leastNonzeroMagnitude.bitPattern
        bits[4] = (-0.0 as Float).bitPattern
        bits[5] = Float.greatestFiniteMagnitude.bitPattern
        var widened = [Double](repeating: 0, count: count)
        let finite = bits.withUnsafeBytes { raw in
            widened.withUnsafeMutableBufferPointer {
                SampleFormat.widenFloat32(from: raw.baseAddress!, into: $0.baseAddress!, count: count)
            }
        }
        #expect(finite)
        #expect(widened.map(\.bitPattern) == bits.map { Double(Float(bitPattern: $0)).bitPattern })
        for position in 0..<count {
            for bad in [Float.nan, .infinity, -.infinity] {
                var poisoned = bits
                poisoned[position] = bad.bitPattern
                let finite = poisoned.withUnsafeBytes { raw in
                    widened.withUnsafeMutableBufferPointer {
                        SampleFormat.widenFloat32(from: raw.baseAddress!, into: $0.baseAddress!, count: count)
                    }
                }
                #expect(!finite, "missed \(bad) at \(position)")
            }
        }
    }

    @Test func bigFileCrossesTheRealChunkBoundaries() throws {
        let count = (3 << 20) / 2 + 3
        let values = (0..<count).map { Int16(truncatingIfNeeded: $0 &* 7919) }
        let (source, _) = try open(
            ReaderTest.littleEndianBytes(values), named: "big.i16",
            options: SampleSourceOptions(sampleRate: 1, channels: 1))
        #expect((source as? RawSampleSource)?.expectedFrames == count)
        let samples = try ReaderTest.readAll(source, bufferFrames: 100_003)
        let exact = samples == values.map { Double($0) / 32768 }
        #expect(exact)
    }

    @Test func standardInputWithSampleType() throws {
        let input = try ReaderTest.pipeInput(ReaderTest.littleEndianBytes([Int32(1 << 30), Int32.min, 7]))
        let source = try SampleSources.open(
            input, kind: .raw(.i32le), options: SampleSourceOptions(sampleRate: 2, channels: 2), chunkSize: 3)
        #expect(try ReaderTest.readAll(source) == [0.5, -1])
        #expect(source.notes == ["stdin: ignored a partial last frame (4 of 8 bytes)"])
    }
}
