/// A path to a variable or struct field: `x`, `bearing.gs`, `N15_M07.Y(7).Data`.
///
/// Components are separated by dots; a component may index a struct array's element with a
/// MATLAB (1-based, linear) index in parentheses.
struct MATPath: Equatable, Sendable {
    struct Component: Equatable, Sendable {
        let name: String
        /// The 0-based element, from MATLAB's 1-based `(k)`.
        let element: Int?
    }

    let components: [Component]

    /// - Throws: `ContainerError` (`.request`) when the text is not a path.
    init(_ text: String, file: String) throws(ContainerError) {
        var components: [Component] = []
        for part in text.split(separator: ".", omittingEmptySubsequences: false) {
            var name = Substring(part)
            var element: Int?
            if let open = part.firstIndex(of: "(") {
                let inside = part[part.index(after: open)...]
                guard inside.hasSuffix(")"), let index = Int(inside.dropLast()), index >= 1 else {
                    throw ContainerError(
                        .request, file,
                        "'\(text)' is not a variable path; expected names joined by dots, a struct array's "
                            + "element as name(k) with k from 1 (e.g. bearing.gs, Y(7).Data)")
                }
                name = part[..<open]
                element = index - 1
            }
            guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
                throw ContainerError(
                    .request, file,
                    "'\(text)' is not a variable path; expected names joined by dots, a struct array's "
                        + "element as name(k) with k from 1 (e.g. bearing.gs, Y(7).Data)")
            }
            components.append(Component(name: String(name), element: element))
        }
        self.components = components
    }
}
