import Foundation

/// Digital Butterworth filter design, coefficient for coefficient what
/// `scipy.signal.butter(order, Wn, btype, fs=sampleRate, output='sos')` returns.
///
/// Matching scipy exactly (not just in response) keeps sonde's filtered output comparable with
/// reference scripts: the same sections in the same order round the same way. The path is
/// scipy's: analog prototype, prewarp, frequency transform, bilinear transform, `zpk2sos`.
/// Coefficients are bit-identical to scipy 1.17's for almost all designs and within 1e-13
/// relative for the rest; the residue is numpy's SIMD `tan`. Bands centred exactly on fs/4
/// (`low + high == sampleRate / 2`) are the exception: their poles come in pairs of equal
/// magnitude, and scipy's own section order then depends on the last bit of `tan`, which
/// varies between machines; the cascade is the same filter either way.
public enum Butterworth {
    /// A low-pass filter: passes frequencies below `cutoff`.
    /// - Parameters:
    ///   - order: filter order, 1...16; `(order + 1) / 2` sections.
    ///   - cutoff: -3 dB frequency in Hz, 0 < cutoff < sampleRate/2.
    ///   - sampleRate: in Hz, > 0.
    /// - Throws: `SondeError` `.invalidArgument`, message starting "Butterworth lowpass: ".
    public static func lowpass(order: Int, cutoff: Double, sampleRate: Double) throws -> SecondOrderSections {
        try FilterDesignCheck.inContext("Butterworth lowpass") {
            try design(.lowpass(cutoff), order: order, sampleRate: sampleRate)
        }
    }

    /// A high-pass filter: passes frequencies above `cutoff`.
    /// - Parameters:
    ///   - order: filter order, 1...16; `(order + 1) / 2` sections.
    ///   - cutoff: -3 dB frequency in Hz, 0 < cutoff < sampleRate/2.
    ///   - sampleRate: in Hz, > 0.
    /// - Throws: `SondeError` `.invalidArgument`, message starting "Butterworth highpass: ".
    public static func highpass(order: Int, cutoff: Double, sampleRate: Double) throws -> SecondOrderSections {
        try FilterDesignCheck.inContext("Butterworth highpass") {
            try design(.highpass(cutoff), order: order, sampleRate: sampleRate)
        }
    }

    /// A band-pass filter: passes frequencies between `low` and `high`.
    /// - Parameters:
    ///   - order: order of the low-pass prototype, 1...16; the filter has `order` sections.
    ///   - low: lower -3 dB edge in Hz, 0 < low < high.
    ///   - high: upper -3 dB edge in Hz, low < high < sampleRate/2.
    ///   - sampleRate: in Hz, > 0.
    /// - Throws: `SondeError` `.invalidArgument`, message starting "Butterworth bandpass: ".
    public static func bandpass(
        order: Int, low: Double, high: Double, sampleRate: Double
    ) throws
        -> SecondOrderSections
    {
        try FilterDesignCheck.inContext("Butterworth bandpass") {
            try design(.bandpass(low, high), order: order, sampleRate: sampleRate)
        }
    }

    /// A band-stop filter: rejects frequencies between `low` and `high`.
    /// - Parameters:
    ///   - order: order of the low-pass prototype, 1...16; the filter has `order` sections.
    ///   - low: lower -3 dB edge in Hz, 0 < low < high.
    ///   - high: upper -3 dB edge in Hz, low < high < sampleRate/2.
    ///   - sampleRate: in Hz, > 0.
    /// - Throws: `SondeError` `.invalidArgument`, message starting "Butterworth bandstop: ".
    public static func bandstop(
        order: Int, low: Double, high: Double, sampleRate: Double
    ) throws
        -> SecondOrderSections
    {
        try FilterDesignCheck.inContext("Butterworth bandstop") {
            try design(.bandstop(low, high), order: order, sampleRate: sampleRate)
        }
    }

    /// The band type and its critical frequencies in Hz.
    enum Response {
        case lowpass(Double)
        case highpass(Double)
        case bandpass(Double, Double)
        case bandstop(Double, Double)
    }

    /// scipy's `iirfilter(order, Wn, btype=..., ftype='butter', output='sos', fs=sampleRate)`.
    /// Throws `SondeError`s without context; callers add it.
    static func design(_ response: Response, order: Int, sampleRate: Double) throws -> SecondOrderSections {
        try FilterDesignCheck.sampleRate(sampleRate)
        try FilterDesignCheck.order(order)
        switch response {
        case .lowpass(let cutoff), .highpass(let cutoff):
            try FilterDesignCheck.frequency(cutoff, named: "cutoff", sampleRate: sampleRate)
        case .bandpass(let low, let high), .bandstop(let low, let high):
            try FilterDesignCheck.frequency(low, named: "low edge", sampleRate: sampleRate)
            try FilterDesignCheck.frequency(high, named: "high edge", sampleRate: sampleRate)
            try FilterDesignCheck.band(low: low, high: high)
        }

        // scipy normalises to Wn = f / (fs/2), then designs at fs = 2 with the prewarped
        // analog frequency 2·fs·tan(π·Wn/fs), evaluated in this order.
        let nyquist = sampleRate / 2
        let internalRate = 2.0
        let prewarp = { (frequency: Double) in
            2 * internalRate * tan((Double.pi * (frequency / nyquist)) / internalRate)
        }
        let prototype = ZeroPoleGain.butterworthPrototype(order: order)
        let analog: ZeroPoleGain
        switch response {
        case .lowpass(let cutoff):
            analog = prototype.lowpassToLowpass(cutoff: prewarp(cutoff))
        case .highpass(let cutoff):
            analog = prototype.lowpassToHighpass(cutoff: prewarp(cutoff))
        case .bandpass(let low, let high):
            let (lower, upper) = (prewarp(low), prewarp(high))
            analog = prototype.lowpassToBandpass(center: sqrt(lower * upper), bandwidth: upper - lower)
        case .bandstop(let low, let high):
            let (lower, upper) = (prewarp(low), prewarp(high))
            analog = prototype.lowpassToBandstop(center: sqrt(lower * upper), bandwidth: upper - lower)
        }
        return analog.bilinear(sampleRate: internalRate).secondOrderSections()
    }
}
