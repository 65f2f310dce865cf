import Foundation
import Testing
import _SondeTestSupport

@testable import SondeIO

/// The HDF5 reader against what h5py reads from the same file
/// (Tests/Fixtures/hdf5/generate_hdf5.py): the catalogue, every value bit for bit, reads of a
/// few frames from several frames, both orientations, the rate attribute, each refusal.
@Suite struct HDF5ReaderTests {
    struct Expected {
        let path: String
        let type: String
        let shape: String
        let values: String?
    }

    static func url(_ name: String) -> URL { Fixtures.directory.appendingPathComponent("hdf5/" + name) }

    static func open() throws -> HDF5File { try HDF5File(path: url("signals.h5").path) }

    static func expected() throws -> [Expected] {
        let text = try String(contentsOf: url("signals.expected.tsv"), encoding: .utf8)
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            return Expected(
                path: fields[0], type: fields[1], shape: fields[2], values: fields[3] == "-" ? nil : fields[3])
        }
    }

    /// h5py's values as bit patterns, column by column.
    static func bits(_ file: String) throws -> [UInt64] {
        let data = try Data(contentsOf: url("expected/" + file))
        return stride(from: 0, to: data.count, by: 8).map { start in
            data[start..<(start + 8)].reversed().reduce(0) { $0 << 8 | UInt64($1) }
        }
    }

    /// The channels of one dataset under an orientation.
    static func channels(_ entry: Expected, orientation: ArrayOrientation) throws -> [[UInt64]] {
        let all = try bits(entry.values ?? "")
        let shape = entry.shape.split(separator: "x").compactMap { Int($0) }
        guard shape.count == 2 else { return [all] }
        let (rows, columns) = (shape[0], shape[1])
        if orientation.samplesAlongRows(rows: rows, columns: columns) {
            return (0..<columns).map { Array(all[($0 * rows)..<(($0 + 1) * rows)]) }
        }
        return (0..<rows).map { r in (0..<columns).map { all[$0 * rows + r] } }
    }

    static func readAll(
        _ reader: HDF5ChannelReader, from frame: Int, bufferFrames: Int
    ) throws -> [UInt64] {
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

    @Test func catalogueListsWhatH5pyLists() throws {
        let catalogue = try HDF5Catalogue(path: Self.url("signals.h5").path)
        let expected = try Self.expected()
        #expect(catalogue.datasets.map(\.path) == expected.map(\.path))
        #expect(catalogue.datasets.map(\.shapeDescription) == expected.map(\.shape))
        #expect(catalogue.readable.map(\.path) == expected.filter { $0.values != nil }.map(\.path))
        let types = Dictionary(uniqueKeysWithValues: catalogue.datasets.map { ($0.path, $0.type) })
        #expect(types["/vibration/float64_be"] == "float64 big-endian")
        #expect(types["/vibration/uint64"] == "uint64")
        #expect(types["/meta/table"] == "compound")
        #expect(types["/meta/flags"] == "enum")
        #expect(types["/meta/names"] == "string")
        let root = catalogue.objects[0]
        #expect(root.path == "/" && root.kind == .group)
        #expect(root.attributes.map(\.name) == ["sample_rate", "title"])
        #expect(root.attributes.map(\.value) == [12000, nil])
        let matrix = catalogue.objects.first { $0.path == "/vibration/matrix" }
        #expect(matrix?.layout == "chunked 16x2 + 1 filter")
        #expect(catalogue.objects.first { $0.path == "/vibration/float64" }?.layout == "contiguous")
    }

    @Test func everyDatasetIsBitIdenticalToH5py() throws {
        let file = try Self.open()
        for entry in try Self.expected() where entry.values != nil {
            for orientation in ArrayOrientation.allCases {
                let reader = try HDF5ChannelReader(file: file, datasets: [entry.path], orientation: orientation)
                let want = try Self.channels(entry, orientation: orientation)
                let interleaved = (0..<want[0].count).flatMap { frame in want.map { $0[frame] } }
                #expect(try Self.readAll(reader, from: 0, bufferFrames: 4096) == interleaved, "\(entry.path)")
            }
        }
    }

    @Test(arguments: [(1, 8), (3, 16), (7, 1 << 20), (16, 24), (64, 1 << 20)])
    func hyperslabsFromAnyFrameMatchH5py(bufferFrames: Int, slabBytes: Int) throws {
        let file = try Self.open()
        let entries = try Self.expected().filter { $0.values != nil && $0.path.hasPrefix("/vibration/") }
        let long = entries.filter { $0.path != "/vibration/short" }
        let reader = try HDF5ChannelReader(file: file, datasets: long.map(\.path), slabBytes: slabBytes)
        let columns = try long.flatMap { try Self.channels($0, orientation: .longerDimension) }
        #expect(reader.channels.count == columns.count)
        for start in [0, 1, 15, 16, 17, 50, 99, 100] {
            let got = try Self.readAll(reader, from: start, bufferFrames: bufferFrames)
            let want = (start..<100).flatMap { frame in columns.map { $0[frame] } }
            #expect(got == want, "from \(start), \(bufferFrames) frames a read, \(slabBytes)-byte slabs")
        }
        #expect(
            reader.channels.map(\.name).filter { $0.contains("matrix") } == [
                "/vibration/matrix[:,0]", "/vibration/matrix[:,1]", "/vibration/matrix[:,2]",
                "/vibration/matrix_t[0,:]", "/vibration/matrix_t[1,:]", "/vibration/matrix_t[2,:]",
            ])
    }

    @Test func sampleRateFromTheNearestAttribute() throws {
        let file = try Self.open()
        #expect(try file.sampleRate(attribute: "sample_rate", of: ["/vibration/float64"]) == 25600)
        #expect(try file.sampleRate(attribute: "sample_rate", of: ["/meta/empty"]) == 12000)
        let missing = #expect(throws: ContainerError.self) {
            try file.sampleRate(attribute: nil, of: ["/vibration/int8"])
        }
        #expect(
            missing?.message == "no sample rate: give one with --rate, or name the attribute that holds it with "
                + "--rate-attribute; its numeric scalar attributes are: /@sample_rate = 12000.0, "
                + "/nan_rate@sample_rate = nan, /vibration@sample_rate = 25600.0, /zero_rate@sample_rate = 0.0")
        let zero = #expect(throws: ContainerError.self) {
            try file.sampleRate(attribute: "sample_rate", of: ["/zero_rate/x"])
        }
        #expect(
            zero?.message
                == "attribute 'sample_rate' of '/zero_rate' is 0.0; expected a positive, finite sample rate in Hz")
        let nan = #expect(throws: ContainerError.self) {
            try file.sampleRate(attribute: "sample_rate", of: ["nan_rate/x"])
        }
        #expect(
            nan?.message
                == "attribute 'sample_rate' of '/nan_rate' is nan; expected a positive, finite sample rate in Hz")
        let absent = #expect(throws: ContainerError.self) {
            try file.sampleRate(attribute: "fs", of: ["/vibration/int8"])
        }
        #expect(absent?.message.hasPrefix("no attribute 'fs' on '/vibration/int8' or the groups above it;") == true)
    }

    @Test(arguments: [
        ("/meta/names", "'/meta/names' holds string values; sonde reads numeric datasets (integers and floats)"),
        ("/meta/table", "'/meta/table' holds compound values; sonde reads numeric datasets (integers and floats)"),
        ("/meta/complex", "'/meta/complex' holds compound values; sonde reads numeric datasets (integers and floats)"),
        ("/meta/flags", "'/meta/flags' holds enum values; sonde reads numeric datasets (integers and floats)"),
        ("/meta/fs", "'/meta/fs' is a scalar; sonde reads 1-D and 2-D datasets"),
        ("/meta/empty", "'/meta/empty' is empty (0); expected at least one value"),
        ("/meta/cube", "'/meta/cube' has 3 dimensions (2x3x4); sonde reads 1-D and 2-D datasets"),
        ("/vibration", "'/vibration' is a group; expected a dataset: the file's datasets are: /meta/complex"),
        ("/vibration/accel", "no dataset '/vibration/accel'; the file's datasets are: /meta/complex (compound 4), "),
    ])
    func refusesWhatItCannotRead(dataset: String, message: String) throws {
        let file = try Self.open()
        let error = #expect(throws: ContainerError.self) { try HDF5ChannelReader(file: file, datasets: [dataset]) }
        #expect(error?.message.hasPrefix(message) == true, "\(error?.message ?? "")")
    }

    @Test func refusesChannelsOfDifferentLengths() throws {
        let file = try Self.open()
        let error = #expect(throws: ContainerError.self) {
            try HDF5ChannelReader(file: file, datasets: ["/vibration/float64", "/vibration/short"])
        }
        #expect(
            error?.message == "channels '/vibration/float64' (100 samples) and '/vibration/short' (10 samples) differ "
                + "in length; expected channels read together to have the same number of samples")
    }

    @Test(arguments: [
        // libhdf5's own words follow when its error stack has them (not in every process).
        ("bad_truncated.h5", "libhdf5 cannot open the file: it is cut or damaged"),
        ("bad_signature.h5", "not an HDF5 file: it has no HDF5 signature"),
        ("bad_superblock.h5", "libhdf5 cannot open the file: it is cut or damaged"),
        ("absent.h5", "cannot open the file"),
    ])
    func badFilesAreRefusedSayingWhy(name: String, message: String) throws {
        let path = Self.url(name).path
        let error = #expect(throws: ContainerError.self) { try HDF5File(path: path) }
        #expect(error?.description.hasPrefix(path + ": " + message) == true, "\(error?.description ?? "")")
    }
}
