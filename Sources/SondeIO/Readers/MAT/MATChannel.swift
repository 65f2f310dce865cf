/// One channel of a MAT-file: a vector, or one column (or row) of a matrix.
struct MATChannel: Equatable, Sendable {
    /// The variable's path: `x`, `bearing.gs`.
    let variable: String
    /// How sonde names the channel: the variable's path for a vector, `m(:,2)` for a matrix's
    /// second column, `m(2,:)` for its second row (MATLAB's 1-based notation).
    let name: String
    let type: NumericSampleType
    /// The row (samples along columns) or column (samples along rows) it is, from 0.
    let index: Int
    /// Whether its samples run down the variable's rows.
    let samplesAlongRows: Bool
    /// Samples.
    let count: Int

    /// The channels of a readable 2-D variable under `orientation`, in order.
    static func channels(of variable: MATVariable, orientation: ArrayOrientation) -> [MATChannel] {
        guard let type = variable.matClass.sampleType, variable.dimensions.count == 2 else { return [] }
        let rows = variable.dimensions[0]
        let columns = variable.dimensions[1]
        let alongRows = orientation.samplesAlongRows(rows: rows, columns: columns)
        let channels = alongRows ? columns : rows
        return (0..<channels).map { index in
            let name =
                channels == 1
                ? variable.path : alongRows ? "\(variable.path)(:,\(index + 1))" : "\(variable.path)(\(index + 1),:)"
            return MATChannel(
                variable: variable.path, name: name, type: type, index: index, samplesAlongRows: alongRows,
                count: alongRows ? rows : columns)
        }
    }
}
