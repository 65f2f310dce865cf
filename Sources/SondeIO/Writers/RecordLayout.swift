/// The columns every record has: `[file,] time, channel, frame, start`, then `valueColumns`.
public struct RecordLayout: Sendable, Equatable {
    /// Feature and band column names, in order.
    public var valueColumns: [String]
    /// Whether a `file` column comes first (runs with several inputs).
    public var includesFile: Bool

    public init(valueColumns: [String], includesFile: Bool) {
        self.valueColumns = valueColumns
        self.includesFile = includesFile
    }

    public var allColumns: [String] {
        (includesFile ? ["file"] : []) + ["time", "channel", "frame", "start"] + valueColumns
    }
}
