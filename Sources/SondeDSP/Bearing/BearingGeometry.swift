import Foundation

/// A rolling-element bearing's geometry, from which its defect multiples follow.
public struct BearingGeometry: Sendable, Equatable {
    /// Number of rolling elements, ≥ 1.
    public let rollingElements: Int
    /// Rolling-element diameter d, metres, > 0.
    public let elementDiameter: Double
    /// Pitch diameter D, metres, > d.
    public let pitchDiameter: Double
    /// Contact angle φ, degrees, 0 ≤ φ < 90.
    public let contactAngle: Double

    /// - Precondition: the ranges above.
    public init(rollingElements: Int, elementDiameter: Double, pitchDiameter: Double, contactAngle: Double = 0) {
        precondition(rollingElements >= 1, "BearingGeometry: \(rollingElements) rolling elements")
        precondition(
            elementDiameter > 0 && elementDiameter < pitchDiameter && pitchDiameter.isFinite,
            "BearingGeometry: d = \(elementDiameter) m, D = \(pitchDiameter) m: expected 0 < d < D")
        precondition(contactAngle >= 0 && contactAngle < 90, "BearingGeometry: contact angle \(contactAngle)°")
        self.rollingElements = rollingElements
        self.elementDiameter = elementDiameter
        self.pitchDiameter = pitchDiameter
        self.contactAngle = contactAngle
    }

    /// Randall and Antoni's kinematic formulas (MSSP 25, 2011, eq. 1-4), with r = d/D cos φ:
    /// BPFO = n/2 (1 - r), BPFI = n/2 (1 + r), BSF = D/(2d) (1 - r²), FTF = (1 - r)/2.
    public var multiples: DefectMultiples {
        let n = Double(rollingElements)
        let ratio = elementDiameter / pitchDiameter
        let r = ratio * cos(contactAngle * Double.pi / 180)
        return DefectMultiples(
            bpfo: n / 2 * (1 - r), bpfi: n / 2 * (1 + r), bsf: pitchDiameter / (2 * elementDiameter) * (1 - r * r),
            ftf: (1 - r) / 2)
    }

    /// Metres per unit of a length: `mm` and `in` (25.4 mm).
    static let lengthUnits: [(suffix: String, metres: Double)] = [("mm", 1e-3), ("in", 0.0254)]

    /// From `n`, `d`, `D` (each with a unit) and optional `angle` (degrees).
    init(parsing pairs: [String: String], text: String) throws(BearingError) {
        for key in pairs.keys where !["n", "d", "D", "angle"].contains(key) {
            throw .invalidBearing(
                text, reason: "\(key) is not a geometry key: give n, d, D (mm or in) and angle (degrees)")
        }
        guard let nText = pairs["n"], let dText = pairs["d"], let pitchText = pairs["D"] else {
            throw .invalidBearing(
                text,
                reason: "a geometry needs n (rolling elements), d (element diameter) and D (pitch diameter), "
                    + "as n=9,d=7.94mm,D=39.04mm,angle=0")
        }
        guard let n = Int(nText), n >= 1 else {
            throw .invalidBearing(text, reason: "n=\(nText) is not a whole number of rolling elements")
        }
        let d = try Self.length(dText, key: "d", text: text)
        let pitch = try Self.length(pitchText, key: "D", text: text)
        guard d < pitch else {
            throw .invalidBearing(text, reason: "d must be smaller than the pitch diameter D")
        }
        var angle = 0.0
        if let angleText = pairs["angle"] {
            let digits = angleText.hasSuffix("deg") ? String(angleText.dropLast(3)) : angleText
            guard let value = Double(digits), value >= 0, value < 90 else {
                throw .invalidBearing(text, reason: "angle=\(angleText) is not a contact angle from 0 to 90 degrees")
            }
            angle = value
        }
        self.init(rollingElements: n, elementDiameter: d, pitchDiameter: pitch, contactAngle: angle)
    }

    private static func length(_ value: String, key: String, text: String) throws(BearingError) -> Double {
        for unit in lengthUnits where value.hasSuffix(unit.suffix) {
            if let number = Double(value.dropLast(unit.suffix.count)), number.isFinite, number > 0 {
                return number * unit.metres
            }
        }
        throw .invalidBearing(text, reason: "\(key)=\(value) is not a positive length in mm or in (as 7.94mm)")
    }
}
