import SondeCore

/// The checks every filter design makes before computing anything, shared by the typed
/// constructors (`Butterworth`, `Notch`) and `FilterSpec` so both report the same problem the
/// same way; only the prefix naming the stage differs.
enum FilterDesignCheck {
    /// Highest Butterworth order accepted. Higher orders are rarely what anyone wants, and the
    /// `lowpass:F[:ORDER]` spec language caps them here.
    static let maximumOrder = 16

    static func sampleRate(_ sampleRate: Double) throws {
        guard sampleRate.isFinite, sampleRate > 0 else {
            throw SondeError(.invalidArgument, "sample rate \(format(sampleRate)) Hz must be a positive, finite number")
        }
    }

    static func order(_ order: Int) throws {
        guard (1...maximumOrder).contains(order) else {
            throw SondeError(.invalidArgument, "order \(order) must be between 1 and \(maximumOrder)")
        }
    }

    /// - Parameters:
    ///   - name: what the frequency is ("cutoff", "low edge"...), for the message.
    ///   - sampleRate: nil when it is not known yet (parsing): only the lower bound is checked.
    static func frequency(_ frequency: Double, named name: String, sampleRate: Double?) throws {
        guard frequency.isFinite else {
            throw SondeError(.invalidArgument, "\(name) \(format(frequency)) Hz is not a finite frequency")
        }
        guard frequency > 0 else {
            throw SondeError(.invalidArgument, "\(name) \(format(frequency)) Hz must be above 0 Hz")
        }
        if let sampleRate, !(frequency < sampleRate / 2) {
            throw SondeError(
                .invalidArgument,
                "\(name) \(format(frequency)) Hz must be below half the sample rate (\(format(sampleRate / 2)) Hz)"
            )
        }
    }

    static func band(low: Double, high: Double) throws {
        guard low < high else {
            throw SondeError(.invalidArgument, "low edge \(format(low)) Hz must be below high edge \(format(high)) Hz")
        }
    }

    static func quality(_ quality: Double) throws {
        guard quality.isFinite else {
            throw SondeError(.invalidArgument, "quality \(format(quality)) is not a finite number")
        }
        guard quality > 0 else {
            throw SondeError(.invalidArgument, "quality \(format(quality)) must be above 0")
        }
    }

    /// Runs `body`, prefixing the message of any `SondeError` it throws with `context`
    /// ("filter 'lowpass:30000'", "Butterworth lowpass") so the user knows which stage failed.
    static func inContext<Result>(_ context: String, _ body: () throws -> Result) throws -> Result {
        do {
            return try body()
        } catch var error as SondeError {
            error.message = "\(context): \(error.message)"
            throw error
        }
    }

    /// `30000` rather than `30000.0`; other values as Swift prints them (`0.5`, `1e-05`).
    static func format(_ value: Double) -> String {
        if value.isFinite, value == value.rounded(), abs(value) < 1e15 {
            return String(Int(value))
        }
        return String(value)
    }
}
