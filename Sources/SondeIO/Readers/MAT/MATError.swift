/// Why a MAT-file cannot be read, or a read of it is refused.
///
/// The message names what is wrong and what sonde expected instead; `description` puts the
/// file's path in front, so that `SondeError` can carry it as it is.
struct MATError: Error, CustomStringConvertible, Equatable, Sendable {
    enum Kind: Sendable {
        /// The file could not be opened or read.
        case io
        /// The bytes are not a MAT-file libmatio can read: a bad header, a cut or damaged file.
        case corrupt
        /// A valid variable sonde does not read: complex, sparse, cell, char, logical, >2-D.
        case unsupported
        /// A value sonde cannot use: an empty array, a sample rate of 0 or NaN.
        case invalidValue
        /// The caller asked for something the file does not have: a variable, a frame, equal lengths.
        case request
        /// Reading would cost more memory than sonde allows (a compressed variable inflated whole).
        case tooLarge
    }

    let kind: Kind
    /// The file's path as the caller gave it.
    let path: String
    let message: String

    init(_ kind: Kind, _ path: String, _ message: String) {
        self.kind = kind
        self.path = path
        self.message = message
    }

    var description: String { path + ": " + message }
}
