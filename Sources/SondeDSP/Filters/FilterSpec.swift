import SondeCore

/// One stage of a filter chain as the user writes it: `lowpass:F[:ORDER]`, `highpass:F[:ORDER]`,
/// `bandpass:F1-F2[:ORDER]`, `bandstop:F1-F2[:ORDER]`, `notch:F[:Q]` or `dc`.
///
/// Parsing and design are separate steps because the sample rate is only known once the input
/// is open, while syntax errors should be reported before anything is opened. `init(parsing:)`
/// rejects everything it can without a sample rate; `design(sampleRate:)` checks the rest.
/// Error messages start with `filter '<text>': ` so the user sees which stage is wrong.
public struct FilterSpec: Sendable, Hashable, CustomStringConvertible {
    /// What the stage does, with its parameters. Frequencies are in Hz.
    public enum Kind: Sendable, Hashable {
        /// Butterworth low-pass, as `butter(order, cutoff, 'lowpass')`.
        case lowpass(cutoff: Double, order: Int)
        /// Butterworth high-pass, as `butter(order, cutoff, 'highpass')`.
        case highpass(cutoff: Double, order: Int)
        /// Butterworth band-pass, as `butter(order, [low, high], 'bandpass')`.
        case bandpass(low: Double, high: Double, order: Int)
        /// Butterworth band-stop, as `butter(order, [low, high], 'bandstop')`.
        case bandstop(low: Double, high: Double, order: Int)
        /// `iirnotch(frequency, quality)`.
        case notch(frequency: Double, quality: Double)
        /// DC removal: `butter(1, 0.5, 'highpass')`.
        case dc
    }

    /// Butterworth order when the spec gives none.
    public static let defaultOrder = 4
    /// Notch quality factor when the spec gives none.
    public static let defaultQuality = 30.0
    /// Cutoff of the `dc` stage's first-order high-pass, in Hz.
    public static let dcCutoff = 0.5

    public let kind: Kind
    /// The spec as written (or, for `init(_:)`, in canonical form); used in error messages.
    public let text: String

    public var description: String { text }

    /// A stage built in code; `text` is the canonical spelling, e.g. `lowpass:100:4`.
    public init(_ kind: Kind) {
        self.kind = kind
        let f = FilterDesignCheck.format
        switch kind {
        case .lowpass(let cutoff, let order): text = "lowpass:\(f(cutoff)):\(order)"
        case .highpass(let cutoff, let order): text = "highpass:\(f(cutoff)):\(order)"
        case .bandpass(let low, let high, let order): text = "bandpass:\(f(low))-\(f(high)):\(order)"
        case .bandstop(let low, let high, let order): text = "bandstop:\(f(low))-\(f(high)):\(order)"
        case .notch(let frequency, let quality): text = "notch:\(f(frequency)):\(f(quality))"
        case .dc: text = "dc"
        }
    }

    /// Parses one stage and checks everything that does not depend on the sample rate.
    /// - Parameter text: e.g. `lowpass:100`, `bandpass:300-3400:2`, `notch:50:35`, `dc`;
    ///   surrounding whitespace is ignored.
    /// - Throws: `SondeError` `.invalidArgument` naming the spec and saying what was expected.
    public init(parsing text: String) throws {
        let trimmed = text.trimmingWhitespace()
        self.text = trimmed
        kind = try FilterDesignCheck.inContext("filter '\(trimmed)'") {
            let kind = try Self.parseKind(trimmed)
            try Self.validate(kind, sampleRate: nil)
            return kind
        }
    }

    /// The same as `init(parsing:)`, named like `Band.parseList` and `Feature.parseList`.
    public static func parse(_ text: String) throws -> FilterSpec {
        try FilterSpec(parsing: text)
    }

    /// Designs the stage for a stream at `sampleRate`.
    /// - Parameter sampleRate: in Hz, > 0; every frequency must be below half of it.
    /// - Throws: `SondeError` `.invalidArgument` naming the spec, e.g.
    ///   `filter 'lowpass:30000': cutoff 30000 Hz must be below half the sample rate (22050 Hz)`.
    public func design(sampleRate: Double) throws -> SecondOrderSections {
        try FilterDesignCheck.inContext("filter '\(text)'") {
            try Self.validate(kind, sampleRate: sampleRate)
            switch kind {
            case .lowpass(let cutoff, let order):
                return try Butterworth.design(.lowpass(cutoff), order: order, sampleRate: sampleRate)
            case .highpass(let cutoff, let order):
                return try Butterworth.design(.highpass(cutoff), order: order, sampleRate: sampleRate)
            case .bandpass(let low, let high, let order):
                return try Butterworth.design(.bandpass(low, high), order: order, sampleRate: sampleRate)
            case .bandstop(let low, let high, let order):
                return try Butterworth.design(.bandstop(low, high), order: order, sampleRate: sampleRate)
            case .notch(let frequency, let quality):
                return try Notch.checkedDesign(frequency: frequency, quality: quality, sampleRate: sampleRate)
            case .dc:
                return try Butterworth.design(.highpass(Self.dcCutoff), order: 1, sampleRate: sampleRate)
            }
        }
    }

    /// The checks of `design`, in the same order, with the upper frequency bound skipped when
    /// `sampleRate` is nil.
    private static func validate(_ kind: Kind, sampleRate: Double?) throws {
        if let sampleRate {
            try FilterDesignCheck.sampleRate(sampleRate)
        }
        switch kind {
        case .lowpass(let cutoff, let order), .highpass(let cutoff, let order):
            try FilterDesignCheck.order(order)
            try FilterDesignCheck.frequency(cutoff, named: "cutoff", sampleRate: sampleRate)
        case .bandpass(let low, let high, let order), .bandstop(let low, let high, let order):
            try FilterDesignCheck.order(order)
            try FilterDesignCheck.frequency(low, named: "low edge", sampleRate: sampleRate)
            try FilterDesignCheck.frequency(high, named: "high edge", sampleRate: sampleRate)
            try FilterDesignCheck.band(low: low, high: high)
        case .notch(let frequency, let quality):
            try FilterDesignCheck.frequency(frequency, named: "frequency", sampleRate: sampleRate)
            try FilterDesignCheck.quality(quality)
        case .dc:
            if let sampleRate {
                try FilterDesignCheck.frequency(dcCutoff, named: "dc cutoff", sampleRate: sampleRate)
            }
        }
    }

    /// The syntax: fields separated by `:`, a band as `F1-F2`.
    private static func parseKind(_ text: String) throws -> Kind {
        let fields = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        let name = fields[0]
        let syntax: String
        switch name {
        case "lowpass", "highpass": syntax = "\(name):F[:ORDER] with F in Hz"
        case "bandpass", "bandstop": syntax = "\(name):F1-F2[:ORDER] with F1 < F2 in Hz"
        case "notch": syntax = "notch:F[:Q] with F in Hz"
        case "dc": syntax = "dc, with no parameters"
        default:
            let shown = name.isEmpty ? "an empty kind" : "unknown kind '\(name)'"
            throw SondeError(
                .invalidArgument,
                "\(shown); expected lowpass:F[:ORDER], highpass:F[:ORDER], bandpass:F1-F2[:ORDER], bandstop:F1-F2[:ORDER], notch:F[:Q] or dc"
            )
        }
        let maximumFields = name == "dc" ? 1 : 3
        let minimumFields = name == "dc" ? 1 : 2
        guard (minimumFields...maximumFields).contains(fields.count) else {
            throw SondeError(.invalidArgument, "\(fields.count - 1) parameter(s) given; expected \(syntax)")
        }

        func number(_ field: String, named what: String) throws -> Double {
            // Decimal notation only: Double(_:) would also take "nan", "inf" and hex floats.
            let allowed = Set("0123456789.eE+-")
            guard !field.isEmpty, field.allSatisfy(allowed.contains), let value = Double(field), value.isFinite else {
                throw SondeError(.invalidArgument, "\(what) '\(field)' is not a decimal number; expected \(syntax)")
            }
            return value
        }
        func order(_ index: Int) throws -> Int {
            guard index < fields.count else { return defaultOrder }
            let field = fields[index]
            guard !field.isEmpty, field.allSatisfy(\.isASCIIDigit), let value = Int(field) else {
                throw SondeError(
                    .invalidArgument,
                    "order '\(field)' is not a whole number; expected \(syntax), ORDER 1...\(FilterDesignCheck.maximumOrder)"
                )
            }
            return value
        }
        func band(_ field: String) throws -> (Double, Double) {
            // The separator is a '-' that neither starts the field nor belongs to an exponent.
            let characters = Array(field)
            guard
                let dash = characters.indices.dropFirst().first(where: { index in
                    characters[index] == "-" && characters[index - 1] != "e" && characters[index - 1] != "E"
                })
            else {
                throw SondeError(.invalidArgument, "band '\(field)' has no '-' between its edges; expected \(syntax)")
            }
            return (
                try number(String(characters[..<dash]), named: "low edge"),
                try number(String(characters[(dash + 1)...]), named: "high edge")
            )
        }

        switch name {
        case "lowpass":
            return .lowpass(cutoff: try number(fields[1], named: "cutoff"), order: try order(2))
        case "highpass":
            return .highpass(cutoff: try number(fields[1], named: "cutoff"), order: try order(2))
        case "bandpass":
            let (low, high) = try band(fields[1])
            return .bandpass(low: low, high: high, order: try order(2))
        case "bandstop":
            let (low, high) = try band(fields[1])
            return .bandstop(low: low, high: high, order: try order(2))
        case "notch":
            let frequency = try number(fields[1], named: "frequency")
            let quality = fields.count > 2 ? try number(fields[2], named: "quality") : defaultQuality
            return .notch(frequency: frequency, quality: quality)
        default:
            return .dc
        }
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isWholeNumber }
}

extension String {
    /// Without leading and trailing spaces, tabs and newlines (no Foundation needed).
    fileprivate func trimmingWhitespace() -> String {
        var slice = Substring(self)
        while let first = slice.first, first.isWhitespace { slice.removeFirst() }
        while let last = slice.last, last.isWhitespace { slice.removeLast() }
        return String(slice)
    }
}
