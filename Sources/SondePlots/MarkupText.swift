/// Text for HTML and SVG alike: the figures, the report page and the app's screens escape
/// what they interpolate with this one function.
package enum MarkupText {
    /// Text content or an attribute value with `&`, `<`, `>` and both quotes as entities.
    package static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }
}
