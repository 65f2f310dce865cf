import Foundation

/// A CSV of records (sonde's output or a reference file) parsed for comparison.
public struct RecordTable: Sendable {
    public var columns: [String]
    public var rows: [[String]]

    /// Parses RFC 4180 text with a header row (quoted fields allowed).
    public init(csv text: String) {
        var records: [[String]] = []
        var field = ""
        var record: [String] = []
        var inQuotes = false
        var iterator = Array(text.unicodeScalars).makeIterator()
        var pending: Unicode.Scalar? = nil
        func next() -> Unicode.Scalar? {
            if let p = pending { pending = nil; return p }
            return iterator.next()
        }
        while let c = next() {
            if inQuotes {
                if c == "\"" {
                    if let n = next() {
                        if n == "\"" { field.unicodeScalars.append("\"") } else { inQuotes = false; pending = n }
                    } else {
                        inQuotes = false
                    }
                } else {
                    field.unicodeScalars.append(c)
                }
            } else if c == "\"" {
                inQuotes = true
            } else if c == "," {
                record.append(field); field = ""
            } else if c == "\n" {
                record.append(field); field = ""
                records.append(record); record = []
            } else if c != "\r" {
                field.unicodeScalars.append(c)
            }
        }
        if !field.isEmpty || !record.isEmpty { record.append(field); records.append(record) }
        columns = records.first ?? []
        rows = Array(records.dropFirst())
    }

    public func index(of column: String) -> Int? { columns.firstIndex(of: column) }
}
