import CHDF5

/// libhdf5's process-wide setup, its error stack read into messages, and handles that close.
///
/// Every call goes through `ContainerLibraryLock`: Debian's libhdf5 is the serial build, which
/// is not thread-safe. Its automatic error printing is turned off (`H5Eset_auto2`); a failed
/// call's error quotes the error stack instead (`failure()`).
enum HDF5Library {
    private static let ready: Bool = ContainerLibraryLock.withLock {
        H5open() >= 0 && H5Eset_auto2(sonde_h5e_default(), nil, nil) >= 0
    }

    /// Opens the library and silences its error printing, once per process.
    static func prepare() { _ = ready }

    /// Runs `body` under `ContainerLibraryLock`, with the library prepared and its error stack cleared.
    static func locked<Value, Failure: Error>(
        _ body: () throws(Failure) -> Value
    ) throws(Failure) -> Value {
        prepare()
        return try ContainerLibraryLock.withLock { () throws(Failure) -> Value in
            H5Eclear2(sonde_h5e_default())
            return try body()
        }
    }

    /// The current error stack as one clause, " (libhdf5: outermost; innermost)", or "".
    /// Call under the lock, right after the failed call.
    static func failure() -> String {
        final class Collected { var descriptions: [String] = [] }
        let collected = Collected()
        H5Ewalk2(
            sonde_h5e_default(), H5E_WALK_DOWNWARD,
            { _, error, data in
                guard let error, let data, let text = error.pointee.desc else { return 0 }
                Unmanaged<Collected>.fromOpaque(data).takeUnretainedValue().descriptions.append(String(cString: text))
                return 0
            }, Unmanaged.passUnretained(collected).toOpaque())
        var kept: [String] = []
        if let first = collected.descriptions.first { kept.append(first) }
        if let last = collected.descriptions.last, collected.descriptions.count > 1 { kept.append(last) }
        return kept.isEmpty ? "" : " (libhdf5: " + kept.joined(separator: "; ") + ")"
    }
}

/// An open libhdf5 identifier (group, dataset, dataspace, datatype, attribute, property list),
/// closed when the handle goes away. Made and dropped with `ContainerLibraryLock` held (inside
/// `HDF5Library.locked`): its `deinit` calls libhdf5 without taking the lock.
struct HDF5Handle: ~Copyable {
    let id: hid_t

    /// nil when `id` is negative (the call failed).
    init?(_ id: hid_t) {
        guard id >= 0 else { return nil }
        self.id = id
    }

    deinit { _ = H5Idec_ref(id) }
}
