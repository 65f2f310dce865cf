import Foundation

/// Reads what a person would read off an SVG figure: a path's points, the position of a
/// tick label.
enum SVGInspection {
    /// The points of the first `<path class="NAME" d="...">` (M/L commands only).
    static func points(ofPathClass name: String, in svg: String) -> [(x: Double, y: Double)] {
        guard let start = svg.range(of: "class=\"\(name)\" d=\""),
            let end = svg[start.upperBound...].firstIndex(of: "\"")
        else { return [] }
        let d = svg[start.upperBound..<end]
        var points: [(x: Double, y: Double)] = []
        for command in d.split(whereSeparator: { $0 == "M" || $0 == "L" || $0 == "Z" }) {
            let numbers = command.split(separator: " ").compactMap { Double($0) }
            if numbers.count == 2 { points.append((numbers[0], numbers[1])) }
        }
        return points
    }

    /// The x of the `<text>` element whose content is exactly `label`.
    static func xOfLabel(_ label: String, in svg: String) -> Double? {
        guard let close = svg.range(of: ">\(label)</text>") else { return nil }
        guard let open = svg[..<close.lowerBound].range(of: "<text x=\"", options: .backwards) else { return nil }
        let rest = svg[open.upperBound...]
        guard let quote = rest.firstIndex(of: "\"") else { return nil }
        return Double(rest[..<quote])
    }

    /// The number after each occurrence of `prefix` (an attribute's opening, say).
    static func numbers(after prefix: String, in svg: String) -> [Double] {
        svg.components(separatedBy: prefix).dropFirst().compactMap { part in
            part.firstIndex(of: "\"").flatMap { Double(part[..<$0]) }
        }
    }
}
