import Foundation
import Testing
import _SondeTestSupport

@testable import SondeIO

/// The MAT reader against what scipy.io.loadmat (v4, v5, v7) and h5py (v7.3) read from the
/// same files (Tests/Fixtures/mat/generate_mat.py): the catalogue, every value bit for bit, reads
/// in small slabs from several frames, both orientations, and each refusal's message.
@Suite struct MATReaderTests {
    /// One line of `<name>.expected.tsv`.
    struct Expected {
        let path: String
        let matClass: String
        let dimensions: String
        /// `expected/<name>/<path>.f64`: loadmat's array, column by column; nil when not read.
        let values: String?
    }

    static let goodFiles = [
        "types_v4", "types_v5", "types_v7", "structs_v5", "structs_v7", "types_v73", "structs_v73",
    ]

    static func url(_ name: String) -> URL { Fixtures.directory.appendingPathComponent("mat/" + name) }

    static func open(_ name: String) throws -> MATFile { try MATFile(path: url(name + ".mat").path) }

    static func expected(_ name: String) throws -> [Expected] {
        let text = try String(contentsOf: url(name + ".expected.tsv"), encoding: .utf8)
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            return Expected(
                path: fields[0], matClass: fields[1], dimensions: fields[2], values: fields[3] == "-" ? nil : fields[3])
        }
    }

    /// loadmat's values as bit patterns, column by column.
    static func bits(_ name: String, _ file: String) throws -> [UInt64] {
        let data = try Data(contentsOf: url("expected/\(name)/\(file)"))
        return stride(from: 0, to: data.count, by: 8).map { start in
            data[start..<(start + 8)].reversed().reduce(0) { $0 << 8 | UInt64($1) }
        }
    }

    /// Reads `reader` from `frame` to the end, `bufferFrames` frames at a time.
    /// Where two sequences of bit patterns first differ, for a short message.
    static func firstDifference(_ got: [UInt64], _ want: [UInt64]) -> String {
        guard let index = (0..<min(got.count, want.count)).first(where: { got[$0] != want[$0] }) else {
            return got.count == want.count ? "equal" : "\(got.count) values, expected \(want.count)"
        }
        return "value \(index) is \(Double(bitPattern: got[index])), expected \(Double(bitPattern: want[index]))"
    }

    static func readAll(_ reader: MATChannelReader, from frame: Int, bufferFrames: Int) throws -> [UInt64] {
        var buffer = [Double](repeating: .nan, count: bufferFrames * reader.channels.count)
        var samples: [UInt64] = []
        var next = frame
        while true {
            let frames = try buffer.withUnsafeMutableBufferPointer { try reader.read(from: next, into: $0) }
            if frames == 0 { break }
            samples += buffer[0..<(frames * reader.channels.count)].map(\.bitPattern)
            next += frames
        }
        return samples
    }

    /// The expected channels of one variable under an orientation: columns or rows of loadmat's array.
    static func columns(
        _ name: String, _ entry: Expected, orientation: ArrayOrientation
    ) throws -> [[UInt64]] {
        let all = try bits(name, entry.values ?? "")
        let dims = entry.dimensions.split(separator: "x").compactMap { Int($0) }
        let (rows, columns) = (dims[0], dims[1])
        let column = { (c: Int) in Array(all[(c * rows)..<((c + 1) * rows)]) }
        if orientation.samplesAlongRows(rows: rows, columns: columns) { return (0..<columns).map(column) }
        return (0..<rows).map { r in (0..<columns).map { all[$0 * rows + r] } }
    }

    @Test(arguments: goodFiles)
    func catalogueListsWhatLoadmatReads(name: String) throws {
        let file = try Self.open(name)
        for entry in try Self.expected(name) {
            let variable = try file.variable(entry.path)
            // v4 keeps every numeric matrix as class double (loadmat returns the stored type).
            let matClass = name == "types_v4" ? "double" : entry.matClass
            #expect(variable.classDescription == matClass, "\(name): \(entry.path)")
            #expect(variable.dimensionsDescription == entry.dimensions, "\(name): \(entry.path)")
            #expect(variable.isCompressed == name.hasSuffix("_v7"), "\(name): \(entry.path)")
        }
        #expect(file.version == (name == "types_v4" ? .v4 : name.hasSuffix("_v73") ? .v73 : .v5))
    }

    @Test func catalogueOfEveryKind() throws {
        let catalogue = try MATCatalogue(path: Self.url("types_v5.mat").path)
        #expect(catalogue.header == "MATLAB 5.0 MAT-file Platform: posix, Created on: Sat Nov 28 00:00:00 2026")
        #expect(
            catalogue.variables.map { "\($0.path) \($0.classDescription) \($0.dimensionsDescription)" }.suffix(6) == [
                "label char 1x11", "flags logical 48x1", "z complex double 48x1", "sp sparse 48x4", "c cell 2x1",
                "e double 0x0",
            ])
        #expect(catalogue.scalars.map(\.path) == ["fs", "rpm", "zero_rate", "nan_rate"])
        #expect(catalogue.scalars.prefix(3).map(\.value) == [12000, 1797, 0])
        #expect(catalogue.scalars[3].value?.isNaN == true)
        #expect(catalogue.readable.count == 18)
        let structs = try MATCatalogue(path: Self.url("structs_v7.mat").path)
        #expect(
            structs.variables.prefix(9).map(\.path) == [
                "bearing", "bearing.gs", "bearing.sr", "bearing.load", "bearing.rate", "N15_M07", "N15_M07.Info",
                "N15_M07.Y", "N15_M07.Y(1).Name",
            ])
    }

    @Test(arguments: goodFiles)
    func everyVariableIsBitIdenticalToLoadmat(name: String) throws {
        let file = try Self.open(name)
        for entry in try Self.expected(name) where entry.values != nil {
            for orientation in ArrayOrientation.allCases {
                let reader = try MATChannelReader(file: file, variables: [entry.path], orientation: orientation)
                let want = try Self.columns(name, entry, orientation: orientation)
                let got = try Self.readAll(reader, from: 0, bufferFrames: 4096)
                let frames = want[0].count
                let interleaved = (0..<frames).flatMap { frame in want.map { $0[frame] } }
                #expect(
                    got == interleaved,
                    "\(name): \(entry.path) \(orientation): \(Self.firstDifference(got, interleaved))")
            }
        }
    }

    /// Variables of one length read together, from several frames, a few frames a read and
    /// scratch slabs smaller than a read.
    @Test(arguments: [(1, 8), (3, 24), (5, 1 << 20), (7, 40), (64, 16), (64, 1 << 20)])
    func slabsFromAnyFrameMatchLoadmat(bufferFrames: Int, slabBytes: Int) throws {
        for name in Self.goodFiles {
            let file = try Self.open(name)
            let entries = try Self.expected(name).filter { $0.values != nil && $0.dimensions != "1x1" }
            let byLength = Dictionary(grouping: entries) { entry in
                try? Self.columns(name, entry, orientation: .longerDimension)[0].count
            }
            for (count, group) in byLength {
                guard let count else { continue }
                let reader = try MATChannelReader(file: file, variables: group.map(\.path), slabBytes: slabBytes)
                let columns = try group.flatMap { try Self.columns(name, $0, orientation: .longerDimension) }
                for start in Set([0, 1, 4, count / 2, count - 1, count]) {
                    let got = try Self.readAll(reader, from: start, bufferFrames: bufferFrames)
                    let want = (start..<count).flatMap { frame in columns.map { $0[frame] } }
                    #expect(
                        got == want,
                        """
                        \(name) \(group.map(\.path)) from \(start), \(bufferFrames) frames a read, \(slabBytes)-byte \
                        slabs: \(Self.firstDifference(got, want))
                        """)
                }
            }
        }
    }

    @Test func defaultChoiceTakesTheMostCommonLengthAndSaysSo() throws {
        let reader = try MATChannelReader(file: try Self.open("types_v5"), variables: nil)
        #expect(reader.frameCount == 48)
        #expect(reader.channels.count == 18)
        #expect(reader.channels.map(\.name).suffix(2) == ["m_int16(:,1)", "m_int16(:,2)"])
        #expect(
            reader.notes == [
                "read x_double, x_single, x_int8, x_int16, x_int32, x_int64, x_uint8, x_uint16, x_uint32, x_uint64, "
                    + "m_samples_by_channels, m_channels_by_samples, m_int16 (48 samples each); skipped short "
                    + "(10 samples), label (char), flags (logical), z (complex double), sp (sparse), c (cell), e "
                    + "(double); choose with --variables"
            ])
        let names = try MATChannelReader(
            file: try Self.open("types_v5"), variables: ["m_samples_by_channels", "m_channels_by_samples"]
        ).channels.map(\.name)
        #expect(
            names == [
                "m_samples_by_channels(:,1)", "m_samples_by_channels(:,2)", "m_samples_by_channels(:,3)",
                "m_channels_by_samples(1,:)", "m_channels_by_samples(2,:)", "m_channels_by_samples(3,:)",
            ])
    }

    @Test(arguments: ["structs_v5", "structs_v7", "types_v73", "structs_v73"])
    func sampleRateFromAScalarVariable(name: String) throws {
        let file = try Self.open(name)
        #expect(try file.sampleRate(variable: "bearing.sr") == 48828)
        let missing = #expect(throws: ContainerError.self) { try file.sampleRate(variable: nil) }
        #expect(missing?.message.hasPrefix("no sample rate: give one with --rate, or name the scalar") == true)
        #expect(missing?.message.contains("bearing.sr = 48828.0") == true)
    }

    @Test func refusesBadRates() throws {
        let file = try Self.open("types_v5")
        #expect(try file.sampleRate(variable: "fs") == 12000)
        let zero = #expect(throws: ContainerError.self) { try file.sampleRate(variable: "zero_rate") }
        #expect(zero?.message == "'zero_rate' is 0.0; expected a positive, finite sample rate in Hz")
        let nan = #expect(throws: ContainerError.self) { try file.sampleRate(variable: "nan_rate") }
        #expect(nan?.message == "'nan_rate' is nan; expected a positive, finite sample rate in Hz")
        let vector = #expect(throws: ContainerError.self) { try file.sampleRate(variable: "x_double") }
        #expect(vector?.message == "'x_double' is double 48x1; expected one real number (1x1)")
    }

    @Test(arguments: [
        ("label", "'label' is char (text); sonde reads numeric arrays"),
        ("flags", "'flags' is logical; sonde reads numeric arrays (store it as double or uint8)"),
        ("z", "'z' is complex; sonde reads real arrays"),
        ("sp", "'sp' is sparse; sonde reads full arrays (store it with full())"),
        ("c", "'c' is a cell array; name a numeric array inside a struct instead"),
        ("e", "'e' is empty (0x0); expected at least one value"),
    ])
    func refusesWhatItListsButDoesNotRead(variable: String, message: String) throws {
        for name in ["types_v5", "types_v7"] {
            let file = try Self.open(name)
            let error = #expect(throws: ContainerError.self) { try MATChannelReader(file: file, variables: [variable]) }
            #expect(error?.message == message)
        }
    }

    @Test func refusesMissingVariablesListingThoseThatExist() throws {
        let file = try Self.open("structs_v5")
        let missing = #expect(throws: ContainerError.self) {
            try MATChannelReader(file: file, variables: ["X105_DE_time"])
        }
        #expect(
            missing?.message.hasPrefix(
                "no variable 'X105_DE_time'; the file has: bearing (struct 1x1), "
                    + "bearing.gs (double 60x1), bearing.sr (double 1x1)") == true)
        let field = #expect(throws: ContainerError.self) { try file.variable("bearing.gz") }
        #expect(field?.message == "struct 'bearing' has no field 'gz'; its fields are: gs, sr, load, rate")
        let element = #expect(throws: ContainerError.self) { try file.variable("N15_M07.Y.Data") }
        #expect(
            element?.message == "'N15_M07.Y' is a 1x7 struct array; name one element, e.g. N15_M07.Y(1).Data")
        let beyond = #expect(throws: ContainerError.self) { try file.variable("N15_M07.Y(8).Data") }
        #expect(beyond?.message == "'N15_M07.Y' has 7 elements; element 8 does not exist")
        let lengths = #expect(throws: ContainerError.self) {
            try MATChannelReader(file: file, variables: ["N15_M07.Y(1).Data", "N15_M07.Y(2).Data"])
        }
        #expect(
            lengths?.message == "channels 'N15_M07.Y(1).Data' (16 samples) and 'N15_M07.Y(2).Data' (64 samples) "
                + "differ in length; expected channels read together to have the same number of samples")
    }

    /// v7.3 keeps a struct array's fields as object references into `/#refs#`: libmatio 1.5.23
    /// follows them, so `Y(k).Data` reads as in v5, and the same messages guide a wrong path.
    @Test func structArraysOfVersion73ReadAsVersion5() throws {
        let v73 = try Self.open("structs_v73")
        let v5 = try Self.open("structs_v5")
        #expect(
            v73.variables.map(\.path).sorted() == v5.variables.map(\.path).sorted(),
            "v7.3 lists \(v73.variables.map(\.path))")
        #expect(try v73.variable("N15_M07.Y").dimensionsDescription == "1x7")
        #expect(try v73.variable("N15_M07.Y(7).Name").classDescription == "char")
        for k in 1...7 {
            let path = "N15_M07.Y(\(k)).Data"
            let got = try Self.readAll(
                MATChannelReader(file: v73, variables: [path]), from: 0, bufferFrames: 5)
            let want = try Self.readAll(
                MATChannelReader(file: v5, variables: [path]), from: 0, bufferFrames: 64)
            #expect(got == want && got.count == (k == 2 || k == 3 || k == 7 ? 64 : 16), "\(path)")
        }
        let element = #expect(throws: ContainerError.self) { try v73.variable("N15_M07.Y.Data") }
        #expect(
            element?.message == "'N15_M07.Y' is a 1x7 struct array; name one element, e.g. N15_M07.Y(1).Data")
        let beyond = #expect(throws: ContainerError.self) { try v73.variable("N15_M07.Y(8).Data") }
        #expect(beyond?.message == "'N15_M07.Y' has 7 elements; element 8 does not exist")
        let text = #expect(throws: ContainerError.self) {
            try MATChannelReader(file: v73, variables: ["N15_M07.Y(3).Raster"])
        }
        #expect(text?.message == "'N15_M07.Y(3).Raster' is char (text); sonde reads numeric arrays")
    }

    @Test(arguments: [
        (
            "bad_truncated_v5",
            "the file is cut short: element 1 at byte 576 needs 248 bytes after its tag, but only 116 remain"
        ),
        (
            "bad_truncated_v7",
            "the file is cut short: element 0 at byte 128 needs 435 bytes after its tag, but only 164 remain"
        ),
        ("bad_truncated_v4", "the file is cut short: matrix 1 at byte 413 (48x1) needs 221 bytes, but only 87 remain"),
        (
            "bad_corrupt_v7",
            "libmatio cannot list the variables: the file is damaged (libmatio: Inflate: inflate returned data error)"
        ),
        (
            "bad_header",
            "not a MAT-file libmatio can read (v4, v5, v7 or v7.3): it starts with \"MATLAB 5.0 MAT-file \""
        ),
        ("bad_truncated_v73", "a v7.3 MAT-file (HDF5): libhdf5 cannot open the file: it is cut or damaged"),
    ])
    func badFilesAreRefusedSayingWhy(name: String, message: String) throws {
        let path = Self.url(name + ".mat").path
        let error = #expect(throws: ContainerError.self) { try MATFile(path: path) }
        #expect(error?.description.hasPrefix(path + ": " + message) == true, "\(error?.description ?? "")")
        let missing = #expect(throws: ContainerError.self) { try MATFile(path: path + ".absent") }
        #expect(missing?.kind == .io)
    }
}
