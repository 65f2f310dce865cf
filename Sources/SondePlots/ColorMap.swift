/// The perceptually uniform "viridis" colour map (matplotlib's default), as 256 RGB
/// colours: dark blue for low levels to yellow for high ones, its lightness rising
/// steadily, so the brightest pixel is the strongest level in print and for colour-blind
/// readers alike.
public enum ColorMap {
    /// matplotlib's viridis at nine evenly spaced points; the rest is interpolated.
    private static let anchors: [(Double, Double, Double)] = [
        (68, 1, 84), (71, 44, 122), (59, 81, 139), (44, 113, 142), (33, 144, 141),
        (39, 173, 129), (92, 200, 99), (170, 220, 50), (253, 231, 37),
    ]

    /// 256 colours, index 0 the lowest level.
    public static let viridis: [(UInt8, UInt8, UInt8)] = (0..<256).map { color(at: Double($0) / 255) }

    /// The colour at `position` in 0...1 (clamped).
    public static func color(at position: Double) -> (UInt8, UInt8, UInt8) {
        let scaled = Swift.min(Swift.max(position, 0), 1) * Double(anchors.count - 1)
        let lower = Swift.min(Int(scaled), anchors.count - 2)
        let t = scaled - Double(lower)
        let a = anchors[lower], b = anchors[lower + 1]
        func mix(_ x: Double, _ y: Double) -> UInt8 { UInt8((x + (y - x) * t).rounded()) }
        return (mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
    }

    /// `#rrggbb` for SVG.
    public static func hex(_ color: (UInt8, UInt8, UInt8)) -> String {
        let digits = Array("0123456789abcdef")
        var text = "#"
        for channel in [color.0, color.1, color.2] {
            text.append(digits[Int(channel >> 4)])
            text.append(digits[Int(channel & 15)])
        }
        return text
    }
}
