/// What a MAT-file holds, for `sonde info` and for messages: every variable and struct field
/// with its class and dimensions, and the values of its numeric scalars.
struct MATCatalogue: Sendable {
    let path: String
    let version: MATFile.Version
    /// The header's text; empty for v4.
    let header: String
    /// Every variable and struct field, depth first in the file's order: `bearing`, `bearing.gs`, ...
    let variables: [MATVariable]
    /// The real numeric 1x1 arrays and their values (nil where reading one failed).
    let scalars: [Scalar]

    struct Scalar: Equatable, Sendable {
        let path: String
        let value: Double?
    }

    /// Opens the file, lists it and closes it.
    /// - Throws: `ContainerError` when the file cannot be opened, is not a MAT-file, or is cut or damaged.
    init(path: String) throws(ContainerError) {
        try self.init(file: MATFile(path: path))
    }

    init(file: MATFile) {
        path = file.path
        version = file.version
        header = file.header
        variables = file.variables
        scalars = file.scalars().map { Scalar(path: $0.path, value: $0.value) }
    }

    /// The arrays sonde reads as channels: real numeric, non-empty, at most two dimensions.
    var readable: [MATVariable] { variables.filter { $0.refusal == nil } }
}
