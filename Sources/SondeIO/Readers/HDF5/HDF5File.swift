import CHDF5

/// An HDF5 file opened read-only through libhdf5: its groups and datasets listed with their
/// types, shapes and attributes; datasets read as channels by `HDF5ChannelReader`.
///
/// Supported: 1-D datasets (one channel) and 2-D ones (a channel per column or row, as
/// `ArrayOrientation` says) of integers (8 to 64 bits, signed or not) and floats (32, 64 bits),
/// either byte order, contiguous, compact or chunked and filtered (gzip, shuffle: the filters
/// libhdf5 was built with). Values are read by hyperslab into the caller's buffer, converted by
/// libhdf5 to native double (64-bit integers read as themselves and converted in Swift, as
/// numpy's `astype(float64)` does), so memory follows the window, not the file.
/// Listed but refused as channels: strings, compounds (h5py's complex numbers), enums (h5py's
/// bools), arrays, references, scalars, empty datasets and datasets of more than two dimensions.
///
/// Threads: every libhdf5 call of the process takes `ContainerLibraryLock` (Debian's libhdf5 is
/// the serial, thread-unsafe build), so readers on several threads are safe but take turns.
final class HDF5File: @unchecked Sendable {
    /// The path the file was opened by, as given.
    let path: String
    /// Every group and dataset, depth first, links in name order: "/", "/a", "/a/x", ...
    let objects: [HDF5Object]
    /// The open file's identifier; immutable, and used only under the lock (hence `@unchecked`).
    let id: hid_t

    /// Opens the file and lists it; no values are read.
    /// - Throws: `ContainerError` when the file cannot be opened, is not HDF5, or is cut or damaged.
    init(path: String) throws(ContainerError) {
        let (id, objects, failure) = HDF5Library.locked { () -> (hid_t, [HDF5Object], String?) in
            let signature = H5Fis_hdf5(path)
            if signature == 0 {
                return (
                    -1, [],
                    "not an HDF5 file: it has no HDF5 signature (\\x89HDF\\r\\n\\x1a\\n) at byte 0, 512, 1024..."
                )
            }
            let file = H5Fopen(path, sonde_h5f_acc_rdonly(), sonde_h5p_default())
            guard file >= 0 else {
                return (
                    -1, [],
                    (signature < 0 ? "cannot open the file" : "libhdf5 cannot open the file: it is cut or damaged")
                        + HDF5Library.failure()
                )
            }
            var objects: [HDF5Object] = []
            Self.list(file, path: "/", depth: 0, into: &objects)
            return (file, objects, nil)
        }
        if let failure {
            let kind: ContainerError.Kind = failure.hasPrefix("cannot open") ? .io : .corrupt
            throw ContainerError(kind, path, failure)
        }
        self.path = path
        self.id = id
        self.objects = objects
    }

    deinit {
        let id = id
        ContainerLibraryLock.withLock { _ = H5Fclose(id) }
    }

    /// The dataset at `path` ("/group/dataset"; the leading slash may be left out).
    /// - Throws: `ContainerError` (`.request`) listing the file's datasets when there is none.
    func dataset(_ path: String) throws(ContainerError) -> HDF5Object {
        let absolute = path.hasPrefix("/") ? path : "/" + path
        if let object = objects.first(where: { $0.path == absolute }) {
            guard object.kind == .dataset else {
                throw ContainerError(
                    .request, self.path, "'\(absolute)' is a \(object.kind.rawValue); expected a dataset: \(listing())")
            }
            return object
        }
        throw ContainerError(.request, self.path, "no dataset '\(absolute)'; \(listing())")
    }

    /// "the file's datasets are: /a (float64 100), ..." for messages.
    func listing() -> String {
        let datasets = objects.filter { $0.kind == .dataset }
        guard !datasets.isEmpty else { return "the file has no datasets" }
        return "the file's datasets are: "
            + datasets.map { "\($0.path) (\($0.type) \($0.shapeDescription))" }.joined(separator: ", ")
    }

    /// Every numeric scalar attribute, "path@name" and value: what a sample rate may be read from.
    func scalarAttributes() -> [(place: String, value: Double)] {
        objects.flatMap { object in
            object.attributes.compactMap { attribute in attribute.value.map { ("\(object.path)@\(attribute.name)", $0) }
            }
        }
    }

    /// The sample rate in Hz from the numeric scalar attribute `name` (`--rate-attribute`) of each
    /// dataset, or of its nearest group that has one.
    /// - Throws: `ContainerError` when `name` is nil or no dataset has it (the message lists the
    ///   numeric scalar attributes found), when datasets disagree, or when the value is 0,
    ///   negative, NaN or infinite.
    func sampleRate(attribute name: String?, of datasets: [String]) throws(ContainerError) -> Double {
        let found = scalarAttributes().map { "\($0.place) = \($0.value)" }
        let available =
            found.isEmpty
            ? "the file has no numeric scalar attributes"
            : "its numeric scalar attributes are: "
                + found.joined(separator: ", ")
        guard let name else {
            throw ContainerError(
                .request, path,
                "no sample rate: give one with --rate, or name the attribute that holds it with --rate-attribute; "
                    + available)
        }
        var rate: (value: Double, place: String)?
        for dataset in datasets {
            var place = try self.dataset(dataset).path
            var value: Double?
            while value == nil {
                let object = objects.first { $0.path == place }
                if let attribute = object?.attributes.first(where: { $0.name == name }) {
                    guard let number = attribute.value else {
                        throw ContainerError(
                            .request, path,
                            "attribute '\(name)' of '\(place)' is \(attribute.type) \(attribute.shape); expected one "
                                + "number")
                    }
                    value = number
                    break
                }
                if place == "/" { break }
                let parent = place.split(separator: "/").dropLast().joined(separator: "/")
                place = "/" + parent
            }
            guard let value else {
                throw ContainerError(
                    .request, path,
                    "no attribute '\(name)' on '\(dataset)' or the groups above it; \(available)")
            }
            guard value.isFinite, value > 0 else {
                throw ContainerError(
                    .invalidValue, path,
                    "attribute '\(name)' of '\(place)' is \(value); expected a positive, finite sample rate in Hz")
            }
            if let rate, rate.value != value {
                throw ContainerError(
                    .request, path,
                    "'\(rate.place)' has \(name) = \(rate.value) and '\(place)' has \(value); expected one rate for "
                        + "datasets read together")
            }
            rate = (value, place)
        }
        guard let rate else { throw ContainerError(.request, path, "no datasets chosen; expected at least one") }
        return rate.value
    }

    // MARK: - Listing (under the lock)

    private static func list(_ group: hid_t, path: String, depth: Int, into objects: inout [HDF5Object]) {
        objects.append(
            HDF5Object(
                path: path, kind: .group, type: "", sampleType: nil, shape: [], layout: "",
                attributes: attributes(of: group)))
        var info = H5G_info_t()
        guard depth < 64, H5Gget_info(group, &info) >= 0 else { return }
        for index in 0..<info.nlinks {
            let length = H5Lget_name_by_idx(group, ".", H5_INDEX_NAME, H5_ITER_INC, index, nil, 0, sonde_h5p_default())
            guard length > 0 else { continue }
            var bytes = [CChar](repeating: 0, count: length + 1)
            _ = H5Lget_name_by_idx(
                group, ".", H5_INDEX_NAME, H5_ITER_INC, index, &bytes, length + 1, sonde_h5p_default())
            let name = String(decoding: bytes.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let child = (path == "/" ? "" : path) + "/" + name
            guard let object = HDF5Handle(H5Oopen(group, name, sonde_h5p_default())) else {
                H5Eclear2(sonde_h5e_default())
                objects.append(
                    HDF5Object(
                        path: child, kind: .other, type: "", sampleType: nil, shape: [], layout: "", attributes: []))
                continue
            }
            switch H5Iget_type(object.id) {
            case H5I_GROUP: list(object.id, path: child, depth: depth + 1, into: &objects)
            case H5I_DATASET: objects.append(dataset(object.id, path: child))
            default:
                objects.append(
                    HDF5Object(
                        path: child, kind: .other, type: "", sampleType: nil, shape: [], layout: "",
                        attributes: attributes(of: object.id)))
            }
        }
    }

    private static func dataset(_ dataset: hid_t, path: String) -> HDF5Object {
        var description = ("unknown", NumericSampleType?.none)
        if let type = HDF5Handle(H5Dget_type(dataset)) { description = HDF5Object.describe(type: type.id) }
        var shape: [Int] = []
        if let space = HDF5Handle(H5Dget_space(dataset)) { shape = HDF5Object.shape(of: space.id) }
        var layout = ""
        if let plist = HDF5Handle(H5Dget_create_plist(dataset)) {
            switch H5Pget_layout(plist.id) {
            case H5D_CHUNKED:
                var chunk = [hsize_t](repeating: 0, count: max(shape.count, 1))
                let rank = H5Pget_chunk(plist.id, Int32(chunk.count), &chunk)
                layout = "chunked " + chunk.prefix(Int(max(rank, 0))).map { String($0) }.joined(separator: "x")
            case H5D_COMPACT: layout = "compact"
            case H5D_VIRTUAL: layout = "virtual"
            default: layout = "contiguous"
            }
            let filters = H5Pget_nfilters(plist.id)
            if filters > 0 { layout += " + \(filters) filter\(filters == 1 ? "" : "s")" }
        }
        return HDF5Object(
            path: path, kind: .dataset, type: description.0, sampleType: description.1, shape: shape, layout: layout,
            attributes: attributes(of: dataset))
    }

    private static func attributes(of object: hid_t) -> [HDF5Attribute] {
        final class Names { var names: [String] = [] }
        let names = Names()
        var index: hsize_t = 0
        _ = H5Aiterate2(
            object, H5_INDEX_NAME, H5_ITER_INC, &index,
            { _, name, _, data in
                guard let name, let data else { return 0 }
                Unmanaged<Names>.fromOpaque(data).takeUnretainedValue().names.append(String(cString: name))
                return 0
            }, Unmanaged.passUnretained(names).toOpaque())
        return names.names.map { name in
            guard let attribute = HDF5Handle(H5Aopen(object, name, sonde_h5p_default())),
                let type = HDF5Handle(H5Aget_type(attribute.id)), let space = HDF5Handle(H5Aget_space(attribute.id))
            else { return HDF5Attribute(name: name, type: "unknown", shape: [], value: nil) }
            let (description, sample) = HDF5Object.describe(type: type.id)
            let shape = HDF5Object.shape(of: space.id)
            var value: Double?
            if let sample, shape.reduce(1, *) == 1 {
                switch sample {
                case .int64:
                    var raw: Int64 = 0
                    if H5Aread(attribute.id, sonde_h5t_native_int64(), &raw) >= 0 { value = Double(raw) }
                case .uint64:
                    var raw: UInt64 = 0
                    if H5Aread(attribute.id, sonde_h5t_native_uint64(), &raw) >= 0 { value = Double(raw) }
                default:
                    var raw = 0.0
                    if H5Aread(attribute.id, sonde_h5t_native_double(), &raw) >= 0 { value = raw }
                }
            }
            return HDF5Attribute(name: name, type: description, shape: shape, value: value)
        }
    }
}
