import Foundation

/// A bearing's defect frequencies per shaft revolution (BPFO, BPFI, BSF, FTF as multiples of
/// the shaft speed): all the diagnosis needs to know about the bearing.
public struct DefectMultiples: Sendable, Hashable {
    /// Ball pass frequency, outer race, per revolution.
    public let bpfo: Double
    /// Ball pass frequency, inner race, per revolution.
    public let bpfi: Double
    /// Ball spin frequency, per revolution.
    public let bsf: Double
    /// Fundamental train (cage) frequency, per revolution.
    public let ftf: Double

    /// - Precondition: every multiple is finite and > 0.
    public init(bpfo: Double, bpfi: Double, bsf: Double, ftf: Double) {
        precondition(
            [bpfo, bpfi, bsf, ftf].allSatisfy { $0.isFinite && $0 > 0 },
            "DefectMultiples: every multiple must be a positive number")
        self.bpfo = bpfo
        self.bpfi = bpfi
        self.bsf = bsf
        self.ftf = ftf
    }

    /// The multiple of one defect.
    public subscript(defect: BearingDefect) -> Double {
        switch defect {
        case .outerRace: return bpfo
        case .innerRace: return bpfi
        case .ball: return bsf
        case .cage: return ftf
        }
    }

    /// The defect's frequency in Hz at `shaft` speed.
    public func frequency(of defect: BearingDefect, at shaft: ShaftSpeed) -> Double {
        self[defect] * shaft.hertz
    }

    /// Parses a bearing given three ways: by name from `BearingCatalog` (`6205-2RS`), as
    /// multiples (`bpfi=5.4152,bpfo=3.5848,bsf=2.357,ftf=0.3983`, all four) or as geometry
    /// (`n=9,d=7.94mm,D=39.04mm,angle=0`; d and D in mm or in, angle in degrees, 0 if left out).
    /// - Throws: `BearingError` naming the part that is wrong.
    public init(parsing text: String) throws(BearingError) {
        guard text.contains("=") else {
            self = try BearingCatalog.bearing(named: text).geometry.multiples
            return
        }
        var pairs: [String: String] = [:]
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = parts[0].trimmingCharacters(in: .whitespaces)
            guard parts.count == 2, !key.isEmpty else {
                throw .invalidBearing(text, reason: "'\(item)' is not KEY=VALUE")
            }
            guard pairs[key] == nil else { throw .invalidBearing(text, reason: "\(key) is given twice") }
            pairs[key] = parts[1].trimmingCharacters(in: .whitespaces)
        }
        let multipleKeys = Set(BearingDefect.allCases.map(\.rawValue))
        if pairs.keys.contains(where: { multipleKeys.contains($0.lowercased()) }) {
            self = try Self.multiples(pairs, text: text)
        } else {
            self = try BearingGeometry(parsing: pairs, text: text).multiples
        }
    }

    private static func multiples(_ pairs: [String: String], text: String) throws(BearingError) -> DefectMultiples {
        var values: [BearingDefect: Double] = [:]
        for (key, value) in pairs {
            guard let defect = BearingDefect(rawValue: key.lowercased()) else {
                throw .invalidBearing(text, reason: "\(key) is not one of bpfo, bpfi, bsf, ftf")
            }
            guard let number = Double(value), number.isFinite, number > 0 else {
                throw .invalidBearing(text, reason: "\(key)=\(value) is not a positive number (per shaft revolution)")
            }
            values[defect] = number
        }
        let missing = BearingDefect.allCases.filter { values[$0] == nil }.map(\.rawValue)
        guard missing.isEmpty, let bpfo = values[.outerRace], let bpfi = values[.innerRace],
            let bsf = values[.ball], let ftf = values[.cage]
        else {
            throw .invalidBearing(text, reason: "\(missing.joined(separator: ", ")) missing: give all four multiples")
        }
        return DefectMultiples(bpfo: bpfo, bpfi: bpfi, bsf: bsf, ftf: ftf)
    }
}
