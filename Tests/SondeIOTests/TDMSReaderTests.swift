import Foundation
import Testing
import _SondeTestSupport

@testable import SondeIO

/// The TDMS reader against what npTDMS 1.13.0 reads from the same files
/// (Tests/Fixtures/tdms/generate_tdms.py): the channel list, every value bit for bit, reads in
/// small slabs from several frames, and each refusal's message.
@Suite struct TDMSReaderTests {
    /// One line of `<name>.expected.tsv`: a channel as npTDMS lists it, and its values' file.
    struct Expected {
        let path: String
        let type: String
        let count: Int
        /// `expected/<name>/<n>.f64`, nil for a non-numeric channel.
        let values: String?
    }

    static let goodFiles = [
        "types", "incremental", "interleaved", "bigendian", "unterminated", "unterminated_interleaved", "properties",
    ]

    static func url(_ name: String) -> URL { Fixtures.directory.appendingPathComponent("tdms/" + name) }

    static func open(_ name: String) throws -> TDMSFile { try TDMSFile(path: url(name + ".tdms").path) }

    static func expected(_ name: String) throws -> [Expected] {
        let text = try String(contentsOf: url(name + ".expected.tsv"), encoding: .utf8)
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            return Expected(
                path: fields[0], type: fields[1], count: Int(fields[2]) ?? -1,
                values: fields[3] == "-" ? nil : fields[3])
        }
    }

    /// npTDMS's values as bit patterns.
    static func bits(_ name: String, _ file: String) throws -> [UInt64] {
        let data = try Data(contentsOf: url("expected/\(name)/\(file)"))
        return stride(from: 0, to: data.count, by: 8).map { start in
            data[start..<(start + 8)].reversed().reduce(0) { $0 << 8 | UInt64($1) }
        }
    }

    /// Channels sonde reads (npTDMS's scaled channel is refused, see `refusesScaledChannels`).
    static func readable(_ file: TDMSFile, _ channel: Expected) -> Bool {
        channel.values != nil && channel.count > 0 && !channel.path.hasSuffix("/scaled")
    }

    /// Reads `selection` from `frame` to the end, `bufferFrames` frames at a time.
    static func readAll(
        _ file: TDMSFile, _ selection: [Int], from frame: Int, bufferFrames: Int,
        slabBytes: Int = TDMSChannelReader.defaultSlabBytes
    ) throws -> [Double] {
        let reader = try TDMSChannelReader(file: file, channels: selection, slabBytes: slabBytes)
        var buffer = [Double](repeating: .nan, count: bufferFrames * selection.count)
        var samples: [Double] = []
        var next = frame
        while true {
            let frames = try buffer.withUnsafeMutableBufferPointer { try reader.read(from: next, into: $0) }
            if frames == 0 { break }
            samples += buffer[0..<(frames * selection.count)]
            next += frames
        }
        return samples
    }

    @Test(arguments: goodFiles)
    func listsTheChannelsNpTDMSLists(name: String) throws {
        let file = try Self.open(name)
        let expected = try Self.expected(name)
        #expect(file.channels.map(\.path) == expected.map(\.path))
        #expect(file.channels.map(\.dataType.name) == expected.map(\.type))
        #expect(file.channels.map(\.count) == expected.map(\.count))
    }

    @Test(arguments: goodFiles)
    func everyValueIsBitIdenticalToNpTDMS(name: String) throws {
        let file = try Self.open(name)
        for (index, channel) in try Self.expected(name).enumerated() where Self.readable(file, channel) {
            let want = try Self.bits(name, channel.values ?? "")
            let got = try Self.readAll(file, [index], from: 0, bufferFrames: 4096)
            #expect(got.map(\.bitPattern) == want, "\(name): \(channel.path)")
        }
    }

    /// Channels of one length read together, from several frames, with buffers of a few frames:
    /// buffers and `pread` slabs cross chunk and segment boundaries.
    @Test(arguments: [(1, 16), (2, 24), (3, 1 << 16), (5, 40), (7, 1 << 16), (64, 16), (64, 1 << 16)])
    func slabsFromAnyFrameMatchNpTDMS(bufferFrames: Int, slabBytes: Int) throws {
        for name in Self.goodFiles {
            let file = try Self.open(name)
            let expected = try Self.expected(name)
            let byLength = Dictionary(
                grouping: expected.indices.filter { Self.readable(file, expected[$0]) }, by: { expected[$0].count })
            for (count, selection) in byLength {
                let columns = try selection.map { try Self.bits(name, expected[$0].values ?? "") }
                for start in Set([0, 1, 4, count / 2, count - 1, count]) where start <= count {
                    let got = try Self.readAll(
                        file, selection, from: start, bufferFrames: bufferFrames, slabBytes: slabBytes)
                    let want = (start..<count).flatMap { frame in columns.map { $0[frame] } }
                    #expect(
                        got.map(\.bitPattern) == want,
                        "\(name) from frame \(start), \(bufferFrames) frames a read, \(slabBytes)-byte slabs")
                }
            }
        }
    }

    @Test func propertiesAndWaveformTiming() throws {
        let types = try Self.open("types")
        let int8 = types.channels[try types.channelIndex(named: "types/int8")]
        #expect(int8.waveformIncrement == 0.001)
        // 2024-03-01T12:00:00.25 UTC.
        #expect(int8.waveformStartTime?.unixTime == 1_709_294_400.25)
        #expect(types.fileProperties["title"] == .string("every numeric type"))
        #expect(types.groupProperties["types"]?["part"] == .integer(1))
        #expect(try types.sampleRate(ofChannels: [0, 1]) == 1 / 0.001)
        #expect(types.version == 4712 && types.segmentCount == 2 && types.notes.isEmpty)

        let incremental = try Self.open("incremental")
        let a = incremental.channels[try incremental.channelIndex(named: "g/a")]
        #expect(a.properties["unit"] == .string("mV"))
        #expect(incremental.segmentCount == 5)
        #expect(try incremental.sampleRate(ofChannels: [0]) == 2)

        let cut = try Self.open("unterminated")
        #expect(
            cut.notes == [
                "\(Self.url("unterminated.tdms").path): segment 1 at byte 179 has no recorded length (next-segment "
                    + "offset 0xFFFFFFFFFFFFFFFF: its writer stopped); read 2 whole chunks and 35 bytes of a partial "
                    + "one to the end of the file, as npTDMS does"
            ])
    }

    @Test(arguments: [
        (
            "bad_truncated",
            "segment 0 at byte 0: the lead-in says the segment runs 2357 bytes past its lead-in, "
                + "but only 939 remain in the file"
        ),
        ("bad_truncated_leadin", "segment 1 at byte 145: the file ends 10 bytes into a lead-in; expected 28 bytes"),
        (
            "bad_next_offset",
            "segment 0 at byte 0: the lead-in says the segment runs 1117 bytes past its lead-in, "
                + "but only 117 remain in the file"
        ),
        (
            "bad_raw_offset",
            "segment 0 at byte 0: the raw data offset (125 bytes after the lead-in) lies past the "
                + "segment's end (117 bytes after it)"
        ),
        (
            "bad_partial_chunk",
            "segment 0 at byte 0: the lead-in gives 43 bytes of raw data, not a whole number of "
                + "48-byte chunks"
        ),
        ("bad_tag", "segment 0 at byte 0: expected a segment's tag \"TDSm\", found \"TDSx\""),
        (
            "bad_daqmx",
            "segment 0 at byte 0: the segment holds DAQmx raw data (kTocDAQmxRawData), which sonde does "
                + "not read"
        ),
        (
            "bad_metadata",
            "segment 0 at byte 36: the metadata's object path needs 4000 bytes, but the metadata ends "
                + "61 bytes later"
        ),
    ])
    func badFilesAreRefusedSayingWhere(name: String, message: String) throws {
        let path = Self.url(name + ".tdms").path
        let error = #expect(throws: ContainerError.self) { try TDMSFile(path: path) }
        #expect(error?.description.hasPrefix(path + ": " + message) == true, "\(error?.description ?? "")")
    }

    @Test func refusesWhatItListsButDoesNotRead() throws {
        let types = try Self.open("types")
        for name in ["other/labels", "other/flags", "other/stamps"] {
            let index = try types.channelIndex(named: name)
            let error = #expect(throws: ContainerError.self) { try TDMSChannelReader(file: types, channels: [index]) }
            #expect(error?.kind == .unsupported)
            #expect(error?.description.contains("channel '\(name)' holds") == true)
        }
        let missing = #expect(throws: ContainerError.self) { try types.channelIndex(named: "types/int128") }
        #expect(
            missing?.message == "no channel 'types/int128'; the file's channels are: types/int8, types/int16, "
                + "types/int32, types/int64, types/uint8, types/uint16, types/uint32, types/uint64, types/float32, "
                + "types/float64, other/labels, other/flags, other/stamps")
    }

    @Test func refusesScaledChannels() throws {
        let file = try Self.open("properties")
        let index = try file.channelIndex(named: "rates/scaled")
        let error = #expect(throws: ContainerError.self) { try TDMSChannelReader(file: file, channels: [index]) }
        #expect(
            error?.message == "channel 'rates/scaled' carries NI scaling (1 scale, the first Linear, on the channel) "
                + "that sonde does not apply; npTDMS would return scaled values: store them scaled "
                + "(NI_Scaling_Status \"scaled\") instead")
    }

    @Test func refusesBadRatesEmptyChannelsAndUnequalLengths() throws {
        let file = try Self.open("properties")
        func index(_ name: String) throws -> Int { try file.channelIndex(named: "rates/" + name) }
        let zero = #expect(throws: ContainerError.self) { try file.sampleRate(ofChannels: [try index("zero")]) }
        #expect(zero?.message.hasPrefix("channel 'rates/zero' has wf_increment 0.0; expected a positive") == true)
        let nan = #expect(throws: ContainerError.self) { try file.sampleRate(ofChannels: [try index("nan")]) }
        #expect(nan?.message.hasPrefix("channel 'rates/nan' has wf_increment nan; expected a positive") == true)
        let differ = #expect(throws: ContainerError.self) {
            try file.sampleRate(ofChannels: [try index("ok"), try index("slow")])
        }
        #expect(differ?.message.hasPrefix("channels 'rates/ok' (wf_increment 0.001 s) and 'rates/slow'") == true)
        let empty = #expect(throws: ContainerError.self) {
            try TDMSChannelReader(file: file, channels: [try index("empty")])
        }
        #expect(empty?.message == "channel 'rates/empty' has no values; expected at least one")
        let lengths = #expect(throws: ContainerError.self) {
            try TDMSChannelReader(file: file, channels: [try index("ok"), try index("short")])
        }
        #expect(
            lengths?.message == "channels 'rates/ok' (5 values) and 'rates/short' (3 values) differ in length; "
                + "expected channels read together to have the same number of values")
        let reader = try TDMSChannelReader(file: file, channels: [try index("ok")])
        var buffer = [Double](repeating: 0, count: 4)
        let outside = #expect(throws: ContainerError.self) {
            try buffer.withUnsafeMutableBufferPointer { try reader.read(from: 6, into: $0) }
        }
        #expect(outside?.message == "frame 6 is outside the channels' 0...5; expected one inside")
        #expect(buffer == [0, 0, 0, 0])
    }
}
