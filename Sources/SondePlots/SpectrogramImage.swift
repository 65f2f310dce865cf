import Foundation

/// A spectrogram rendered as a palette PNG: one pixel per column and row, the level in dB
/// mapped onto viridis over a fixed dynamic range below the loudest pixel above DC.
public struct SpectrogramImage: Sendable {
    /// Levels shown, in dB below the loudest pixel; quieter ones are the darkest colour.
    public static let dynamicRange = 90.0

    public let width: Int
    public let height: Int
    /// `10 log10(P)` of the loudest pixel and of the darkest colour.
    public let topDecibels: Double
    public let bottomDecibels: Double
    /// The PNG file.
    public let png: [UInt8]

    /// - Parameter spectrogram: at least one frame; row 0 (lowest frequencies) becomes the
    ///   image's bottom row.
    public init(_ spectrogram: Spectrogram) {
        width = Swift.max(spectrogram.columnCount, 1)
        height = spectrogram.rows
        var levels = [Double](repeating: -Double.infinity, count: width * height)
        var top = -Double.infinity, topWithDC = -Double.infinity
        // Rows holding bins 0 and 1 (the Hann window's DC leakage) do not set the scale: an
        // offset such as gravity would otherwise push everything else into the dark.
        let firstAC = Swift.min(2 / spectrogram.binsPerRow, height - 1)
        for column in 0..<spectrogram.columnCount {
            for row in 0..<height {
                let p = spectrogram.power(column: column, row: row)
                let level = p > 0 ? 10 * log10(p) : -Double.infinity
                levels[(height - 1 - row) * width + column] = level
                if row >= firstAC { top = Swift.max(top, level) }
                topWithDC = Swift.max(topWithDC, level)
            }
        }
        if !top.isFinite { top = topWithDC.isFinite ? topWithDC : 0 }
        let ceiling = top.rounded(.up), span = Self.dynamicRange
        topDecibels = ceiling
        bottomDecibels = ceiling - span
        let pixels = levels.map { level -> UInt8 in
            guard level.isFinite else { return 0 }
            return UInt8(Swift.min(Swift.max(((level - (ceiling - span)) / span * 255).rounded(), 0), 255))
        }
        png = PNGEncoder.indexed(width: width, height: height, palette: ColorMap.viridis, pixels: pixels)
    }

    /// The PNG as a `data:` URI, for an `<img>` or SVG `<image>` with nothing to fetch.
    public var dataURI: String { "data:image/png;base64," + Data(png).base64EncodedString() }
}
