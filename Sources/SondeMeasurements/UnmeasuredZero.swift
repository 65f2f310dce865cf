/// The one rule for values that mean "not measured": `thd` and `snr_db` are 0 for a window
/// without a usable fundamental (docs/features.md section 5), and a THD of 0 would read as
/// a perfectly clean signal, an SNR of 0 dB as noise as strong as the signal. A saved
/// measurement's means (`MeasurementSummary.checking`) and a report's statistics both leave
/// such windows out through this type, so the measurement page and the report agree.
public enum UnmeasuredZero {
    /// The columns whose 0 is "not measured".
    public static let columns: Set<String> = ["thd", "snr_db"]

    /// Whether a 0 in `column` is "not measured" rather than a value.
    public static func applies(to column: String) -> Bool {
        columns.contains(column)
    }
}
