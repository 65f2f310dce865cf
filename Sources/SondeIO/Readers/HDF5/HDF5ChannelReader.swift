import CHDF5

/// Reads an HDF5 file's chosen datasets as channels of interleaved Double frames, from any
/// frame, in hyperslabs.
///
/// Each channel is one `H5Dread` per call: a hyperslab of the file's dataspace (the frames, in
/// the channel's row or column) into a strided hyperslab of the caller's buffer, libhdf5
/// converting to native double on the way. 64-bit integers go through a scratch buffer of at
/// most `slabBytes` as themselves and are converted in Swift (round to nearest, as numpy).
/// Memory is the caller's buffer and that scratch, whatever the file's size.
final class HDF5ChannelReader {
    /// Bytes of scratch for 64-bit integers by default.
    static let defaultSlabBytes = 1 << 20

    /// One channel: a 1-D dataset, or a column or row of a 2-D one.
    struct Channel: Equatable, Sendable {
        /// The dataset's path.
        let dataset: String
        /// The dataset's path for a 1-D dataset; `/d[:,1]` for a column, `/d[1,:]` for a row
        /// (numpy's 0-based notation, as h5py users write it).
        let name: String
        let type: NumericSampleType
        /// The row or column, from 0; 0 for a 1-D dataset.
        let index: Int
        let rank: Int
        let samplesAlongRows: Bool
        let count: Int

        /// Whether this channel is the column after `previous` in the same samples x channels
        /// dataset, in a type libhdf5 converts to double itself (not a 64-bit integer).
        func follows(_ previous: Channel) -> Bool {
            rank == 2 && samplesAlongRows && previous.rank == 2 && previous.samplesAlongRows
                && dataset == previous.dataset && index == previous.index + 1 && type == previous.type
                && type != .int64 && type != .uint64
        }
    }

    let file: HDF5File
    let channels: [Channel]
    /// The channels' common length.
    let frameCount: Int
    let slabBytes: Int
    /// Each channel's open dataset; closed in `deinit` under the lock.
    private let datasetIDs: [hid_t]
    private let scratch: UnsafeMutableRawBufferPointer

    /// - Parameters:
    ///   - datasets: paths ("/group/dataset"), each a numeric 1-D or 2-D dataset.
    ///   - slabBytes: scratch bytes for 64-bit integers; the tests make it small to cross slabs.
    /// - Throws: `ContainerError` when a dataset does not exist (the message lists those that do), is
    ///   not numeric, is empty, has other than 1 or 2 dimensions, or differs in length from another.
    init(
        file: HDF5File, datasets: [String], orientation: ArrayOrientation = .longerDimension,
        slabBytes: Int = defaultSlabBytes
    ) throws(ContainerError) {
        guard !datasets.isEmpty else {
            throw ContainerError(.request, file.path, "no datasets chosen; expected at least one")
        }
        var channels: [Channel] = []
        for path in datasets {
            let dataset = try file.dataset(path)
            if let refusal = dataset.refusal {
                throw ContainerError(
                    dataset.sampleType != nil && dataset.count == 0 ? .invalidValue : .unsupported, file.path,
                    "'\(dataset.path)' \(refusal)")
            }
            guard let type = dataset.sampleType else { continue }
            let rows = dataset.shape[0]
            let columns = dataset.shape.count == 2 ? dataset.shape[1] : 1
            let alongRows = dataset.shape.count == 1 || orientation.samplesAlongRows(rows: rows, columns: columns)
            let count = alongRows ? rows : columns
            let lines = alongRows ? columns : rows
            for index in 0..<lines {
                let name =
                    dataset.shape.count == 1
                    ? dataset.path : alongRows ? "\(dataset.path)[:,\(index)]" : "\(dataset.path)[\(index),:]"
                let channel = Channel(
                    dataset: dataset.path, name: name, type: type, index: index, rank: dataset.shape.count,
                    samplesAlongRows: alongRows, count: count)
                if let first = channels.first, first.count != count {
                    throw ContainerError(
                        .request, file.path,
                        "channels '\(first.name)' (\(first.count) samples) and '\(name)' (\(count) samples) differ in "
                            + "length; expected channels read together to have the same number of samples")
                }
                channels.append(channel)
            }
        }
        let fileID = file.id
        let ids = HDF5Library.locked { () -> [hid_t] in
            channels.map { H5Dopen2(fileID, $0.dataset, sonde_h5p_default()) }
        }
        if let failed = ids.firstIndex(where: { $0 < 0 }) {
            HDF5Library.locked { for id in ids where id >= 0 { _ = H5Dclose(id) } }
            throw ContainerError(.corrupt, file.path, "libhdf5 cannot open dataset '\(channels[failed].dataset)'")
        }
        self.file = file
        self.channels = channels
        datasetIDs = ids
        frameCount = channels.first?.count ?? 0
        self.slabBytes = max(slabBytes, 8)
        scratch = .allocate(byteCount: self.slabBytes, alignment: 16)
    }

    deinit {
        let ids = datasetIDs
        ContainerLibraryLock.withLock { for id in ids { _ = H5Dclose(id) } }
        scratch.deallocate()
    }

    /// Reads frames from `frame` on, as many as fit in `buffer` (`buffer.count / channels.count`).
    /// - Returns: frames written; 0 when `frame == frameCount`.
    func read(from frame: Int, into buffer: UnsafeMutableBufferPointer<Double>) throws(ContainerError) -> Int {
        guard frame >= 0, frame <= frameCount else {
            throw ContainerError(
                .request, file.path, "frame \(frame) is outside the channels' 0...\(frameCount); expected one inside")
        }
        let step = channels.count
        let frames = min(buffer.count / step, frameCount - frame)
        guard frames > 0, let base = buffer.baseAddress else { return 0 }
        var column = 0
        while column < channels.count {
            let channel = channels[column]
            let id = datasetIDs[column]
            defer { column += 1 }
            // Neighbouring columns of one samples x channels dataset: one read of them all.
            var width = 1
            while column + width < channels.count, channels[column + width].follows(channels[column + width - 1]) {
                width += 1
            }
            if width > 1 {
                try readColumns(
                    channel, id, from: frame, count: frames, width: width, into: base, step: step, at: column)
                column += width - 1
                continue
            }
            if channel.type == .int64 || channel.type == .uint64 {
                guard let scratchBase = scratch.baseAddress else { continue }
                let slab = slabBytes / 8
                var done = 0
                while done < frames {
                    let count = min(slab, frames - done)
                    let memoryType = channel.type == .int64 ? sonde_h5t_native_int64() : sonde_h5t_native_uint64()
                    try read(
                        channel, id, from: frame + done, count: count, type: memoryType, into: scratchBase,
                        memoryLength: count, memoryStart: 0, memoryStep: 1)
                    channel.type.convert(
                        from: scratchBase, stride: 8, count: count, into: base + done * step + column, step: step)
                    done += count
                }
            } else {
                try read(
                    channel, id, from: frame, count: frames, type: sonde_h5t_native_double(), into: base,
                    memoryLength: frames * step, memoryStart: column, memoryStep: step)
            }
        }
        return frames
    }

    /// One `H5Dread` of `count` rows from `first` on of `width` neighbouring columns of a
    /// samples x channels dataset, from `first.index` on, into frames of `step` values at
    /// `column`, ... of `destination`. One selection of the block rather than one strided one
    /// per column: libhdf5 walks a strided selection value by value (`H5S_select_iterate`,
    /// malloc and 8-byte copies were a fifth of `sonde process` of a 2-column dataset with
    /// `--features rms`), and a full-width block is one copy and conversion.
    private func readColumns(
        _ first: Channel, _ dataset: hid_t, from row: Int, count: Int, width: Int,
        into destination: UnsafeMutablePointer<Double>, step: Int, at column: Int
    ) throws(ContainerError) {
        let path = file.path
        let failure = HDF5Library.locked { () -> String? in
            guard let fileSpace = HDF5Handle(H5Dget_space(dataset)) else { return HDF5Library.failure() }
            var start = [hsize_t(row), hsize_t(first.index)]
            var counts = [hsize_t(count), hsize_t(width)]
            guard H5Sselect_hyperslab(fileSpace.id, H5S_SELECT_SET, &start, nil, &counts, nil) >= 0 else {
                return HDF5Library.failure()
            }
            var shape = [hsize_t(count), hsize_t(step)]
            guard let memorySpace = HDF5Handle(H5Screate_simple(2, &shape, nil)) else { return HDF5Library.failure() }
            var memoryStart = [0, hsize_t(column)]
            guard H5Sselect_hyperslab(memorySpace.id, H5S_SELECT_SET, &memoryStart, nil, &counts, nil) >= 0 else {
                return HDF5Library.failure()
            }
            guard
                H5Dread(
                    dataset, sonde_h5t_native_double(), memorySpace.id, fileSpace.id, sonde_h5p_default(), destination)
                    >= 0
            else { return HDF5Library.failure() }
            return nil
        }
        if let failure {
            throw ContainerError(
                .corrupt, path,
                "libhdf5 cannot read samples \(row)..<\(row + count) of '\(first.name)' and the \(width - 1) columns "
                    + "after it: the file is cut or damaged\(failure)")
        }
    }

    /// One `H5Dread` of `count` samples of `channel` from `first` on, into elements
    /// `memoryStart`, `+ memoryStep`, ... of a 1-D memory space of `memoryLength` elements.
    private func read(
        _ channel: Channel, _ dataset: hid_t, from first: Int, count: Int, type: hid_t,
        into destination: UnsafeMutableRawPointer, memoryLength: Int, memoryStart: Int, memoryStep: Int
    ) throws(ContainerError) {
        let path = file.path
        let failure = HDF5Library.locked { () -> String? in
            guard let fileSpace = HDF5Handle(H5Dget_space(dataset)) else { return HDF5Library.failure() }
            var start: [hsize_t]
            var counts: [hsize_t]
            if channel.rank == 1 {
                start = [hsize_t(first)]
                counts = [hsize_t(count)]
            } else if channel.samplesAlongRows {
                start = [hsize_t(first), hsize_t(channel.index)]
                counts = [hsize_t(count), 1]
            } else {
                start = [hsize_t(channel.index), hsize_t(first)]
                counts = [1, hsize_t(count)]
            }
            guard H5Sselect_hyperslab(fileSpace.id, H5S_SELECT_SET, &start, nil, &counts, nil) >= 0 else {
                return HDF5Library.failure()
            }
            var length = [hsize_t(memoryLength)]
            guard let memorySpace = HDF5Handle(H5Screate_simple(1, &length, nil)) else { return HDF5Library.failure() }
            var memoryStartArray = [hsize_t(memoryStart)]
            var memoryStride = [hsize_t(memoryStep)]
            var memoryCount = [hsize_t(count)]
            guard
                H5Sselect_hyperslab(
                    memorySpace.id, H5S_SELECT_SET, &memoryStartArray, &memoryStride, &memoryCount, nil) >= 0
            else { return HDF5Library.failure() }
            guard H5Dread(dataset, type, memorySpace.id, fileSpace.id, sonde_h5p_default(), destination) >= 0 else {
                return HDF5Library.failure()
            }
            return nil
        }
        if let failure {
            throw ContainerError(
                .corrupt, path,
                "libhdf5 cannot read samples \(first)..<\(first + count) of '\(channel.name)': the file is cut or "
                    + "damaged\(failure)")
        }
    }
}
