internal import CALSA
import SondeCore

/// ALSA's names for sonde's sample types: all four are little-endian PCM whose bytes
/// `SampleFormat.decode` reads as the raw reader does (S16_LE is `--sample-type i16le`...).
///
/// Why no S24_3LE: `SampleFormat` has no 24-bit type; capture such a card as S32_LE, which
/// every USB Audio Class driver offers beside it.
enum ALSAFormat {
    static func format(of type: SampleFormat) -> snd_pcm_format_t {
        switch type {
        case .i16le: SND_PCM_FORMAT_S16_LE
        case .i32le: SND_PCM_FORMAT_S32_LE
        case .f32le: SND_PCM_FORMAT_FLOAT_LE
        case .f64le: SND_PCM_FORMAT_FLOAT64_LE
        }
    }

    /// The name `arecord -f` and the issue use: S16_LE, S32_LE, FLOAT_LE, FLOAT64_LE.
    static func name(of type: SampleFormat) -> String {
        switch type {
        case .i16le: "S16_LE"
        case .i32le: "S32_LE"
        case .f32le: "FLOAT_LE"
        case .f64le: "FLOAT64_LE"
        }
    }

    /// libasound's words for a negative error code, in lower case as sonde's messages are.
    static func describe(_ code: Int) -> String {
        guard let text = snd_strerror(Int32(clamping: code)) else { return "error \(code)" }
        let message = String(cString: text)
        guard let first = message.first else { return "error \(code)" }
        return first.lowercased() + message.dropFirst()
    }
}
