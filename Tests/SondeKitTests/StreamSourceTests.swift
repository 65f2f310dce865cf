import Foundation
import SondeCapture
import SondeCore
import SondeIO
import SondeKit
import SondePipeline
import Testing
import _SondeTestSupport

/// `sonde stream`'s source: which device, paced or not, and bounded by frames or duration,
/// through the chain `sonde measure` and the app's captures use.
@Suite struct StreamSourceTests {
    static func profile() throws -> (text: String, source: String)? {
        try SimulatedProfile.text(
            profilePath: nil, flags: DeviceFlags(tone: ["50:1"]), shape: SampleSourceOptions(sampleRate: 1000))
    }

    static func noPairing() throws -> any DeviceConnectionService {
        try LocalServices.deviceConnection(environment: ["SONDE_HOME": TestScratch.folder("stream-source").path])
    }

    /// Every frame the source gives, read to its end.
    static func frames(_ source: any SampleSource) throws -> Int {
        var buffer = [Double](repeating: 0, count: 4096 * source.format.channelCount)
        var total = 0
        while true {
            let read = try buffer.withUnsafeMutableBufferPointer { try source.read(into: $0) }
            if read == 0 { return total }
            total += read
        }
    }

    @Test func aSimulatedDeviceIsPacedUnlessAskedNotTo() throws {
        let settings = try PipelineSettings(frameLength: 256, hop: 128)
        var request = StreamSource.Request(inputPath: nil, sourceOptions: SampleSourceOptions())
        request.frames = 3
        let paced = try StreamSource.open(
            request, settings: settings, profile: Self.profile, connection: Self.noPairing)
        #expect(paced.paced && paced.chain.clock != nil)
        #expect(paced.name.hasPrefix("sim"))
        request.asFastAsPossible = true
        let unpaced = try StreamSource.open(
            request, settings: settings, profile: Self.profile, connection: Self.noPairing)
        #expect(!unpaced.paced && unpaced.chain.clock == nil)
        // Three frames of 256 with hop 128: 512 samples per channel.
        #expect(try Self.frames(unpaced.chain.source) == 512)
        request.seconds = 0.1
        let shorter = try StreamSource.open(
            request, settings: settings, profile: Self.profile, connection: Self.noPairing)
        #expect(try Self.frames(shorter.chain.source) == 100)
    }

    @Test func withoutADeviceItSaysHowToPairOne() throws {
        let settings = try PipelineSettings()
        do {
            _ = try StreamSource.open(
                StreamSource.Request(inputPath: nil, sourceOptions: SampleSourceOptions()), settings: settings,
                profile: { nil }, connection: Self.noPairing)
            Issue.record("opened")
        } catch let error as SondeError {
            #expect(error.message.hasPrefix("Device not connected — run sonde device pair"))
        }
    }

    @Test func theChainRecordsWhatItGives() throws {
        let folder = try TestScratch.folder("chain-record")
        let device = SimulatedDevice(
            profile: try DeviceProfile.parse(try #require(try Self.profile()).text, source: "t"), seed: 1)
        let path = folder.appendingPathComponent("copy.f64").path
        let chain = try LiveSourceChain(
            base: device, clock: .init(policy: .block, paced: false), limit: 300, recording: path)
        #expect(try Self.frames(chain.source) == 300)
        #expect(chain.dropped() == 0)
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int == 300 * 8)
        #expect(LiveSourceChain.frameCount(seconds: 1e9, rate: 1e12) == Int.max / 4)
    }
}
