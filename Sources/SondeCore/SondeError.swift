/// The one error type sonde throws: a code to branch on, a message a user can act on,
/// and where the problem came from (file, line, column, or the option that was wrong).
///
/// Messages state what was expected, so that `sonde` can print `description` as a
/// single line and nothing else.
public struct SondeError: Error, CustomStringConvertible, Sendable {
    public enum Code: String, Sendable {
        /// A command-line value or configuration that cannot work (window size, filter spec...).
        case invalidArgument
        /// Input data that does not follow its format (a CSV cell that is not a number...).
        case invalidInput
        /// The operating system refused a file operation.
        case io
        /// A format or feature that sonde does not support.
        case unsupported
        /// The run was cancelled (SIGINT).
        case cancelled
        /// The reader of our output went away (EPIPE, as `sonde ... | head`): the run
        /// stops, and it is not a failure.
        case outputClosed
        /// What was asked for does not exist for the asker (a measurement id, missing or
        /// another user's alike): the web answers 404.
        case notFound
        /// A shared resource is in use (the instrument, during another's capture): the
        /// web answers 409.
        case busy
    }

    public var code: Code
    public var message: String
    public var location: SourceLocation?
    public var underlying: (any Error & Sendable)?

    public init(
        _ code: Code,
        _ message: String,
        at location: SourceLocation? = nil,
        underlying: (any Error & Sendable)? = nil
    ) {
        self.code = code
        self.message = message
        self.location = location
        self.underlying = underlying
    }

    public var description: String {
        var text = ""
        if let location { text += "\(location): " }
        text += message
        if let underlying { text += " (\(underlying))" }
        return text
    }
}
