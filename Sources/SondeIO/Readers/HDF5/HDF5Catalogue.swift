/// What an HDF5 file holds, for `sonde info` and for messages: every group and dataset with
/// its type, shape, layout and attributes (numeric scalar attributes with their values).
struct HDF5Catalogue: Sendable {
    let path: String
    /// Every group and dataset, depth first, links in name order.
    let objects: [HDF5Object]

    /// Opens the file, lists it and closes it.
    /// - Throws: `ContainerError` when the file cannot be opened, is not HDF5, or is cut or damaged.
    init(path: String) throws(ContainerError) {
        self.init(file: try HDF5File(path: path))
    }

    init(file: HDF5File) {
        path = file.path
        objects = file.objects
    }

    var datasets: [HDF5Object] { objects.filter { $0.kind == .dataset } }

    /// The datasets sonde reads as channels: numeric, 1-D or 2-D, non-empty.
    var readable: [HDF5Object] { datasets.filter { $0.refusal == nil } }
}
