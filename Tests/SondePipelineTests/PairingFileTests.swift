import Foundation
import SondeCore
import SondePipeline
import Testing
import _SondeTestSupport

/// `device.json` as `FileDeviceConnection` keeps it: what it remembers reads back equal
/// (a seed past 2^53 exactly, a real instrument's settings), a file another writer spelled
/// differently reads alike, and a damaged one is named with what to do.
@Suite struct PairingFileTests {
    @Test func aPairingReadsBackAsRemembered() async throws {
        let directory = try TestScratch.folder("sonde-pairing")
        defer { try? FileManager.default.removeItem(at: directory) }
        var connection = FileDeviceConnection(directory: directory)
        connection.handshakeMilliseconds = 0...0
        let simulated = try await connection.pair(
            profileText: Self.profile, profileSource: "test", seed: UInt64.max - 2)
        // The time is kept to the second (ISO 8601), as before.
        let back = try #require(try connection.current())
        #expect(back.seed == UInt64.max - 2 && back.id == simulated.id && back.profileText == simulated.profileText)
        #expect(abs(back.pairedAt.timeIntervalSince(simulated.pairedAt)) < 1 && back.instrument == nil)

        let settings = InstrumentSettings(
            kind: .command, address: #"printf '\0\0' "a/b""#, sampleRate: 48000, channels: 2, sampleType: .i16le)
        let real = PairedDevice(instrument: settings, pairedAt: Date(timeIntervalSince1970: 1_764_403_200))
        try connection.remember(real)
        #expect(try connection.current() == real)

        // Keys in another order, blanks, escapes and a key a later sonde might add.
        let other = #"""
            { "seed" : 7, "extra": {"x": [1, null]}, "profileText": "", "profileSource": "default",
              "pairedAt": "2026-11-29T07:00:00Z", "id": "pump\/1" }
            """#
        try Data(other.utf8).write(to: connection.file)
        let read = try #require(try connection.current())
        #expect(read.id == "pump/1" && read.seed == 7 && read.instrument == nil)
        #expect(read.pairedAt == Date(timeIntervalSince1970: 1_795_935_600))

        try Data(#"{"id":"x","seed":-1}"#.utf8).write(to: connection.file)
        let error = try #require(throws: SondeError.self) { try connection.current() }
        #expect(error.message.contains("is damaged; run sonde device unpair"))
    }

    private static let profile = """
        name = "test-pump"
        rate = 25600

        [[channels]]
        name = "x"
        tones = [{ frequency = 49.5, amplitude = 0.8 }]
        """
}
