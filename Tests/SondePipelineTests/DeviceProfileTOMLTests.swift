import Foundation
import SondePipeline
import Testing
import _SondeTestSupport

/// Device profiles in TOML: the sample files, the format before 0.8, and `tomlText`.
@Suite struct DeviceProfileTOMLTests {
    private let root = Fixtures.packageRoot

    @Test func sampleFaultyPumpIsTheLegacyFileConverted() throws {
        let toml = try DeviceProfile.load(path: root.appendingPathComponent("sample-data/faulty-pump.toml").path)
        let legacy = try DeviceProfile.load(path: Fixtures.url("profiles/faulty-pump-legacy.profile").path)
        #expect(
            DeviceProfile.isLegacyText(
                try DeviceProfile.text(path: Fixtures.url("profiles/faulty-pump-legacy.profile").path)))
        #expect(toml == legacy)
        #expect(toml.channels.count == 2 && toml.channels[0].tones[0].harmonics == [0.7, 0.25, 0.1])
        #expect(toml.channels[1].impulseRate == 178 && toml.channels[1].impulseAmplitude == 2)
    }

    @Test func sampleHealthyPumpReadsAsWritten() throws {
        let profile = try DeviceProfile.load(path: root.appendingPathComponent("sample-data/healthy-pump.toml").path)
        #expect(profile.name == "healthy-pump" && profile.sampleRate == 25_600)
        #expect(profile.channels.map(\.name) == ["accel_x", "accel_y"])
        #expect(profile.channels[1].offset == 9.81 && profile.channels[1].driftPeriod == 90)
        #expect(profile.channels[0].tones.map(\.frequency) == [49.5, 346.5])
    }

    /// Random profiles, including awkward names and numbers at the ends of their ranges,
    /// come back from their TOML unchanged.
    @Test func tomlTextReadsBackToTheSameProfile() throws {
        var random = SplitMix64(seed: 8)
        func number(_ range: ClosedRange<Double>) -> Double {
            switch Int.random(in: 0..<4, using: &random) {
            case 0: range.lowerBound
            case 1: range.upperBound
            case 2: (Double.random(in: range, using: &random) * 8).rounded() / 8
            default: Double.random(in: range, using: &random)
            }
        }
        let names = ["x", "accel \"y\"", "tab\there", "naïve", "back\\slash", ""]
        for round in 0..<200 {
            let channels = (0..<Int.random(in: 1...4, using: &random)).map { index in
                var channel = DeviceProfile.Channel(name: names[(round + index) % names.count])
                channel.tones = (0..<Int.random(in: 0...3, using: &random)).map { _ in
                    DeviceProfile.Tone(
                        frequency: number(1e-3...1e6), amplitude: number(-1e3...1e3),
                        harmonics: (0..<Int.random(in: 0...3, using: &random)).map { _ in number(0...1) })
                }
                channel.noise = number(0...1e30)
                channel.offset = number(-1e30...1e30)
                channel.driftAmplitude = number(-1...1)
                channel.driftPeriod = number(1e-6...1e4)
                channel.impulseRate = number(0...1e3)
                channel.impulseAmplitude = number(-1e3...1e3)
                return channel
            }
            let profile = try DeviceProfile(name: "p\(round) \"q\"", sampleRate: number(1...1e6), channels: channels)
            let text = profile.tomlText
            #expect(!DeviceProfile.isLegacyText(text))
            #expect(try DeviceProfile.parse(text, source: "random.toml") == profile, "\(text)")
        }
    }

    @Test func mistakesNameTheFileAndTheSetting() {
        let cases: [(text: String, mentions: [String])] = [
            (
                "rate = 1000\n[[channels]]\ntones = [{ frequency = 10, amplitude = 3.5e38 }]\n",
                ["channels[1].tones[1].amplitude"]
            ),
            ("rate = 1000\n[[channels]]\nnoise = 1e38\n", ["channels[1].noise", "6σ"]),
            ("rate = 1000\n[[channels]]\ndrift = { amplitude = 1, period = 1e-300 }\n", ["channels[1].drift.period"]),
            ("rate = 1000\n[[channels]]\nimpulses = { rate = -1, amplitude = 1 }\n", ["channels[1].impulses.rate"]),
            (
                "rate = 1000\n[[channels]]\ntones = [{ frequency = 1e300, amplitude = 1 }]\n",
                ["channels[1].tones[1].frequency"]
            ),
            ("rate = 1000\n[[channels]]\noffset = \"high\"\n", ["channels[1].offset", "expected a finite number"]),
            ("rate = 1000\n[[channels]]\noffset = nan\n", ["channels[1].offset", "expected a finite number"]),
            (
                "rate = 1000\n[[channels]]\ntones = [{ frequency = 10, amplitude = 3e38 }]\noffset = 3e38\n",
                ["beyond a 32-bit"]
            ),
            ("rate = 0\n[[channels]]\n", ["1 to 1000000 Hz"]),
            ("rate = 1000\n", ["no channels"]),
            ("[[channels]]\n", ["no rate"]),
            ("rate = 1000\ncolour = 1\n[[channels]]\n", ["unknown setting 'colour'"]),
            ("rate = 1000\n[[channels]]\ntones = [{ frequency = 10 }]\n", ["channels[1].tones[1]", "amplitude"]),
            ("rate = 1000\n[[channels]\n", ["p.toml, line 2"]),
        ]
        for (text, mentions) in cases {
            do {
                _ = try DeviceProfile.parse(text, source: "p.toml")
                Issue.record("accepted: \(text)")
            } catch {
                let message = "\(error)"
                #expect(message.contains("p.toml"), "\(message)")
                for mention in mentions { #expect(message.contains(mention), "\(text) -> \(message)") }
            }
        }
    }
}
