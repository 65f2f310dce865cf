import Foundation
import SondeCore
import SondeMeasurements
import SondeStoreFormat
import Testing

/// `ListedMeans`: the listed part as bytes reads back as the listing the whole summary
/// gives (every bit of every mean, names in any script), rows that share columns share
/// their names, and damaged bytes are an error that says where, never a crash.
@Suite struct ListedMeansTests {
    let summary = MeasurementSummary(
        columns: ["mean", "rms", "peak", "dominant_frequency"],
        channels: [
            .init(name: "x", means: [0.1, 0.7071067811865476, 1, 440.5]),
            .init(name: "Kanal ü", means: [-0.0, .nan, -.infinity, .leastNonzeroMagnitude]),
            .init(name: "z", means: [1, 2]),
        ],
        frameCount: 29_999)

    @Test func readsBackAsTheListingOfTheWholeSummary() throws {
        let bytes = ListedMeans.encode(listedPartOf: summary)
        var columns: [String] = []
        let (frames, channels) = try bytes.withUnsafeBytes { try ListedMeans.decode($0, columns: &columns) }
        #expect(frames == 29_999)
        #expect(columns == ["rms", "peak", "dominant_frequency"])
        let whole = MeasurementListing.listedPart(of: summary)
        #expect(channels.map(\.name) == whole.channels.map(\.name))
        for (read, channel) in zip(channels, whole.channels) {
            #expect(read.values.map(\.column) == Array(whole.columns.prefix(channel.means.count)))
            #expect(read.values.map(\.mean.bitPattern) == channel.means.map(\.bitPattern))
        }
        // The JSON reader a listing uses takes the bytes in the JSON's place.
        let reader = StoredJSONReader()
        let throughReader = try bytes.withUnsafeBytes { try reader.mainValues(utf8: $0) }
        #expect(throughReader.frames == frames)
        #expect(throughReader.channels.map(\.name) == channels.map(\.name))
        #expect(
            throughReader.channels.flatMap(\.values).map(\.mean.bitPattern)
                == channels.flatMap(\.values).map(\.mean.bitPattern))
    }

    @Test func rowsWithOtherColumnsGetTheirOwnNames() throws {
        var columns: [String] = []
        let first = ListedMeans.encode(listedPartOf: summary)
        let other = ListedMeans.encode(
            listedPartOf:
                MeasurementSummary(columns: ["a", "b"], channels: [.init(name: "x", means: [3, 4])], frameCount: 2))
        _ = try first.withUnsafeBytes { try ListedMeans.decode($0, columns: &columns) }
        let (_, channels) = try other.withUnsafeBytes { try ListedMeans.decode($0, columns: &columns) }
        #expect(columns == ["a", "b"])
        #expect(channels.first?.values.map(\.column) == ["a", "b"])
        let (_, again) = try first.withUnsafeBytes { try ListedMeans.decode($0, columns: &columns) }
        #expect(again.first?.values.map(\.column) == ["rms", "peak", "dominant_frequency"])
    }

    @Test func damagedBytesAreAnErrorNamingTheByte() throws {
        let bytes = [UInt8](ListedMeans.encode(listedPartOf: summary))
        var columns: [String] = []
        // Every shorter prefix, the bytes with one more, and a count far past the end.
        for count in 1..<bytes.count {
            #expect(throws: SondeError.self) {
                _ = try bytes[0..<count].withUnsafeBytes { try ListedMeans.decode($0, columns: &columns) }
            }
        }
        #expect(throws: SondeError.self) {
            _ = try (bytes + [0]).withUnsafeBytes { try ListedMeans.decode($0, columns: &columns) }
        }
        var huge = bytes
        huge.replaceSubrange(9..<13, with: [0xFF, 0xFF, 0xFF, 0x7F])
        let error = #expect(throws: SondeError.self) {
            _ = try huge.withUnsafeBytes { try ListedMeans.decode($0, columns: &columns) }
        }
        #expect(error?.message.contains("at byte 13") == true, "\(String(describing: error))")
    }
}
