import SondeIO

/// Writes each figure of a report section as a file of its own (`--figures DIR`), for
/// papers and tickets: SVG, and the spectrogram's image also as PNG. Each file appears
/// complete or not at all (`OutputFile`).
public struct ReportFigures: Sendable {
    public let directory: String

    public init(directory: String) {
        self.directory = directory
    }

    /// Files named `NN-INPUT-CHANNEL-FIGURE.svg`, NN the input's number from 01.
    public func write(_ report: InputReport, number: Int) throws {
        let prefix = "\(directory)/\(number < 10 ? "0" : "")\(number)-\(Self.safe(report.title))"
        for channel in report.channels {
            let base = "\(prefix)-\(Self.safe(channel.name))"
            if let spectrogram = channel.spectrogram {
                try Self.file("\(base)-spectrogram.svg", Array(spectrogram.svg().utf8))
                try Self.file("\(base)-spectrogram.png", spectrogram.image.png)
            }
            if let spectrum = channel.spectrum { try Self.file("\(base)-spectrum.svg", Array(spectrum.svg().utf8)) }
            if let envelope = channel.envelope { try Self.file("\(base)-envelope.svg", Array(envelope.svg().utf8)) }
            for trend in channel.trends {
                try Self.file("\(base)-trend-\(Self.safe(trend.title)).svg", Array(trend.svg().utf8))
            }
        }
    }

    private static func file(_ path: String, _ bytes: [UInt8]) throws {
        let output = try OutputFile(atomicallyReplacing: path, syncOnCommit: false)
        do {
            try output.write(bytes)
            try output.commit()
        } catch {
            output.abandon()
            throw error
        }
    }

    /// A name part with only letters, digits, `.`, `_` and `-` (paths' slashes become `_`).
    static func safe(_ text: String) -> String {
        let kept = text.unicodeScalars.map { scalar -> Character in
            let ok =
                scalar.isASCII
                && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                    || "._-".unicodeScalars.contains(scalar))
            return ok ? Character(scalar) : "_"
        }
        return String(kept)
    }
}
