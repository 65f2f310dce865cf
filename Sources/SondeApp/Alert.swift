/// An alert a screen shows (`role="alert"`), and what the page's script shows without
/// reloading when the form was sent by fetch.
struct Alert: Sendable, Equatable {
    var title: String
    var message: String

    static func error(_ message: String) -> Alert { Alert(title: "Error", message: message) }

    var html: HTML {
        """
        <div class="alert" role="alert" id="alert"><strong class="alert-title">\(title)</strong> \
        <span class="alert-message">\(message)</span></div>
        """
    }

    /// `{"alert": {"title": ..., "message": ...}}` for the page's script.
    var json: String {
        "{\"alert\":{\"title\":\(Self.jsonString(title)),\"message\":\(Self.jsonString(message))}}"
    }

    static func jsonString(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "<": result += "\\u003c"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
