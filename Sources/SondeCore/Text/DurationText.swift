/// Durations as options spell them (`stream --duration`, `measure --duration`): `10s`,
/// `500ms`, `2m`, `1h` or plain seconds. Parsed here, once, for every front end.
public enum DurationText {
    /// Seconds from `10s`, `500ms`, `2m`, `1h` or a bare number; nil for anything else and
    /// for durations that are not positive and finite. The caller bounds the range.
    public static func seconds(_ text: String) -> Double? {
        let units: [(String, Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600)]
        for (suffix, scale) in units where text.hasSuffix(suffix) {
            if let value = Double(text.dropLast(suffix.count)), value > 0, value.isFinite { return value * scale }
        }
        if let value = Double(text), value > 0, value.isFinite { return value }
        return nil
    }
}
