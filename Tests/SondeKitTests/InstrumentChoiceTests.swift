import SondeCore
import SondeKit
import SondePipeline
import Testing

/// `InstrumentChoice`, how `sonde device pair --alsa/--command` reads its options, in process:
/// each kind's defaults, and every refusal with its message.
@Suite struct InstrumentChoiceTests {
    static func choice(
        alsa: String? = nil, command: String? = nil, format: String? = nil, rate: Double? = 48_000,
        channels: Int? = 2, sampleType: SampleFormat? = nil
    ) -> InstrumentChoice {
        InstrumentChoice(
            alsa: alsa, command: command, format: format, rate: rate, channels: channels, sampleType: sampleType)
    }

    @Test func neitherKindIsNoInstrument() throws {
        #expect(try Self.choice().settings() == nil)
    }

    @Test func eachKindsSampleType() throws {
        let card = try #require(try Self.choice(alsa: "hw:1,0").settings())
        #expect(card.kind == .alsa && card.address == "hw:1,0" && card.sampleType == .i32le)
        #expect(card.sampleRate == 48_000 && card.channels == 2)
        #expect(try Self.choice(alsa: "hw:1,0", format: "float_le").settings()?.sampleType == .f32le)
        #expect(try Self.choice(alsa: "hw:1,0", sampleType: .i16le).settings()?.sampleType == .i16le)
        let program = try #require(try Self.choice(command: "cat x", sampleType: .f64le).settings())
        #expect(program.kind == .command && program.sampleType == .f64le)
    }

    @Test(arguments: [
        (
            InstrumentChoiceTests.choice(alsa: "a", command: "b"),
            "--alsa and --command cannot be combined; pair one device"
        ),
        (
            InstrumentChoiceTests.choice(command: "b", format: "S16_LE"),
            "--format applies to --alsa; a command's samples take --sample-type"
        ),
        (InstrumentChoiceTests.choice(alsa: "  "), "--alsa: expected a device name or a command, not an empty text"),
        (
            InstrumentChoiceTests.choice(command: "b", rate: nil),
            "--command needs --rate HZ: the rate the device delivers"
        ),
        (InstrumentChoiceTests.choice(alsa: "a", rate: 44_100.5), "--rate 44100.5: expected a whole number of Hz"),
        (
            InstrumentChoiceTests.choice(alsa: "a", channels: nil),
            "--alsa needs --channels N: the interleaved channels it delivers"
        ),
        (
            InstrumentChoiceTests.choice(alsa: "a", format: "S24_LE"),
            "--format S24_LE: expected S16_LE, S32_LE, FLOAT_LE or FLOAT64_LE"
        ),
        (
            InstrumentChoiceTests.choice(alsa: "a", format: "S16_LE", sampleType: .i16le),
            "--format and --sample-type name the same thing; give one"
        ),
        (
            InstrumentChoiceTests.choice(command: "b"),
            "--command needs --sample-type (i16le, i32le, f32le, f64le): what it writes"
        ),
    ])
    func refusals(_ choice: InstrumentChoice, _ message: String) {
        #expect {
            _ = try choice.settings()
        } throws: { error in
            (error as? SondeError)?.code == .invalidArgument && (error as? SondeError)?.message == message
        }
    }
}
