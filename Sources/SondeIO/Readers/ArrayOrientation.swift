/// How a 2-D array of a container (MAT, HDF5) holds channels: which dimension runs along time.
///
/// Dimensions are named as scipy.io.loadmat and h5py give the array's shape, `(rows, columns)`;
/// a vector (one dimension of 1) is one channel whatever the orientation.
enum ArrayOrientation: String, CaseIterable, Sendable {
    /// Samples run along the longer dimension (rows when there are as many rows as columns).
    case longerDimension = "auto"
    /// `(samples, channels)`: each column is a channel.
    case samplesByChannels = "samples-by-channels"
    /// `(channels, samples)`: each row is a channel.
    case channelsBySamples = "channels-by-samples"

    /// Whether samples run down the rows of a `rows` x `columns` array.
    func samplesAlongRows(rows: Int, columns: Int) -> Bool {
        if rows == 1 { return false }
        if columns == 1 { return true }
        switch self {
        case .longerDimension: return rows >= columns
        case .samplesByChannels: return true
        case .channelsBySamples: return false
        }
    }
}
