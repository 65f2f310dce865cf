/// Why an HDF5 file cannot be read, or a read of it is refused.
///
/// The message names what is wrong and what sonde expected instead (quoting libhdf5's own
/// words where it failed); `description` puts the file's path in front.
struct HDF5Error: Error, CustomStringConvertible, Equatable, Sendable {
    enum Kind: Sendable {
        /// The file could not be opened or read.
        case io
        /// The bytes are not HDF5 libhdf5 can read: a bad signature, a cut or damaged file.
        case corrupt
        /// A valid dataset sonde does not read: strings, compounds, enums, >2-D.
        case unsupported
        /// A value sonde cannot use: an empty dataset, a sample rate of 0 or NaN.
        case invalidValue
        /// The caller asked for something the file does not have: a dataset, a frame, equal lengths.
        case request
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
