import CSndfile
import Foundation
import Testing
import _SondeTestSupport

/// `sonde process` on MP3, Opus and `.oga` files the test makes with libsndfile: one by one,
/// and in a folder walk (issue 32: they were refused by name).
@Suite struct LossyInputTests {
    static let files: [(name: String, format: Int32)] = [
        ("a/clip.mp3", Int32(SF_FORMAT_MPEG | SF_FORMAT_MPEG_LAYER_III)),
        ("b/voice.opus", Int32(SF_FORMAT_OGG | SF_FORMAT_OPUS)),
        ("c/bell.oga", Int32(SF_FORMAT_OGG | SF_FORMAT_VORBIS)),
    ]

    /// Half a second of a 1 kHz tone at 48 kHz, mono, encoded in each format under `root`.
    func makeFiles(in root: URL) throws {
        let samples = (0..<24000).map { 0.4 * sin(2 * Double.pi * 1000 * Double($0) / 48000) }
        for file in Self.files {
            let url = root.appendingPathComponent(file.name)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            var info = SF_INFO()
            info.samplerate = 48000
            info.channels = 1
            info.format = file.format
            let handle = try #require(sf_open(url.path, Int32(SFM_WRITE), &info))
            var copy = samples
            #expect(sf_writef_double(handle, &copy, sf_count_t(copy.count)) == copy.count)
            sf_close(handle)
        }
    }

    @Test func eachFileAndTheFolderAreMeasured() throws {
        let root = try TestScratch.folder("sonde-lossy")
        defer { try? FileManager.default.removeItem(at: root) }
        try makeFiles(in: root)
        for file in Self.files {
            let result = try SondeBinary.run(
                ["process", file.name, "--features", "rms,dominant_frequency", "--quiet"], in: root)
            #expect(result.status == 0, "\(file.name): \(result.stderr)")
            let table = RecordTable(csv: result.stdout)
            #expect(table.rows.count >= 20, "\(file.name): \(table.rows.count) records")
            // The tone survives every codec: its line is the dominant one, within a bin (46.9 Hz).
            let frequency = try #require(table.index(of: "dominant_frequency"))
            let middle = table.rows[table.rows.count / 2][frequency]
            #expect(abs((Double(middle) ?? 0) - 1000) <= 47, "\(file.name): dominant \(middle) Hz")
        }
        let walk = try SondeBinary.run(["process", ".", "--features", "rms", "--quiet"], in: root)
        #expect(walk.status == 0, "\(walk.stderr)")
        let table = RecordTable(csv: walk.stdout)
        let fileColumn = try #require(table.index(of: "file"))
        #expect(Set(table.rows.map { $0[fileColumn] }) == Set(Self.files.map(\.name)))
    }
}
