/// Why a TDMS file cannot be read, or a read of it is refused.
///
/// The message names the file, the segment (numbered from 0) and the byte offset where the
/// problem lies, and what was expected there, so that `SondeError` can carry it as it is.
struct TDMSError: Error, CustomStringConvertible, Equatable, Sendable {
    enum Kind: Sendable {
        /// The file could not be opened or read (errno), or changed while it was read.
        case io
        /// The bytes contradict NI's layout: a wrong tag, a length past the end, a cut file.
        case corrupt
        /// Valid TDMS that sonde does not read: DAQmx raw data, NI scaling, strings as samples.
        case unsupported
        /// A value sonde cannot use: a `wf_increment` of 0 or NaN, a channel without values.
        case invalidValue
        /// The caller asked for something the file does not have: a channel, a frame, equal lengths.
        case request
    }

    let kind: Kind
    /// The file's path as the caller gave it.
    let path: String
    /// The segment's number, from 0, when the problem lies in one.
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
}
