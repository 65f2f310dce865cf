extension Double {
    /// Shortest round-trip text, without the `.0` of whole numbers: `1000`, `12.5`, `0.001`.
    /// Used where numbers are read by people (column names, messages), not in records.
    public var compactDescription: String {
        if self == rounded(), abs(self) < 1e15 { return String(Int64(self)) }
        return description
    }
}
