/// Why a container file (MAT, HDF5, TDMS) cannot be read, or a read of it is refused: one
/// type for the three readers, whose failures fall in the same kinds.
///
/// The message names what is wrong and what sonde expected instead (quoting the library's
/// own words where it failed); `description` puts the file's path in front, and for TDMS the
/// segment (numbered from 0) and byte offset where the problem lies, so that `SondeError`
/// can carry it as it is.
struct ContainerError: Error, CustomStringConvertible, Equatable, Sendable {
    enum Kind: Sendable {
        /// The file could not be opened or read (errno), or changed while it was read.
        case io
        /// The bytes contradict the format: a bad header or tag, a length past the end, a cut file.
        case corrupt
        /// Valid content sonde does not read: complex, sparse, strings, compounds, DAQmx raw
        /// data, NI scaling, more than 2-D.
        case unsupported
        /// A value sonde cannot use: an empty array, a sample rate (or `wf_increment`) of 0 or NaN.
        case invalidValue
        /// The caller asked for something the file does not have: a variable, a frame, equal lengths.
        case request
        /// Reading would cost more memory than sonde allows (a compressed variable inflated whole).
        case tooLarge
    }

    let kind: Kind
    /// The file's path as the caller gave it.
    let path: String
    /// The TDMS segment's number, from 0, when the problem lies in one.
    let segment: Int?
    /// The byte offset from the file's start, when the problem lies at one.
    let offset: Int?
    let message: String

    init(_ kind: Kind, _ path: String, segment: Int? = nil, offset: Int? = nil, _ message: String) {
        self.kind = kind
        self.path = path
        self.segment = segment
        self.offset = offset
        self.message = message
    }

    var description: String {
        var place = path
        if let segment { place += ": segment \(segment)" }
        if let offset { place += segment == nil ? ": byte \(offset)" : " at byte \(offset)" }
        return place + ": " + message
    }

    /// The same error under another name when it is about `path` (a copy of standard input
    /// is `stdin` to the user, not `/proc/self/fd/5`).
    func naming(_ name: String, ifAt path: String) -> ContainerError {
        guard self.path == path else { return self }
        return ContainerError(kind, name, segment: segment, offset: offset, message)
    }
}
