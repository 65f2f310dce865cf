import SondeCapture
import SondeInstruments
import SondeKit
import Testing

/// Lines a command prints that moved out of the executable: `sonde device list`'s table
/// and `sonde measure`'s status line.
@Suite struct TerminalTextTests {
    @Test func theDeviceTableAlignsItsColumnsAndSaysWhyADeviceCannotBeUsed() throws {
        #expect(DeviceTable.lines([]) == nil)
        let lines = try #require(
            DeviceTable.lines([
                ALSADeviceInfo(card: 1, device: 0, cardName: "USB", pcmName: "Mic", availability: .busy),
                ALSADeviceInfo(
                    card: 12, device: 3, cardName: "Interface", pcmName: "In", availability: .unavailable("gone")),
            ]))
        #expect(
            lines == [
                "DEVICE   CARD       NAME  ACCEPTS",
                "hw:1,0   USB        Mic   busy (another program has it open)",
                "hw:12,3  Interface  In    unavailable: gone",
            ])
    }

    @Test func theStatusLineShowsFourColumnsPerChannel() {
        let waiting = LiveValues(
            columns: ["rms"], channels: [.init(name: "x", values: [])], frameCount: 0, elapsedSeconds: 0)
        #expect(waiting.statusLine == "waiting for the first window…")
        let values = LiveValues(
            columns: ["rms", "peak", "kurtosis", "crest_factor", "mean"],
            channels: [
                .init(name: "x", values: [0.61234, 2, 3.2, 4, 5]), .init(name: "y", values: [1e-5, 0, 0, 0, 0]),
            ],
            frameCount: 3, elapsedSeconds: 1)
        #expect(
            values.statusLine
                == "x rms 0.6123 peak 2 kurtosis 3.2 crest_factor 4 | y rms 1e-05 peak 0 kurtosis 0 crest_factor 0")
    }
}
