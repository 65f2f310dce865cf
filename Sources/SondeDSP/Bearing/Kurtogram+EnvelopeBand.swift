extension Kurtogram {
    /// The sample rate of a row's band signals, Hz: fs/2^k for level k, fs/(3 · 2^(k-1)) for
    /// level k-1 + log2 3 (as `FastKurtogram.bandSignal` decimates).
    public func bandSignalRate(row: Int) -> Double {
        guard row > 0 else { return sampleRate }
        if row % 2 == 0 {
            return sampleRate / Double(3 << (row / 2 - 1))
        }
        return sampleRate / Double(1 << ((row + 1) / 2))
    }

    /// The best cell (`best`'s order and ties) among the rows whose band signal's Nyquist
    /// frequency is at least `nyquist` Hz: a band too narrow to show the defect frequencies
    /// in its envelope is no use to a diagnosis, however impulsive. Row 0 always qualifies
    /// when `nyquist` ≤ fs/2; nil when no row does.
    public func best(envelopeNyquistAtLeast nyquist: Double) -> Cell? {
        var found: (row: Int, band: Int, value: Double)?
        for (r, row) in rows.enumerated() where bandSignalRate(row: r) / 2 >= nyquist {
            for (band, value) in row.values.enumerated() where found.map({ value > $0.value }) ?? true {
                found = (r, band, value)
            }
        }
        return found.map { cell(row: $0.row, band: $0.band) }
    }
}
