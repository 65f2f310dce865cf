/// Record formats of docs/features.md section 6, and Apache Parquet for data pipelines.
public enum OutputFormat: String, CaseIterable, Sendable {
    case csv, json, ndjson, parquet

    /// The format a file name implies (`.csv`, `.json`, `.ndjson`/`.jsonl`, `.parquet`), if any.
    public init?(inferredFrom path: String) {
        let lower = path.lowercased()
        if lower.hasSuffix(".csv") {
            self = .csv
        } else if lower.hasSuffix(".ndjson") || lower.hasSuffix(".jsonl") {
            self = .ndjson
        } else if lower.hasSuffix(".json") {
            self = .json
        } else if lower.hasSuffix(".parquet") {
            self = .parquet
        } else {
            return nil
        }
    }
}
