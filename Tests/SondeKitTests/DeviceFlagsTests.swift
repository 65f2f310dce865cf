import SondeCore
import SondeIO
import SondeKit
import SondePipeline
import Testing

/// `--tone`, `--noise`, `--drift`, ... parsed once: every wrong value refused with its
/// option named, every right one given to the profile (issue 48: they were parsed twice,
/// the second time silently).
@Suite struct DeviceFlagsTests {
    @Test func valuesReachTheProfile() throws {
        let flags = try DeviceFlags(
            tone: ["50:1:0.2,0.1", "120:0.5"], noise: 0.01, offset: 2, drift: "0.3:60", impulses: "5:4")
        #expect(flags.describesDevice)
        #expect(
            flags.tones == [
                .init(frequency: 50, amplitude: 1, harmonics: [0.2, 0.1]), .init(frequency: 120, amplitude: 0.5),
            ])
        let profile = try flags.profile(rate: 2000, channels: 3)
        #expect(profile.sampleRate == 2000)
        #expect(profile.channels.map(\.name) == ["ch0", "ch1", "ch2"])
        let channel = try #require(profile.channels.first)
        #expect(channel.noise == 0.01 && channel.offset == 2)
        #expect(channel.driftAmplitude == 0.3 && channel.driftPeriod == 60)
        #expect(channel.impulseRate == 5 && channel.impulseAmplitude == 4)
        #expect(profile.channels.allSatisfy { $0.tones == channel.tones })
    }

    @Test func noFlagsDescribeNoDevice() throws {
        #expect(try DeviceFlags().describesDevice == false)
    }

    @Test(
        arguments: [
            (["50"], nil, nil, nil, "--tone 50: expected FREQ:AMPLITUDE[:H2,H3,...], e.g. 50:1:0.2,0.1"),
            (["50:x"], nil, nil, nil, "--tone 50:x: expected finite numbers separated by ':'"),
            (["50:1:a"], nil, nil, nil, "--tone a: expected finite numbers separated by ','"),
            ([], "1:0", nil, nil, "--drift 1:0: period 0.0 s: expected at least 1e-6 s"),
            ([], "1", nil, nil, "--drift 1: expected finite numbers separated by ':'"),
            ([], nil, "-1:2", nil, "--impulses -1:2: rate must be 0 or more per second"),
            ([], nil, nil, Double.infinity, nil),
        ] as [([String], String?, String?, Double?, String?)])
    func wrongValuesAreRefusedByName(
        tone: [String], drift: String?, impulses: String?, noise: Double?, message: String?
    ) {
        do {
            _ = try DeviceFlags(tone: tone, noise: noise, drift: drift, impulses: impulses)
            Issue.record("accepted")
        } catch {
            if let message { #expect(error.message == message) }
            #expect(error.message.hasPrefix(noise == nil ? "--" : "--noise"))
        }
    }

    @Test func aProfileAndFlagsDoNotCombine() throws {
        let flags = try DeviceFlags(noise: 0.1)
        #expect(throws: SondeError.self) {
            try SimulatedProfile.text(profilePath: "x.toml", flags: flags, shape: SampleSourceOptions())
        }
    }

    @Test func flagsMakeTOMLFromTheCommandLine() throws {
        let profile = try #require(
            try SimulatedProfile.text(
                profilePath: nil, flags: DeviceFlags(tone: ["50:1"]), shape: SampleSourceOptions(sampleRate: 500),
                defaultChannels: 2))
        #expect(profile.source == "command line")
        let parsed = try DeviceProfile.parse(profile.text, source: profile.source)
        #expect(parsed.sampleRate == 500 && parsed.channels.count == 2)
        #expect(try SimulatedProfile.text(profilePath: nil, flags: DeviceFlags(), shape: SampleSourceOptions()) == nil)
    }

    @Test func shapeOptionsAreRefusedForADeviceThatSetsItsOwn() {
        #expect(throws: Never.self) { try SimulatedProfile.refuseInputShape(SampleSourceOptions(), device: "d") }
        do {
            try SimulatedProfile.refuseInputShape(SampleSourceOptions(sampleRate: 10, channels: 2), device: "the pump")
            Issue.record("accepted")
        } catch let error as SondeError {
            #expect(error.message.hasPrefix("--rate and --channels cannot apply to the pump, which sets its own"))
        } catch {
            Issue.record("\(error)")
        }
    }
}
